"""One detector per normalized event kind, listed in :data:`BY_EVENT`.

A detector is a function ``detect(obs: Observation) -> list[Candidate]`` in one module of
this package. It may read and update the capture state through ``obs`` (the session,
pending failures) and returns the memories it proposes; the filters in
:mod:`memhooks.capture.filters` decide. Events with no entry (``pre_tool``,
``post_tool``) are never captured. Entries name ``module:function`` so that a hook
process imports only the detector of its event.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ..candidate import Candidate
    from ..observation import Observation

    Detector = Callable[[Observation], list[Candidate]]

BY_EVENT: dict[str, str] = {
    "session_start": "sessions:start",
    "user_prompt": "prompts:detect",
    "post_edit": "edits:detect",
    "post_command": "commands:detect",
    "pre_compact": "compaction:before",
    "post_compact": "compaction:after",
    "stop": "sessions:stop",
    "session_end": "sessions:end",
}


def detector(event: str) -> Detector:
    """The detector of normalized event ``event`` (KeyError when it has none)."""

    module, function = BY_EVENT[event].split(":")
    detect: Detector = getattr(importlib.import_module(f"{__name__}.{module}"), function)
    return detect
