"""The installer of hosts whose config is a ``{"hooks": {event: [entry, ...]}}`` JSON file.

Claude Code, Codex, Gemini CLI, Copilot CLI, Copilot in VS Code, Cursor and Windsurf
differ here only in data — the file, the events and matchers, the entry template, the
skeleton of a new file — which their ``INSTALL`` rows hold (:mod:`memhooks.agents.wiring`).
The merging itself is :mod:`.eventmap`'s: only entries whose command runs
``memhooks hook`` are added or removed, and installing twice changes nothing.
"""

from __future__ import annotations

from . import eventmap, jsonc
from .base import PROJECT, reading
from .files import read

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .base import Context, Edit, Status
    from .hosts import Host


def install(host: Host, ctx: Context) -> list[Edit]:
    path = host.config_path(ctx)
    with reading(host.name, path):
        return eventmap.install_edits(path, host.entries(ctx), host.wiring.get("skeleton"))


def uninstall(host: Host, ctx: Context) -> list[Edit]:
    path = host.config_path(ctx)
    with reading(host.name, path):
        return eventmap.uninstall_edits(path, host.wiring.get("skeleton", {}))


def status(host: Host, ctx: Context) -> Status:
    """Our entries in the host's config at ``ctx.level``, the programs they run, and the
    host's own switch for hooks (``off_switch``)."""
    path = host.config_path(ctx)
    found: Status = eventmap.status_of(host.name, ctx.level, path)
    if not found.installed:
        return found
    switch = host.wiring.get("off_switch")
    if switch is not None and _setting(read(path), switch[0]) == switch[1]:
        found.problems.append(switch[2])
        found.fires = False
    todo = [*host.wiring.get("todo", ())]
    if ctx.level == PROJECT:
        todo += host.wiring.get("project_todo", ())
    else:
        found.notes += host.wiring.get("user_notes", ())
    approval = host.wiring.get("approval")
    if approval:
        todo.append(approval)
        if found.fires:
            found.fires = None  # approvals live inside the host: we cannot see them
    found.todo += todo
    return found


def _setting(text: str | None, keys: tuple[str, ...]) -> object:
    try:
        value: object = jsonc.parse(text or "{}").value
    except jsonc.JsoncError:
        return None
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value
