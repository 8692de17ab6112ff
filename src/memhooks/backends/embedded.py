"""The embedded backend: memhooks' own SQLite store (:mod:`memhooks.store`), no server.

With a prompt (what the agent is asked now), the prompt is the relevance signal and the
folder is a cue on top of it:

* the prompt is searched with FTS5/BM25, fused (reciprocal rank, k = 60) with the recall
  query's own words, entity names and tags — skipped for generated folder cues, whose
  text is a fixed template that names no topic;
* for the target folder's own generated cue, memories about a file directly in that
  folder come first among those candidates (a stable partition: BM25 order is kept
  within each group). An ancestor's generated cue adds no boost ("a file somewhere
  above" says little), and a hand-written query ranks by its own words and the prompt.

Without a prompt (``memhooks recall`` with no ``--prompt``), the query words are fused
with the folder-cue list: memories related to the query's file resources and the active
files (most shared files first, then newest), or scoped exactly to the target folder.

The folder cue uses the files a memory touched rather than its scope: a change that spans
several folders is scoped at their common ancestor, often the root, so scope alone says
little (``shared/bench/git/README.md`` measured a naive scope boost hurting; a cue list
fused as an equal third list measured worse than no routing, see bench/recall_quality.py).

Speed (a recall runs one search per effective query; a 6-hook chain has ~15): lists are
ranked row ids, from BM25 with bounded work (:func:`memhooks.store.ranking.ranked`) and
the cue query (:func:`memhooks.store.ranking.cue`); only the fused top ``limit`` rows are
read as memories. Lists are reused while the store is unchanged
(:mod:`memhooks.backends.embedded_cache`): within a recall the prompt's list serves every
query, and across recalls — in one process or, through a cache file, in the next hook
process — the hooks' queries and cues cost a lookup until a memory changes.
"""

from __future__ import annotations

import os
import time

from ..errors import BackendError, MemhooksError
from .base import Hit
from .embedded_cache import ListCache

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Callable
    from typing import Any, TypeVar

    from ..store import Memory, MemoryStore
    from .base import SearchRequest

    T = TypeVar("T")

RRF_K = 60
#: Weights of the fused lists; equal on purpose (no tuning against benchmark answers).
WEIGHTS = {"prompt": 1.0, "query": 1.0, "cue": 1.0, "bm25": 1.0, "dense": 1.0}
#: Candidates taken from each list before fusion.
DEPTH = 50


