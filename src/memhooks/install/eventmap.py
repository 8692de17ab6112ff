"""Hook configs shaped ``{"hooks": {"<Event>": [entry, ...]}}`` (most hosts).

Two entry styles exist: Claude-style *groups* ``{"matcher": ..., "hooks": [{"type":
"command", "command": ...}]}`` (Claude Code, Codex, Gemini CLI) and *flat* entries
``{"command" | "bash": ..., ...}`` (Cursor, Windsurf, Copilot, VS Code). An entry is ours
when its command runs ``memhooks hook`` (:func:`memhooks.install.command.is_ours`); a
group that also holds other tools' commands keeps them and loses only ours.

:func:`merge` strips ours and appends the wanted entries, so installing twice changes
nothing and a changed command (new path, roles) replaces the old one.
"""

from __future__ import annotations

import json

from . import jsonc
from .base import Status, edit
from .command import is_ours
from .files import read
from .launcher_state import command_problem

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

COMMAND_KEYS = ("command", "bash", "powershell")


def _ours_flat(entry: Any) -> bool:
    return isinstance(entry, dict) and any(is_ours(entry.get(k)) for k in COMMAND_KEYS)


def commands(entry: Any) -> list[str]:
    """Our command strings in ``entry`` (flat or group)."""
    found = [entry.get(k) for k in COMMAND_KEYS] if isinstance(entry, dict) else []
    inner = entry.get("hooks") if isinstance(entry, dict) else None
    for hook in inner if isinstance(inner, list) else []:
        if isinstance(hook, dict):
            found += [hook.get(k) for k in COMMAND_KEYS]
    return [c for c in found if isinstance(c, str) and is_ours(c)]


def strip(text: str, hooks_key: str = "hooks") -> str:
    """``text`` without any of our entries; event lists and the hooks object that only
    we emptied are removed. Raises jsonc.JsoncError."""
    root = jsonc.parse(text)
    hooks = root.get(hooks_key) if root.kind == "object" else None
    if hooks is None or hooks.kind != "object":
        return text
    for event, _, _ in list(hooks.members):
        text = _strip_event(text, hooks_key, event)
    return text


def _strip_event(text: str, hooks_key: str, event: str) -> str:
    removed = False
    while True:
        hooks = jsonc.parse(text).get(hooks_key)
        array = hooks.get(event) if hooks is not None else None
        if array is None or array.kind != "array":
            return text
        changed = False
        for index in range(len(array.items) - 1, -1, -1):
            item = array.items[index]
            if _ours_flat(item.value):
                text = jsonc.remove_item(text, array, index)
                changed = True
                break
            inner = item.get("hooks") if item.kind == "object" else None
            if inner is not None and inner.kind == "array":
                mine = [i for i, hook in enumerate(inner.items) if _ours_flat(hook.value)]
                if mine and len(mine) == len(inner.items):
                    text = jsonc.remove_item(text, array, index)
                    changed = True
                    break
                if mine:
                    text = jsonc.remove_item(text, inner, mine[-1])
                    changed = True
                    break
        if not changed:
            break
        removed = True
    hooks = jsonc.parse(text).get(hooks_key)
    array = hooks.get(event) if hooks is not None else None
    if removed and hooks is not None and array is not None and not array.items:
        text = jsonc.remove_member(text, hooks, event)
    return text


def merge(
    text: str | None,
    entries: dict[str, list[dict[str, Any]]],
    skeleton: dict[str, Any] | None = None,
    hooks_key: str = "hooks",
) -> str:
    """``text`` (None: a new file from ``skeleton``) with our ``entries`` per event,
    after stripping any earlier ones of ours. Raises jsonc.JsoncError."""
    if text is None or not text.strip():
        text = jsonc_dump(skeleton or {})
    text = strip(text, hooks_key)
    root = jsonc.parse(text)
    if root.kind != "object":
        raise jsonc.error_at(text, root, "the file's top level is not a JSON object")
    if root.get(hooks_key) is None:
        text = jsonc.add_member(text, root, hooks_key, {})
    for event, wanted in entries.items():
        for entry in wanted:
            hooks = jsonc.parse(text).get(hooks_key)
            assert hooks is not None
            if hooks.kind != "object":
                raise jsonc.error_at(text, hooks, f"{hooks_key!r} is not a JSON object")
            array = hooks.get(event)
            if array is None:
                text = jsonc.add_member(text, hooks, event, [entry])
            elif array.kind != "array":
                raise jsonc.error_at(text, array, f"{hooks_key}.{event} is not a list")
            else:
                text = jsonc.append_item(text, array, entry)
    return text


