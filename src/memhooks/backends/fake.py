"""A backend for tests, shipped with the package (as httpx ships ``MockTransport``): every
search is answered by a function of the request, and every request is kept.

    backend = FakeBackend(lambda request: [Hit("m1", "totals round half-even", 1.0)])
    recall(folder, backend=backend)
    backend.requests[0].text      # what recall asked

Optional capabilities are offered only when given (``count``, ``synthesize``), as a real
adapter offers only what its memory system can do. It is not in the registry: nothing
opens it by name.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from .base import Hit, SearchRequest

    Handler = Callable[[SearchRequest], list[Hit]]


class FakeBackend:
    """``handler(request)`` answers each search (it may raise BackendError, or return
    :class:`~memhooks.backends.base.PartialHits`); ``requests`` holds every request in
    order; ``closed`` says whether :meth:`close` ran. ``count`` and ``synthesize``,
    when given, become the capabilities of the same names."""

    def __init__(
        self,
        handler: Handler | None = None,
        *,
        name: str = "fake",
        count: Callable[[str], int] | None = None,
        synthesize: Callable[[SearchRequest], str | None] | None = None,
    ) -> None:
        self.name = name
        self.handler = handler or (lambda request: [])
        self.requests: list[SearchRequest] = []
        self.closed = False
        if count is not None:
            self.count = count
        if synthesize is not None:
            self.synthesize = synthesize

    def search(self, request: SearchRequest) -> list[Hit]:
        """The handler's answer to ``request`` (kept in :attr:`requests`)."""
        self.requests.append(request)
        return self.handler(request)

    def close(self) -> None:
        self.closed = True
