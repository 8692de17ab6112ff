"""The Hermes Agent plugin: recall before each turn and hook maintenance after file
edits, inside Hermes' own process (no ``memhooks hook`` process per turn).

``memhooks agents install --agent hermes`` writes ``~/.hermes/plugins/memhooks/`` with
:func:`memhooks.install.hermes_plugin.manifest` and its ``shim``; the shim makes this
package importable (Hermes runs
in its own environment) and calls :func:`register`. If memhooks cannot be imported there
the shim falls back to running the ``memhooks hook`` command.

Callbacks (Hermes ``ctx.register_hook``) build the payload Hermes' shell hooks would
send and take the one hook path (:func:`memhooks.hook.handle`), so the plugin and
``memhooks hook --agent hermes`` share sessions, ledger and working set:

* ``pre_llm_call(session_id, user_message, ...)`` -> ``{"context": text}`` or None:
  recall for the working folder (``TERMINAL_CWD``, else Hermes' directory), the folders
  this session worked in and the paths the message names, leaving out what the session
  was already given;
* ``post_tool_call(tool_name, args, result, status, session_id, ...)``: the files the tool
  named join the session's working set; hook maintenance for the ones it wrote;
* ``on_session_finalize`` / ``on_session_reset``: the session ends (a reset ends the old
  session; the new one starts with an empty ledger, as the model starts over).

Callbacks never raise: a failure is logged and the turn goes on without context.
"""

from __future__ import annotations

import json
import logging

from ..hook.handler import handle

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

logger = logging.getLogger("memhooks.hermes")

#: Seconds one callback may take (Hermes' own callback timeout is 30 s).
TIME_S = 3.0


class Plugin:
    """The callbacks, bound to the roles the installer wrote."""

    def __init__(self, roles: Iterable[str] = ()) -> None:
        self.roles = list(roles)

    def pre_llm_call(self, **kwargs: Any) -> dict[str, str] | None:
        reply = self._hook(
            "pre_llm_call",
            session_id=kwargs.get("session_id"),
            extra={"user_message": kwargs.get("user_message")},
        )
        try:
            context = json.loads(reply).get("context") if reply else None
        except (ValueError, AttributeError):
            context = None
        return {"context": context} if isinstance(context, str) and context else None

    def post_tool_call(self, **kwargs: Any) -> None:
        self._hook(
            "post_tool_call",
            session_id=kwargs.get("session_id"),
            tool_name=kwargs.get("tool_name"),
            tool_input=kwargs.get("args"),
            extra={"result": kwargs.get("result"), "status": kwargs.get("status")},
        )

    def end_session(self, **kwargs: Any) -> None:
        # a reset names the old session and the new, live one: only the old one ends
        old = kwargs.get("old_session_id")
        ending = old if isinstance(old, str) else kwargs.get("session_id")
        if isinstance(ending, str):
            self._hook("on_session_finalize", session_id=ending)

    def _hook(self, event: str, **payload: Any) -> str:
        """The hook's stdout for ``event`` (``""`` on any failure, which is logged)."""

        # No cwd in the payload: the hook's working-folder rule reads TERMINAL_CWD (Hermes'
        # PROJECT_VARS) and falls back to this process's folder when it is unusable.
        try:
            raw = json.dumps({"hook_event_name": event, **payload}, default=str)
        except (TypeError, ValueError) as exc:
            logger.warning("memhooks: %s skipped: %s", event, exc)
            return ""
        reply = handle(raw, agent="hermes", roles=self.roles, time_s=TIME_S)
        if reply.note:
            logger.warning("memhooks: %s", reply.note)
        return reply.stdout


def register(ctx: Any, roles: Iterable[str] = ()) -> Plugin:
    """Register the callbacks on a Hermes plugin context; returns the plugin."""
    plugin = Plugin(roles)
    ctx.register_hook("pre_llm_call", plugin.pre_llm_call)
    ctx.register_hook("post_tool_call", plugin.post_tool_call)
    ctx.register_hook("on_session_finalize", plugin.end_session)
    ctx.register_hook("on_session_reset", plugin.end_session)
    return plugin