def unmerge(
    text: str | None, hooks_key: str = "hooks", empty: dict[str, Any] | None = None
) -> str | None:
    """``text`` without our entries; None (delete the file) when nothing but ``empty``
    (the skeleton we would create) remains. Raises jsonc.JsoncError."""
    if text is None:
        return None
    stripped = strip(text, hooks_key)
    root = jsonc.parse(stripped)
    hooks = root.get(hooks_key) if root.kind == "object" else None
    if stripped != text and hooks is not None and hooks.kind == "object" and not hooks.members:
        stripped = jsonc.remove_member(stripped, root, hooks_key)
        root = jsonc.parse(stripped)
    if (
        stripped != text
        and empty is not None
        and root.value == {k: v for k, v in empty.items() if k != hooks_key}
    ):
        return None
    return stripped


def jsonc_dump(value: dict[str, Any]) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def installed(text: str | None, hooks_key: str = "hooks") -> dict[str, list[str]]:
    """Event -> our command strings found in ``text`` (empty when unreadable)."""
    if text is None:
        return {}
    try:
        value = jsonc.parse(text).value
    except jsonc.JsoncError:
        return {}
    hooks = value.get(hooks_key) if isinstance(value, dict) else None
    found: dict[str, list[str]] = {}
    for event, entries in hooks.items() if isinstance(hooks, dict) else ():
        for entry in entries if isinstance(entries, list) else ():
            found.setdefault(event, []).extend(commands(entry))
    return {event: cmds for event, cmds in found.items() if cmds}


def broken_commands(found: dict[str, list[str]]) -> list[str]:
    """Problems: our commands that would not reach memhooks (:func:`.command.problem`),
    one line per reason, naming its events."""
    events: dict[str, list[str]] = {}
    for event, cmds in found.items():
        for cmd in cmds:
            why = command_problem(cmd)
            if why is not None and event not in events.setdefault(why, []):
                events[why].append(event)
    return [f"{', '.join(names)}: {why}" for why, names in events.items()]


def install_edits(
    path: str,
    entries: dict[str, list[dict[str, Any]]],
    skeleton: dict[str, Any] | None = None,
    hooks_key: str = "hooks",
) -> list[Any]:
    """The edit that puts our ``entries`` into the config at ``path``."""
    return edit(path, merge(read(path), entries, skeleton, hooks_key))


def uninstall_edits(
    path: str, skeleton: dict[str, Any] | None = None, hooks_key: str = "hooks"
) -> list[Any]:
    """The edit that takes our entries out of the config at ``path`` (deleting a file
    left with nothing but ``skeleton``)."""
    before = read(path)
    if before is None:
        return []
    return edit(path, unmerge(before, hooks_key, skeleton))


def status_of(agent: str, level: str, path: str, hooks_key: str = "hooks") -> Any:
    """A :class:`~memhooks.install.base.Status` from the config at ``path``."""
    status = Status(agent, level)
    text = read(path)
    try:
        if text is not None:
            jsonc.parse(text)
    except jsonc.JsoncError as exc:
        status.problems.append(f"{path}:{exc.line}:{exc.column}: not valid JSON: {exc.reason}")
        return status
    found = installed(text, hooks_key)
    if found:
        status.files.append(path)
        status.events = list(found)
        status.problems += broken_commands(found)
        status.stale = bool(status.problems)
        status.fires = not status.problems
    return status
