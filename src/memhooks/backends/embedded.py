"""The embedded backend: memhooks' own SQLite store (:mod:`memhooks.store`), no server.

One search fuses up to three ranked lists by weighted reciprocal rank (k = 60):

* the prompt, searched with FTS5/BM25 (when the host gave one);
* the recall query with its entity names and tags (skipped for generated folder cues,
  whose text is a fixed template that names no topic);
* the folder cue: memories related to the query's file resources and active files
  (most shared files first, then newest), or scoped exactly to the target folder.

The folder cue uses files rather than a memory's scope alone: a change that spans several
folders is scoped at their common ancestor, often the root, so scope alone says little
(``shared/bench/git/README.md`` measured a naive scope boost hurting).
"""

from __future__ import annotations

import time

from ..errors import BackendError, MemhooksError
from .base import Hit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..store import Memory, MemoryStore
    from .base import SearchRequest

RRF_K = 60
#: Weights of the fused lists; equal on purpose (no tuning against benchmark answers).
WEIGHTS = {"prompt": 1.0, "query": 1.0, "cue": 1.0}
#: Candidates taken from each list before fusion.
DEPTH = 50


class EmbeddedBackend:
    """:class:`~memhooks.backends.base.Backend` over a :class:`~memhooks.store.MemoryStore`.

    ``store``: an open store (the backend does not own it unless ``owns_store``).
    """

    name = "embedded"

    def __init__(self, store: MemoryStore, *, owns_store: bool = False) -> None:
        self.store = store
        self.owns_store = owns_store

    @classmethod
    def open(cls, path: str | None = None) -> EmbeddedBackend:
        """Open the store at ``path`` (default: ``MEMHOOKS_STORE`` or the user data dir)."""
        from ..store import MemoryStore

        return cls(MemoryStore(path), owns_store=True)

    def close(self) -> None:
        if self.owns_store:
            self.store.close()

    def search(self, request: SearchRequest) -> list[Hit]:
        """Fused hits, best first, at most ``request.limit``; raises BackendError when the
        store fails or the call outlives ``request.timeout_s``."""
        deadline = time.monotonic() + request.timeout_s
        lists: list[tuple[str, list[Memory]]] = []
        try:
            depth = max(DEPTH, request.limit)
            if request.prompt:
                lists.append(("prompt", [m for m, _ in self.store.search(request.project, request.prompt, limit=depth)]))
            if not request.auto:
                words = " ".join([request.text, *request.entities, *request.tags])
                lists.append(("query", [m for m, _ in self.store.search(request.project, words, limit=depth)]))
            if request.files or (request.scopes and request.scopes[0]):
                lists.append(("cue", self._cue(request, depth)))
        except MemhooksError as exc:
            raise BackendError(f"embedded store: {exc}") from exc
        if time.monotonic() > deadline:
            raise BackendError(f"embedded store: search took longer than {request.timeout_s:.2f} s")
        return fuse(lists, request.limit)

    def _cue(self, request: SearchRequest, depth: int) -> list[Memory]:
        scopes = [request.scopes[0]] if request.scopes and request.scopes[0] else []
        found = self.store.candidates_by_scope(request.project, scopes, request.files, limit=depth * 4)
        wanted = set(request.files)
        # Most shared files first, then the store's order (file match, depth, newest).
        order = {m.id: i for i, m in enumerate(found)}
        found.sort(key=lambda m: (-len(wanted.intersection(m.files)), order[m.id]))
        return found[:depth]


def fuse(lists: list[tuple[str, list[Memory]]], limit: int) -> list[Hit]:
    """Weighted reciprocal-rank fusion; ties keep first-seen order."""
    scores: dict[str, float] = {}
    memories: dict[str, Memory] = {}
    for name, memories_list in lists:
        weight = WEIGHTS[name]
        for position, memory in enumerate(memories_list):
            scores[memory.id] = scores.get(memory.id, 0.0) + weight / (RRF_K + position + 1)
            memories.setdefault(memory.id, memory)
    ranked = sorted(memories, key=lambda m: -scores[m])[:limit]
    return [to_hit(memories[m], scores[m]) for m in ranked]


def to_hit(memory: Memory, score: float) -> Hit:
    return Hit(
        memory.id,
        memory.text,
        score,
        scope=memory.scope,
        files=memory.files,
        created_at=memory.created_at,
        kind=memory.kind,
        tags=memory.tags,
        entities=memory.entities,
        obsolete=memory.obsolete,
    )
