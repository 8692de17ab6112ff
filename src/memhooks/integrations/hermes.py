"""The Hermes Agent plugin: recall before each turn and hook maintenance after file
edits, inside Hermes' own process (no ``memhooks hook`` process per turn).

``memhooks agents install --agent hermes`` writes ``~/.hermes/plugins/memhooks/`` with
:func:`manifest` and :func:`shim`; the shim makes this package importable (Hermes runs
in its own environment) and calls :func:`register`. If memhooks cannot be imported there
the shim falls back to running the ``memhooks hook`` command.

Callbacks (Hermes ``ctx.register_hook``):

* ``pre_llm_call(session_id, user_message, ...)`` -> ``{"context": text}`` or None:
  recall for the working folder (``TERMINAL_CWD``, else Hermes' directory) with the
  user's message as the prompt and the files this session touched as active files
  (at most 64, newest first; forgotten after an hour idle or when the session ends);
* ``post_tool_call(tool_name, args, result, status, session_id, ...)``: records the files
  the tool named and maintains hooks for the ones it wrote, deleted or renamed;
* ``on_session_finalize`` / ``on_session_reset``: forget the session's files.

Callbacks never raise: a failure is logged and the turn goes on without context.
"""

from __future__ import annotations

import logging
import os
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

logger = logging.getLogger("memhooks.hermes")

#: Seconds one recall may take (Hermes' own callback timeout is 30 s).
TIME_S = 3.0
MAX_FILES = 64
MAX_SESSIONS = 128
IDLE_S = 3600.0


class Activity:
    """Files each session touched, newest first, bounded in files, sessions and time."""

    def __init__(self, clock: Any = time.monotonic) -> None:
        self.clock = clock
        self.sessions: dict[str, tuple[float, list[str]]] = {}

    def add(self, session: str, paths: Iterable[str]) -> None:
        _, files = self.sessions.pop(session, (0.0, []))
        for path in paths:
            if path in files:
                files.remove(path)
            files.insert(0, path)
        self.sessions[session] = (self.clock(), files[:MAX_FILES])
        while len(self.sessions) > MAX_SESSIONS:
            self.sessions.pop(next(iter(self.sessions)))

    def files(self, session: str) -> list[str]:
        seen, files = self.sessions.get(session, (0.0, []))
        if files and self.clock() - seen > IDLE_S:
            self.sessions.pop(session, None)
            return []
        return list(files)

    def forget(self, session: str) -> None:
        self.sessions.pop(session, None)


class Plugin:
    """The callbacks, bound to the roles the installer wrote."""

    def __init__(self, roles: Iterable[str] = ()) -> None:
        self.roles = list(roles)
        self.activity = Activity()

    def pre_llm_call(self, **kwargs: Any) -> dict[str, str] | None:
        try:
            return self._recall(kwargs)
        except Exception as exc:  # noqa: BLE001  never break the turn
            logger.warning("memhooks: no context added: %s", exc)
            return None

    def post_tool_call(self, **kwargs: Any) -> None:
        try:
            self._maintain(kwargs)
        except Exception as exc:  # noqa: BLE001  never break the turn
            logger.warning("memhooks: hook maintenance skipped: %s", exc)

    def end_session(self, **kwargs: Any) -> None:
        for key in ("session_id", "old_session_id"):
            if isinstance(kwargs.get(key), str):
                self.activity.forget(kwargs[key])

    def _recall(self, kwargs: dict[str, Any]) -> dict[str, str] | None:
        from ..agents import FileChange, normalize
        from ..hook import scope
        from ..hook.handler import recall_context

        payload = {
            "hook_event_name": "pre_llm_call",
            "cwd": working_dir(),
            "session_id": kwargs.get("session_id"),
            "extra": {"user_message": kwargs.get("user_message")},
        }
        event = normalize(payload, "hermes")
        session = event.session_id or ""
        event.files = [FileChange(path, "read") for path in self.activity.files(session)]
        text, note = recall_context(
            event, scope.roles(self.roles, payload, os.environ), os.environ, TIME_S
        )
        if note:
            logger.warning("memhooks: %s", note)
        return {"context": text} if text else None

    def _maintain(self, kwargs: dict[str, Any]) -> None:
        from ..agents import normalize
        from ..hook.handler import changes_files, maintain

        payload = {
            "hook_event_name": "post_tool_call",
            "cwd": working_dir(),
            "session_id": kwargs.get("session_id"),
            "tool_name": kwargs.get("tool_name"),
            "tool_input": kwargs.get("args"),
            "extra": {"result": kwargs.get("result"), "status": kwargs.get("status")},
        }
        event = normalize(payload, "hermes")
        if event.session_id:
            self.activity.add(event.session_id, [f.path for f in event.files])
        if changes_files(event):
            _, note = maintain(event, os.environ)
            if note:
                logger.warning("memhooks: %s", note)


