"""The agent hook: ``memhooks hook [--agent NAME] [--role R]... [EVENT]`` as a library.

Public API::

    handle(raw, agent=None, native_event=None, roles=(), env=None, time_s=3.0,
           exiting=False) -> Reply
    parse(raw, agent=None, native_event=None) -> NormalizedEvent

``Reply.stdout`` is exactly what the host must read on stdout, ``Reply.note`` at most
one line for stderr. Modules: ``handler`` (the one fail-open door: parse → call →
react → capture → close), ``call`` (one hook call's facts, each worked out once),
``reactions`` (which reaction each lifecycle event gets: ``prompt_time``,
``pre_tool``, ``tool_time``; what they share: ``deliver``), ``lines`` (line-level recall),
``maintenance`` (cue updates through the journal), ``payload`` (reading stdin),
``roles`` (which roles apply), ``reply``, ``deadline`` (the watchdog).
Nothing is imported until used: this package runs in a fresh process per prompt.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Reply", "handle", "parse"]

#: Most folders (or files) one tool event is given recall for (before it,
#: :mod:`.pre_tool`; after it, :mod:`.tool_time`).
TOOL_TARGETS = 2


def __getattr__(name: str) -> Any:
    if name not in ("Reply", "handle", "parse"):
        raise AttributeError(f"module 'memhooks.hook' has no attribute {name!r}")
    from . import handler

    return getattr(handler, name)
