"""Every memory backend memhooks can open, in one place.

Adding a backend: one new module with a class satisfying
:class:`~memhooks.backends.base.Backend` and an ``open(...)`` classmethod, and one line
here. Modules are imported only when their backend is opened.
"""

from __future__ import annotations

import importlib
import os

from ..errors import BackendError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .base import Backend

#: backend name -> "module:Class"
BACKENDS = {
    "embedded": "memhooks.backends.embedded:EmbeddedBackend",
    "hindsight": "memhooks.backends.hindsight:HindsightBackend",
    "honcho": "memhooks.backends.honcho:HonchoBackend",
    "openviking": "memhooks.backends.openviking:OpenVikingBackend",
}
DEFAULT = "embedded"


def selected(name: str | None = None) -> str:
    """The backend to use: ``name``, else ``MEMHOOKS_BACKEND``, else ``embedded``."""
    chosen = name or os.environ.get("MEMHOOKS_BACKEND") or DEFAULT
    if chosen not in BACKENDS:
        raise BackendError(f"unknown backend {chosen!r}; known: {', '.join(sorted(BACKENDS))}")
    return chosen


def open_backend(name: str | None = None, *, store_path: str | None = None) -> Backend:
    """Open the selected backend. Raises BackendError when it is unknown or cannot be
    opened (the message says why)."""
    chosen = selected(name)
    module_name, class_name = BACKENDS[chosen].split(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    if chosen == "embedded":
        return cls.open(store_path)  # type: ignore[no-any-return]
    return cls.open()  # type: ignore[no-any-return]