def working_dir() -> str:
    """Hermes' working folder: its terminal's (``TERMINAL_CWD``), else its own."""
    value = os.environ.get("TERMINAL_CWD", "")
    return value if os.path.isabs(value) and os.path.isdir(value) else os.getcwd()


def register(ctx: Any, roles: Iterable[str] = ()) -> Plugin:
    """Register the callbacks on a Hermes plugin context; returns the plugin."""
    plugin = Plugin(roles)
    ctx.register_hook("pre_llm_call", plugin.pre_llm_call)
    ctx.register_hook("post_tool_call", plugin.post_tool_call)
    ctx.register_hook("on_session_finalize", plugin.end_session)
    ctx.register_hook("on_session_reset", plugin.end_session)
    return plugin


def manifest() -> str:
    """The plugin's ``plugin.yaml``."""
    from .. import __version__

    return (
        "name: memhooks\n"
        f'version: "{__version__}"\n'
        'description: "memhooks: recall for the working folder before each turn; hook maintenance after file edits"\n'
        "provides_hooks: [pre_llm_call, post_tool_call, on_session_finalize, on_session_reset]\n"
    )


def shim(roles: Iterable[str] = (), exe: list[str] | None = None) -> str:
    """The plugin's ``__init__.py``: find memhooks, register, or fall back to the CLI."""
    import json

    import memhooks

    from ..install.command import MARKER, argv

    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(memhooks.__file__)))
    paths = [package_parent]
    try:
        import ruamel.yaml

        paths.append(
            os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(ruamel.yaml.__file__))))
        )
    except ImportError:
        pass
    command = argv("hermes", "pre_llm_call", list(roles), exe)
    return SHIM.format(
        marker=MARKER,
        paths=json.dumps(list(dict.fromkeys(paths))),
        roles=json.dumps(list(roles)),
        command=json.dumps(command),
    )


SHIM = '''"""{marker}: written by `memhooks agents install --agent hermes`; `memhooks agents uninstall --agent hermes` removes it."""

import json
import subprocess
import sys

PATHS = {paths}
ROLES = {roles}
COMMAND = {command}


def register(ctx):
    try:
        import memhooks.integrations.hermes as plugin
    except ImportError:
        sys.path.extend(p for p in PATHS if p not in sys.path)  # appended: Hermes' own packages win
        try:
            import memhooks.integrations.hermes as plugin
        except ImportError:
            ctx.register_hook("pre_llm_call", _by_command)
            return
    plugin.register(ctx, ROLES)


def _by_command(**kwargs):
    import os

    payload = {{"hook_event_name": "pre_llm_call", "cwd": os.environ.get("TERMINAL_CWD") or os.getcwd(),
               "session_id": kwargs.get("session_id"), "extra": {{"user_message": kwargs.get("user_message")}}}}
    try:
        done = subprocess.run(COMMAND, input=json.dumps(payload), capture_output=True, text=True, timeout=10)
        reply = json.loads(done.stdout or "{{}}")
    except Exception:
        return None
    return reply if isinstance(reply, dict) and reply.get("context") else None
'''
