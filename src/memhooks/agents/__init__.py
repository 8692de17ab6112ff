"""Agent hosts' hook payloads, normalized to one set of lifecycle events (input side only).

Public API::

    detect_host(payload) -> str | None          which host sent a payload
    normalize(payload, host=None, native_event=None) -> NormalizedEvent
    parse_patch(text, cwd=None) -> list[FileChange]
    HOSTS                                        host name -> adapter module

Everything here is pure: no filesystem, network or environment access, so a
hook process pays only for what it imports (see ``python -X importtime``).
"""

from __future__ import annotations

from .base import ACTIONS, EVENTS, UNKNOWN, FileChange, NormalizedEvent
from .registry import detect_host, normalize

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: see base.py
if TYPE_CHECKING:
    from .patch import parse_patch
    from .registry import HOSTS


def __getattr__(name: str) -> object:
    if name == "parse_patch":  # only Codex/OpenCode edits carry patch text
        from .patch import parse_patch

        return parse_patch
    if name == "HOSTS":  # imports every adapter: built on first use (registry.HOSTS)
        from . import registry

        return registry.HOSTS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ACTIONS",
    "EVENTS",
    "HOSTS",
    "UNKNOWN",
    "FileChange",
    "NormalizedEvent",
    "detect_host",
    "normalize",
    "parse_patch",
]
