"""Kiro IDE (>= 1.0) and Kiro CLI v3 file hooks: a file of our own in Kiro's list format
(``{"version": "v1", "hooks": [{"name", "trigger", "matcher", "action", ...}]}``), one
hook per ``(event, matcher)`` of the host's row.

Kiro CLI's agent-config hooks (``.kiro/agents/*.json``) and the legacy ``*.kiro.hook``
files are not written. A hook in the file that does not run ``memhooks hook`` is kept.
"""

from __future__ import annotations

import json
import os

from . import command, launcher_state
from .base import Context, Edit, Status, edit, reading
from .files import read

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .hosts import Host

#: Kiro shows hook names in its UI.
NAMES = {"UserPromptSubmit": "memhooks-recall", "PostToolUse": "memhooks-maintain"}


def entries(host: Host, ctx: Context) -> list[dict[str, object]]:
    cmd = host.command(ctx)
    out: list[dict[str, object]] = []
    for event, matcher in host.events:
        hook: dict[str, object] = {"name": NAMES.get(event, f"memhooks-{event}"), "trigger": event}
        if matcher:
            hook["matcher"] = matcher
        hook.update(action={"type": "command", "command": cmd}, timeout=10, enabled=True)
        out.append(hook)
    return out


def _ours(hook: object) -> bool:
    action = hook.get("action") if isinstance(hook, dict) else None
    return isinstance(action, dict) and command.is_ours(action.get("command"))


def _load(text: str | None) -> dict[str, Any]:
    data = json.loads(text) if text and text.strip() else {"version": "v1", "hooks": []}
    if not isinstance(data, dict) or not isinstance(data.get("hooks", []), list):
        raise ValueError('not a Kiro hooks file (expected {"version", "hooks": [...]})')  # noqa: TRY004  reported as a config error
    return data


def install(host: Host, ctx: Context) -> list[Edit]:
    path = host.config_path(ctx)
    with reading(host.name, path):
        data = _load(read(path))
    data["hooks"] = [h for h in data.get("hooks", []) if not _ours(h)] + entries(host, ctx)
    return edit(path, json.dumps(data, indent=2) + "\n")


def uninstall(host: Host, ctx: Context) -> list[Edit]:
    path = host.config_path(ctx)
    text = read(path)
    if text is None:
        return []
    with reading(host.name, path):
        data = _load(text)
    hooks = [h for h in data.get("hooks", []) if not _ours(h)]
    if len(hooks) == len(data.get("hooks", [])):
        return []
    data["hooks"] = hooks
    return edit(path, json.dumps(data, indent=2) + "\n" if hooks else None)


def status(host: Host, ctx: Context) -> Status:
    found = Status(host.name, ctx.level)
    path = host.config_path(ctx)
    try:
        data = _load(read(path))
    except ValueError as exc:
        where = f":{exc.lineno}:{exc.colno}" if isinstance(exc, json.JSONDecodeError) else ""
        found.problems.append(f"{path}{where}: {getattr(exc, 'msg', exc)}")
        return found
    for hook in data.get("hooks", []):
        if _ours(hook) and hook.get("enabled", True):
            found.events.append(str(hook.get("trigger")))
            why = launcher_state.command_problem(hook["action"]["command"])
            if why is not None:
                found.problems.append(why)
                found.stale = True
    if found.events:
        found.files.append(os.path.abspath(path))
        found.fires = not found.problems
    return found
