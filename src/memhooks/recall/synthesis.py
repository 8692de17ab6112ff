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
    from ..backends.base import Backend, SearchRequest

#: Provider options that ask for a backend-side synthesis (Hindsight ``strategy: reflect``
#: and ``mental_models``, Honcho ``strategy: reasoning``); the adapter decides whether the
#: user's configuration allows it and returns ``None`` otherwise.
SYNTHESIS_KEYS = ("strategy", "mental_models")


def with_synthesis(
    request: SearchRequest, backend: Backend, hits: list[Hit]
) -> tuple[list[Hit], str | None]:
    """(``hits`` with the backend's synthesis first — if ``request`` asks for one, the
    adapter offers it and it answers — as a memory of kind ``synthesis``; why the
    synthesis failed, or None). A failing synthesis keeps the search hits."""
    options = request.options
    if not isinstance(backend, Synthesizes) or not any(options.get(k) for k in SYNTHESIS_KEYS):
        return hits, None
    try:
        text = backend.synthesize(request)
    except Exception as exc:  # noqa: BLE001 - synthesis is optional; keep the search hits
        return hits, f"synthesis failed: {exc}"
    if not isinstance(text, str) or not text.strip():
        return hits, None
    top = max((h.score for h in hits), default=1.0)
    ident = f"synthesis:{backend.name}:{zlib.crc32(request.text.encode()):08x}"
    return [Hit(ident, text.strip(), top, kind="synthesis"), *hits], None
