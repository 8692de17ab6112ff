"""Opt-in capture of what agents learn, from their hook events into the embedded store.

Off until the user turns it on (``memhooks capture on``, per project or per user);
reading hooks, ``explain``, ``recall`` and prompt-time hooks never write anything
while it is off. Public API (imported lazily: the agent hook loads only what it uses)::

    observe(event, *, store_path=None, now=None, ...) -> list[str]   # ids written
    record(event, ...) -> Captured                                   # ids + what was dropped, why
    process(store_path=None, *, now=None, ...) -> dict[str, int]     # the heavy, explicit part
    scrub(text) -> (text, count)                                     # secret scrubbing
    Policy, DEFAULT_POLICY                                           # filter values

Modules: ``settings`` (the on/off file), ``observer`` (the entry point), ``admission``
(scrub, filter, mark and write a candidate), ``detectors``
(one per event kind), ``filters`` (length, cooldown, duplicates), ``similar`` (the
similarity measure), ``patterns`` (error/config/comment detection), ``marks`` (what was
captured, in the store), ``observation`` and ``candidate`` (records; a session's own
record is the state file's: :mod:`memhooks.session.capture_record`), ``upkeep``
(``memhooks capture process``). Shared with transcripts and history, below capture:
:mod:`memhooks.scrubber` (secrets) and :mod:`memhooks.statements` (which sentences state
a decision, a rule or a finding).
"""

from __future__ import annotations

import os

from .. import dirs

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

#: The on/off switch's file name (:mod:`.settings` reads and writes it).
FILENAME = "capture.json"


def config_path(env: Mapping[str, str] | None = None) -> str:
    """Absolute path of the switch file (it may not exist): ``capture.json`` in
    :func:`memhooks.dirs.config_dir`. Here, not in :mod:`.settings`: every hook call
    asks whether capture is on, and where capture was never turned on (no such file) the
    answer needs no module of its own (:attr:`memhooks.hook.call.HookCall.capture_on`).
    Raises :class:`~memhooks.errors.HomeError` when the folder needs a home there is
    none of."""
    return os.path.join(dirs.config_dir(env), FILENAME)


__all__ = ["DEFAULT_POLICY", "Captured", "Policy", "observe", "process", "record", "scrub"]

_LAZY = {
    "DEFAULT_POLICY": ("filters", "DEFAULT"),
    "Captured": ("observer", "Captured"),
    "Policy": ("filters", "Policy"),
    "observe": ("observer", "observe"),
    "process": ("upkeep", "process"),
    "record": ("observer", "record"),
    "scrub": ("memhooks.scrubber", "scrub"),
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'memhooks.capture' has no attribute {name!r}")
    import importlib

    module, attr = _LAZY[name]
    path = module if module.startswith("memhooks.") else f"{__name__}.{module}"
    return getattr(importlib.import_module(path), attr)


def __dir__() -> list[str]:
    return sorted(__all__)
