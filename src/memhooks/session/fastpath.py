"""The session step's shortcut for tool events: "already served" decided before the
project root, SQLite or a hook is read.

A read, search, shell command or edit of a known session that touched only what the
session was already served (and, while line-level recall is on, read only files it was
told about: :mod:`memhooks.session.snapshot`) needs nothing but a line in its touch log
(:func:`memhooks.session.snapshot.settled`) — for an edit, when its generated cue
already lists the file: decided by a few ``lstat`` calls against what the last such
answer rested on (:func:`memhooks.maintain.settled.covers`), else by
:func:`memhooks.maintain.events.maintain` (``dry``), whose "nothing to change" is then
recorded for the next edit. Not with capture on (capture reads every tool event).

:func:`memhooks.hook.reactions.react` asks :func:`settled` first, on the hook call
itself: every fact it reads (folder, capture switch, state folder, maintenance
settings) is the call's, worked out once. Only ``os`` is imported until a branch needs
more: this runs on most tool calls of a session.
"""

from __future__ import annotations

import os

from ..agents.base import AFTER_TOOL_EVENTS, DELETED, POST_COMMAND, POST_EDIT, POST_TOOL, READ

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Protocol

    from ..agents.base import FileChange, NormalizedEvent

    class Call(Protocol):
        """What the shortcut reads of a hook call (:class:`memhooks.hook.call.HookCall`)."""

        event: NormalizedEvent
        env: Mapping[str, str]

        @property
        def folder(self) -> str: ...
        @property
        def capture_on(self) -> bool: ...
        @property
        def state_dir(self) -> str: ...
        @property
        def maintain_settings(self) -> Mapping[str, str]: ...
        def absolute(self, path: str) -> str: ...


def settled(call: Call) -> bool:
    """True when ``call``'s event needs nothing but its touches logged (see the module
    docstring; the touches are logged then). False sends the call the whole way; never
    "something is wrong". Relative paths are the event's, joined to the call's folder."""
    event = call.event
    if event.event not in AFTER_TOOL_EVENTS or not event.session_id:
        return False
    touched = []
    for change in event.files:
        path = call.absolute(change.path)
        if os.path.exists(path):
            touched.append((path, "folder" if os.path.isdir(path) else "file"))
    if event.event == POST_COMMAND:
        from .snapshot import command_paths

        named = command_paths(event.command or "", call.folder)
        if named is None:
            return False
        touched += named
    if call.capture_on:
        return False
    from . import snapshot

    where = call.state_dir
    folder = call.folder
    edit = event.event == POST_EDIT
    if not snapshot.settled(where, event.host, event.session_id, folder, touched, call.env,
                            reads=lambda: _reads(event, touched), edit=edit):  # fmt: skip
        return False
    written = [f for f in event.files if f.action != READ]
    if not written:
        return True
    return _written_settled(call, where, written)


def _reads(
    event: NormalizedEvent, touched: list[tuple[str, str]]
) -> list[tuple[str, list[tuple[int, int]] | None]]:
    """The reads line-level recall would tell about, ``(path, ranges)`` (``[]``: the
    whole file): those of a read tool (:func:`memhooks.lines.tools.reads`); a shell
    command that starts as a shell read names files whose lines are not known here
    (``None``: the command's exact reading waits for the whole way, it loads
    :mod:`shlex`)."""
    from ..lines.tools import reads, shell_read

    if event.event == POST_TOOL:
        return list(reads(event.tool_name or "", event.tool_input or {}, event.host))
    if event.event == POST_COMMAND and shell_read(event.command or ""):
        return [(path, None) for path, kind in touched if kind == "file"]
    return []


def _written_settled(call: Call, where: str, written: list[FileChange]) -> bool:
    """An edit in served folders: settled only if its cue already lists the file."""
    from ..maintain import settled
    from .snapshot import cues_path

    event = call.event
    assert event.session_id is not None
    record = cues_path(where, event.host, event.session_id)
    simple = all(f.action != DELETED and f.old_path is None for f in written)
    folder = call.folder
    if simple and settled.covers(record, [f.path for f in written], folder, call.env):
        return True
    from ..errors import DiagnosticError  # loaded with maintain.events
    from ..maintain.events import maintain

    learned: dict[str, object] = {}
    try:
        if maintain(event, folder, env=call.maintain_settings, dry=True, learned=learned):
            return False
    except DiagnosticError:  # a root hook that broke since: the whole way says it, once
        return False
    if simple:
        settled.save(record, learned)
    return True
