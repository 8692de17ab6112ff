"""A backend's synthesis beside its search hits: Hindsight ``strategy: reflect`` and
``mental_models``, Honcho ``strategy: reasoning``, asked for in a hook's provider options.

Loaded only by a query that has provider options (the embedded store has no synthesis):
the prompt hook's recall otherwise never pays for it (issue 21, the hook's import set).
"""

from __future__ import annotations

import zlib

from ..backends.base import Hit
from ..backends.capabilities import Synthesizes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..backends.base import Backend
    from .runtime import Task

#: Provider options that ask for a backend-side synthesis (Hindsight ``strategy: reflect``
#: and ``mental_models``, Honcho ``strategy: reasoning``); the adapter decides whether the
#: user's configuration allows it and returns ``None`` otherwise.
SYNTHESIS_KEYS = ("strategy", "mental_models")


def with_synthesis(task: Task, backend: Backend, hits: list[Hit]) -> list[Hit]:
    """Put the backend's synthesis (if the query asks for one, the adapter offers it and
    it answers) first among the hits, as a memory of kind ``synthesis``. A failing
    synthesis is noted on the task; the search hits stay."""
    options = task.request.options
    if not isinstance(backend, Synthesizes) or not any(options.get(k) for k in SYNTHESIS_KEYS):
        return hits
    try:
        text = backend.synthesize(task.request)
    except Exception as exc:  # noqa: BLE001 - synthesis is optional; keep the search hits
        task.error = f"synthesis failed: {exc}"
        return hits
    if not isinstance(text, str) or not text.strip():
        return hits
    top = max((h.score for h in hits), default=1.0)
    ident = f"synthesis:{backend.name}:{zlib.crc32(task.query['query'].encode()):08x}"
    return [Hit(ident, text.strip(), top, kind="synthesis"), *hits]