class EmbeddedBackend:
    """:class:`~memhooks.backends.base.Backend` over a :class:`~memhooks.store.MemoryStore`.

    ``store``: an open store (the backend does not own it unless ``owns_store``).
    Ranked lists are reused while the store is unchanged (:mod:`.embedded_cache`).
    """

    name = "embedded"

    def __init__(self, store: MemoryStore, *, owns_store: bool = False) -> None:
        self.store = store
        self.owns_store = owns_store
        self._cache: ListCache | None = None
        self._memories: dict[int, Memory] = {}
        self._hybrid: bool | None = None
        self._caught_up: set[str] = set()

    @classmethod
    def open(cls, path: str | None = None) -> EmbeddedBackend:
        """Open the store at ``path`` (default: ``MEMHOOKS_STORE`` or the user data dir)."""
        from ..store import MemoryStore

        return cls(MemoryStore(path), owns_store=True)

    def close(self) -> None:
        try:
            if self._cache is not None:
                self._cache.save(self._read(_state))
        except MemhooksError:
            pass  # the store failed after the recall: the lists simply are not kept
        finally:
            if self.owns_store:
                self.store.close()

    def count(self, project: str) -> int:
        """How many memories (obsolete included) ``project`` holds."""
        return self.store.count(project)

    def search(self, request: SearchRequest) -> list[Hit]:
        """Fused hits, best first, at most ``request.limit``; raises BackendError when the
        store fails or the call outlives ``request.timeout_s``."""
        lists: list[tuple[str, list[int]]] = []
        try:
            self._sync(request.project)
            deadline = time.monotonic() + request.timeout_s
            depth = max(DEPTH, request.limit)
            if request.prompt:
                lists.append(
                    ("prompt", self._text(request.project, request.prompt, depth, prompt=True))
                )
            if not request.auto:
                words = " ".join([request.text, *request.entities, *request.tags])
                lists.append(("query", self._text(request.project, words, depth, prompt=False)))
            scope = request.scopes[0] if request.scopes and request.scopes[0] else None
            if request.prompt:
                fused = fuse(lists, depth)
                folder = folder_cue(request)
                if folder is not None:
                    fused = self._folder_first(fused, folder)
                fused = fused[: request.limit]
            else:
                if request.files or scope is not None:
                    lists.append(("cue", self._cue(request.project, scope, request.files, depth)))
                fused = fuse(lists, request.limit)
            found = self._rows([pk for pk, _ in fused])
        except MemhooksError as exc:
            raise BackendError(f"embedded store: {exc}") from exc
        if time.monotonic() > deadline:
            raise BackendError(f"embedded store: search took longer than {request.timeout_s:.2f} s")
        # A memory deleted by another process between the queries is simply left out.
        return [to_hit(found[pk], score) for pk, score in fused if pk in found]

    def _text(self, project: str, text: str, depth: int, *, prompt: bool) -> list[int]:
        from ..store import ranking

        cache = self._lists()
        key = _key("~prompt" if prompt else "query", project, str(depth), text)
        found = cache.get(key)
        if found is None:
            hits = self._read(
                lambda conn: ranking.ranked(
                    conn, project, text, limit=depth, frequencies=cache.frequencies
                )
            )
            found = [pk for pk, _ in hits]
            if self._hybrid:
                dense = [pk for pk, _ in self._nearest(project, text, depth)]
                found = [pk for pk, _ in fuse([("bm25", found), ("dense", dense)], depth)]
            cache.remember(key, found)
        return found

    def _nearest(self, project: str, text: str, depth: int) -> list[tuple[int, float]]:
        from ..store import semantic

        objects = self._lists().objects  # the vectors of a project load once per state
        key = _key("index", project)
        if key not in objects:
            objects[key] = self._read(lambda conn: semantic.Index(conn, project))
        index: semantic.Index = objects[key]
        return index.nearest(semantic.encode([text])[0], depth)

    def _folder_first(self, fused: list[tuple[int, float]], folder: str) -> list[tuple[int, float]]:
        """``fused`` with the memories about a file directly in ``folder`` (root-relative,
        ``""`` = root) moved first, order otherwise kept; their scores doubled so the
        backend score says why."""
        pks = [pk for pk, _ in fused]
        if not pks:
            return fused
        marks = ",".join("?" * len(pks))
        prefix = f"{folder}/" if folder else ""
        sql = (
            f"SELECT DISTINCT memory FROM memory_files WHERE memory IN ({marks})"
            " AND substr(path, 1, ?) = ? AND instr(substr(path, ?), '/') = 0"
        )
        params = [*pks, len(prefix), prefix, len(prefix) + 1]
        touched = {row[0] for row in self._read(lambda conn: conn.execute(sql, params).fetchall())}
        first = [(pk, score * 2.0) for pk, score in fused if pk in touched]
        return first + [(pk, score) for pk, score in fused if pk not in touched]

    def _cue(self, project: str, scope: str | None, files: list[str], depth: int) -> list[int]:
        from ..store import ranking

        cache = self._lists()
        key = _key("cue", project, str(depth), "" if scope is None else f"/{scope}", *files)
        found = cache.get(key)
        if found is None:
            found = self._read(lambda conn: ranking.cue(conn, project, scope, files, limit=depth))
            cache.remember(key, found)
        return found

    def _lists(self) -> ListCache:
        assert self._cache is not None
        return self._cache

    def _sync(self, project: str) -> None:
        """Start from fresh lists and rows when the store changed since the last search;
        in hybrid mode, load the model and embed the newest memories without a vector."""
        if self._hybrid is None:
            self._hybrid = _hybrid()
        self._refresh()
        if self._hybrid and project not in self._caught_up:
            from ..store import semantic

            semantic.load()  # seconds, once per process: not a query's cost
            self._caught_up.add(project)
            done = _key("caught-up", project)
            if done not in self._lists().objects:  # checked already in this state
                if semantic.catch_up(self.store._conn, self.store.path, project):
                    self._refresh()  # the new vectors moved the generation
                else:
                    self._lists().objects[done] = True

    def _refresh(self) -> None:
        from ..store import ranking, search

        state = self._read(_state)
        if self._cache is None or self._cache.state != state:
            settings: tuple[Any, ...] = (
                search.WEIGHTS,
                search.MAX_TERMS,
                ranking.COMMON,
                ranking.POSTINGS,
            )
            if self._hybrid:
                from ..store import semantic

                settings += ("hybrid", semantic.MODEL, RRF_K)
            self._cache = ListCache(self.store.path, state, repr(settings))
            self._memories.clear()

    def _rows(self, pks: list[int]) -> dict[int, Memory]:
        from ..store import ranking

        missing = [pk for pk in pks if pk not in self._memories]
        if missing:
            self._memories.update(self._read(lambda conn: ranking.memories(conn, missing)))
        return {pk: self._memories[pk] for pk in pks if pk in self._memories}

    def _read(self, query: Callable[[sqlite3.Connection], T]) -> T:
        from ..store.connection import Translated

        # The store has no public handle for id-level queries; its connection is the
        # one it opened for us (one thread, one recall).
        with Translated(self.store.path):
            return query(self.store._conn)


def _hybrid() -> bool:
    """Whether ``MEMHOOKS_SEARCH`` asks for hybrid search (without importing it when not)."""
    if os.environ.get("MEMHOOKS_SEARCH", "").strip().lower() in ("", "bm25"):
        return False
    from ..store import semantic

    return semantic.mode() == "hybrid"


def _state(conn: sqlite3.Connection) -> tuple[str, int]:
    store_id, generation = conn.execute("SELECT id, generation FROM store_state").fetchone()
    return (store_id, generation)


def folder_cue(request: SearchRequest) -> str | None:
    """The folder whose files make a memory rank first for this request: the target
    folder (``request.scopes[0]``) when the request is that folder's own generated cue
    (``[scope: dir]``); ``None`` for hand-written queries and ancestors' cues."""
    if not request.scopes or not request.auto:
        return None  # a hand-written query ranks by its own words and the prompt
    target = request.scopes[0]
    named = request.text.rsplit("[scope: ", 1)
    cue = named[1].rstrip().rstrip("]").strip() if len(named) == 2 else None
    if cue is None or (cue if cue != "." else "") != target:
        return None
    return target


def _key(*parts: str) -> str:
    return "\x1f".join(parts)


def fuse(lists: list[tuple[str, list[int]]], limit: int) -> list[tuple[int, float]]:
    """Weighted reciprocal-rank fusion of ranked row ids; ties keep first-seen order."""
    scores: dict[int, float] = {}
    for name, ranked in lists:
        weight = WEIGHTS[name]
        for position, pk in enumerate(ranked):
            scores[pk] = scores.get(pk, 0.0) + weight / (RRF_K + position + 1)
    return sorted(scores.items(), key=lambda item: -item[1])[:limit]


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
