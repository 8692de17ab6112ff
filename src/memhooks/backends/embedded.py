"""The embedded backend: memhooks' own SQLite store (:mod:`memhooks.store`), no server.

With a prompt (what the agent is asked now), the prompt is the relevance signal and the
folder is a cue on top of it:

* the prompt is searched with FTS5/BM25 (fused with the embeddings in hybrid mode); a
  hand-written recall query adds its own words, entity names, tags and non-file resource
  names (:func:`query_words`) by reciprocal-rank fusion (k = 60); a generated folder cue adds
  nothing — its text is a fixed template that names no topic, so all generated cues of
  one target share one list;
* each candidate's score is then multiplied by ``1 +`` what it earns
  (:data:`memhooks.store.policy.BOOST`): touching a file directly in the target folder,
  touching a file there that the prompt names (:mod:`memhooks.recall.filenames`),
  touching one of the host's active files.

A memory's scope is not used: a change that spans several folders is scoped at their
common ancestor, often the root, so scope says little (``shared/bench/git/README.md``
measured a naive scope boost hurting). The files a memory touched say more, and the
prompt says which of the folder's files matter now. Measured on ``shared/bench/git``
with bench/recall_quality.py (docs/recall.md has the figures and what was tried).

Without a prompt (``memhooks recall`` with no ``--prompt``), the query words are fused
with the folder-cue list: memories related to the query's file resources and the active
files (most shared files first, then newest), or scoped exactly to the target folder.

Speed (a recall runs one search per effective query; a 6-hook chain has ~15): lists are
ranked row ids, from BM25 with bounded work (:func:`memhooks.store.ranking.ranked`) and
the cue query (:func:`memhooks.store.ranking.cue`); only the kept rows are read as
memories. Lists are reused while the store is unchanged
(:mod:`memhooks.backends.embedded_cache`): within a recall the prompt's list and the
routed list serve every query, and across recalls — in one process or, through a cache
file, in the next hook process — the hooks' own queries cost a lookup until a memory
changes.

Over 300 lines on purpose: the adapter and its ranking policy (the private ``_routed``
… ``_cue`` methods, ~215 lines) run on every prompt, and each module the prompt loads
costs its interpreter ~0.2–0.4 ms (``python -X importtime``, load 5); the hook's
import set (``tests/hook/data/import_sets.json``) may not grow for a split. The policy's
home is beside the store's ranking (:mod:`memhooks.store.ranking`, issue 21 step 5): a
move for the next round, in the same count of modules.
"""

from __future__ import annotations

import time

from ..dirs import store_file
from ..errors import BackendError, MemhooksError
from ..fast.jsonfast import dumps
from ..settings import given
from ..store.commits import commit_of
from ..store.policy import ANCHORED, BOOST, DEPTH, RRF_K, boost, fuse
from . import STORE_ENV
from .base import Hit
from .embedded_cache import ListCache

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Callable, Collection, Mapping
    from typing import Any, ClassVar, TypeVar

    from ..store import Memory, MemoryStore
    from .base import SearchRequest

    T = TypeVar("T")


class EmbeddedBackend:
    """:class:`~memhooks.backends.base.Backend` over a :class:`~memhooks.store.MemoryStore`.

    ``store``: an open store (the backend does not own it unless ``owns_store``).
    Ranked lists are reused while the store is unchanged (:mod:`.embedded_cache`).
    """

    name = "embedded"
    #: ``MEMHOOKS_STORE`` names the store file (below ``MEMHOOKS_EMBEDDED_PATH``, above the
    #: configuration file's ``[backends.embedded] path``).
    ENV: ClassVar[dict[str, tuple[str, ...]]] = STORE_ENV

    def __init__(self, store: MemoryStore, *, owns_store: bool = False) -> None:
        self.store = store
        self.owns_store = owns_store
        self._cache: ListCache | None = None
        self._memories: dict[int, Memory] = {}
        self._hybrid: bool | None = None
        self._caught_up: set[str] = set()

    @classmethod
    def open(cls, settings: Mapping[str, Any]) -> EmbeddedBackend:
        """Open the store file of ``settings`` (:func:`memhooks.dirs.store_file` of its
        ``path``) to read: a missing file raises MissingStoreError — recall never
        creates a store (seed ``000``: retrieval only; ``memhooks remember`` writes
        through :class:`~memhooks.store.MemoryStore`)."""
        from ..store import MemoryStore

        return cls(MemoryStore(store_file(settings.get("path")), create=False), owns_store=True)

    def close(self) -> None:
        try:
            if self._cache is not None:
                self._cache.save(self._read(_state))
        except MemhooksError:
            pass  # the store failed after the recall: the lists simply are not kept
        finally:
            if self.owns_store:
                self.store.close()

    def adopt(self, project: str, aliases: tuple[str, ...]) -> int:
        """Move the memories kept under ``aliases`` to ``project``
        (:meth:`memhooks.store.MemoryStore.adopt`)."""
        return self.store.adopt(project, aliases)

    def count(self, project: str) -> int:
        """How many memories (obsolete included) ``project`` holds."""
        return self.store.count(project)

    def word_shares(self, project: str, text: str) -> dict[str, float]:
        """The share of ``project``'s memories holding each word of ``text``, counted up to
        just above :data:`FREQUENT_SHARE`, once it holds :data:`FREQUENT_LEAST`
        (:func:`memhooks.store.ranking.frequent`). Raises BackendError."""
        from ..store import ranking

        try:
            return self._read(
                lambda conn: ranking.frequent(
                    conn, project, text, share=FREQUENT_SHARE, least=FREQUENT_LEAST
                )
            )
        except MemhooksError as exc:
            raise BackendError(f"embedded store: {exc}") from exc

    def anchored_files(
        self,
        project: str,
        folder: str,
        *,
        besides: Collection[str] = (),
        limit: int = 500,
        commits: bool = True,
    ) -> list[str]:
        """Root-relative files directly in ``folder`` that live memories of ``project``
        touched, leaving out the memories whose ids are in ``besides`` (and commits'
        when not ``commits``: :func:`memhooks.store.anchors.anchored_files`). Raises
        BackendError."""
        from ..store import anchors

        try:
            return self._read(
                lambda conn: anchors.anchored_files(
                    conn, project, folder, limit=limit, besides=besides, commits=commits
                )
            )
        except MemhooksError as exc:
            raise BackendError(f"embedded store: {exc}") from exc

    def search(self, request: SearchRequest) -> list[Hit]:
        """Hits, best first, at most ``request.limit`` (see the module docstring); raises
        BackendError when the store fails or the call outlives ``request.timeout_s``."""
        try:
            self._sync(request.project)
            deadline = time.monotonic() + request.timeout_s
            depth = max(DEPTH, request.limit)
            if request.anchored:
                # Every query of a tool-time recall gets the same anchored list: its hits
                # are made once (the runtime filters and fuses them per query).
                key = _key("~anchored-hits", request.project, *request.scopes[:1],
                           *sorted(request.active_files), "\x1e", request.prompt or "",
                           str(request.limit), str(request.commits))  # fmt: skip
                made: list[Hit] | None = self._lists().objects.get(key)
                if made is None:
                    ranked = self._anchored(request)[: request.limit]
                    rows = self._rows([pk for pk, _ in ranked])
                    made = [to_hit(rows[pk], score) for pk, score in ranked if pk in rows]
                    self._lists().objects[key] = made
                return list(made)
            if request.prompt:
                ranked = self._routed(request, depth)[: request.limit]
            else:
                ranked = self._cued(request, depth)
            found = self._rows([pk for pk, _ in ranked])
        except MemhooksError as exc:
            raise BackendError(f"embedded store: {exc}") from exc
        if time.monotonic() > deadline:
            raise BackendError(f"embedded store: search took longer than {request.timeout_s:.2f} s")
        # A memory deleted by another process between the queries is simply left out.
        return [to_hit(found[pk], score) for pk, score in ranked if pk in found]

    def _routed(self, request: SearchRequest, depth: int) -> list[tuple[int, float]]:
        """With a prompt: the prompt's ranking (fused with a hand-written query's own
        words), each score multiplied by the memory's folder factor (:meth:`_boosted`).
        A generated cue's text names no topic, so every generated cue of one target
        shares one list (computed once per recall)."""
        project = request.project
        prompt = self._prompt(project, request.prompt or "", depth)
        words = "" if request.auto else query_words(request)
        if request.auto or words == request.prompt:  # the prompt-only task: one list
            base = prompt
        else:
            query = self._text(project, words, depth)
            base = fuse([("prompt", [pk for pk, _ in prompt]), ("query", query)], depth)
        folder = request.scopes[0] if request.scopes else None
        if folder is None and not request.named_files and not request.active_files:
            return base
        objects = self._lists().objects
        cue = _key(
            "~factors",
            "" if folder is None else f"/{folder}",
            *sorted(request.active_files),
            "\x1e",
            *(f"{name}={share}" for name, share in sorted(request.named_files.items())),
        )
        key = _key("~routed", project, str(depth), request.prompt or "", words, cue)
        if key not in objects:
            factors = objects.setdefault(cue, {})  # shared by the recall's queries
            objects[key] = self._boosted(
                base, factors, folder, request.named_files, request.active_files
            )
        routed: list[tuple[int, float]] = objects[key]
        return routed

    def _anchored(self, request: SearchRequest) -> list[tuple[int, float]]:
        """Tool time: the memories anchored to the target folder or the active files
        (:func:`memhooks.store.anchors.anchored`), those about an active file first, then
        by relevance to the prompt (:func:`memhooks.store.anchors.relevance`), then
        newest. One list per recall: every query of the folder shares it."""
        from ..store import anchors, ranking

        folder = request.scopes[0] if request.scopes else ""
        objects = self._lists().objects
        key = _key(
            "~anchored",
            request.project,
            folder,
            *sorted(request.active_files),
            "\x1e",
            request.prompt or "",
            str(request.commits),
        )
        if key not in objects:
            found = self._read(
                lambda conn: anchors.anchored(
                    conn,
                    request.project,
                    folder,
                    request.active_files,
                    limit=ANCHORED,
                    commits=request.commits,
                )
            )
            pks = [pk for pk, _ in found]
            # Only the texts: the rows of the few kept are read afterwards (search()).
            bodies = self._read(lambda conn: ranking.texts(conn, pks)) if request.prompt else {}
            scores = anchors.relevance(request.prompt or "", bodies)
            top = max(scores.values(), default=0.0) or 1.0
            ranked = [
                (pk, BOOST["active"] * active + scores.get(pk, 0.0) / top, -position)
                for position, (pk, active) in enumerate(found)
            ]
            ranked.sort(key=lambda item: (-item[1], -item[2]))  # ties: the newest first
            objects[key] = [(pk, score) for pk, score, _ in ranked]
        anchored: list[tuple[int, float]] = objects[key]
        return anchored

    def _boosted(
        self,
        base: list[tuple[int, float]],
        factors: dict[int, float],
        folder: str | None,
        named: dict[str, float],
        active: list[str],
    ) -> list[tuple[int, float]]:
        """``base`` re-ranked by ``score * (1 + folder + named + active)``, where a memory
        earns :data:`memhooks.store.policy.BOOST` ``["folder"]`` for touching a file
        directly in ``folder`` (root-relative, ``""`` = root), ``["named"]`` times the largest share of a
        prompt-named file it touched and ``["active"]`` for touching an active file.
        ``factors`` memoizes each memory's factor for these cues. Ties keep ``base``
        order."""
        missing = [pk for pk, _ in base if pk not in factors]
        if missing:
            touched = self._paths(missing)
            wanted = set(active)
            for pk in missing:
                paths = touched.get(pk, ())
                factors[pk] = boost(paths, folder, named, wanted)
        scored = [(pk, score * factors[pk]) for pk, score in base]
        scored.sort(key=lambda item: -item[1])  # stable: ties keep the base order
        return scored

    def _paths(self, pks: list[int]) -> dict[int, list[str]]:
        """The files each memory touched (``memory_files``), read once per pk and state:
        one recall boosts the same candidates for several queries."""
        known: dict[int, list[str]] = self._lists().objects.setdefault(_key("~paths"), {})
        missing = [pk for pk in pks if pk not in known]
        if missing:
            sql = (
                "SELECT memory, path FROM memory_files"
                " WHERE memory IN (SELECT value FROM json_each(?))"
            )
            params = (dumps(missing),)
            for pk in missing:
                known[pk] = []
            for pk, path in self._read(lambda conn: conn.execute(sql, params).fetchall()):
                known[pk].append(path)
        return known

    def _cued(self, request: SearchRequest, depth: int) -> list[tuple[int, float]]:
        """Without a prompt: the query's words (none for a generated cue) fused with the
        folder-cue list (:func:`memhooks.store.ranking.cue`)."""
        lists: list[tuple[str, list[int]]] = []
        if not request.auto:
            words = query_words(request)
            lists.append(("query", self._text(request.project, words, depth, request.commits)))
        scope = request.scopes[0] if request.scopes and request.scopes[0] else None
        if request.files or scope is not None:
            lists.append(("cue", self._cue(request.project, scope, request.files, depth)))
        return fuse(lists, request.limit)

    def _prompt(self, project: str, prompt: str, depth: int) -> list[tuple[int, float]]:
        """The prompt's ranking with scores (BM25, or reciprocal-rank fusion with the
        embeddings in hybrid mode), kept for this process only: prompts rarely repeat."""
        from ..store import ranking

        cache = self._lists()
        key = _key("~prompt", project, str(depth), prompt)
        found: list[tuple[int, float]] | None = cache.objects.get(key)
        if found is None:
            found = self._read(
                lambda conn: ranking.ranked(
                    conn, project, prompt, limit=depth, frequencies=cache.frequencies, names=True
                )
            )
            if self._hybrid:
                dense = [pk for pk, _ in self._nearest(project, prompt, depth)]
                found = fuse([("bm25", [pk for pk, _ in found]), ("dense", dense)], depth)
            cache.objects[key] = found
        return found

    def _text(self, project: str, text: str, depth: int, commits: bool = True) -> list[int]:
        """The ranked pks of a query's words, kept on disk too (hooks' queries repeat);
        without ``commits``, of the memories not made of a commit only
        (``SearchRequest.commits``: they take no place of the others)."""
        from ..store import ranking

        cache = self._lists()
        key = _key("query" if commits else "notes", project, str(depth), text)
        found = cache.get(key)
        if found is None:
            hits = self._read(
                lambda conn: ranking.ranked(
                    conn, project, text, limit=depth, frequencies=cache.frequencies,
                    commits=commits,
                )
            )  # fmt: skip
            found = [pk for pk, _ in hits]
            if self._hybrid:
                dense = [pk for pk, _ in self._nearest(project, text, depth)]
                if not commits:
                    dense = self._read(lambda conn: ranking.not_commits(conn, dense))
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

    def _cue(self, project: str, scope: str | None, files: list[str], depth: int) -> list[int]:
        from ..store import ranking

        cache = self._lists()
        key = _key("cue", project, str(depth), "" if scope is None else f"/{scope}", *files)
        found = cache.get(key)
        if found is None:
            found = self._read(lambda conn: ranking.cue(conn, project, scope, files, limit=depth))
            cache.remember(key, found)
        return found

    def _relist(self, deadline: float) -> int:
        """Recompute the cache's stale lists (:attr:`ListCache.stale`) for the store's
        current state until ``deadline`` (monotonic seconds); bm25 mode only."""
        self._hybrid = False
        self._refresh()
        cache = self._lists()
        done = 0
        for key in cache.stale:
            if time.monotonic() > deadline:
                break
            if key in cache.lists:
                continue
            kind, _, rest = key.partition(SEP)
            parts = rest.split(SEP)
            if len(parts) < 3 or not parts[1].isdigit():
                continue
            project, depth = parts[0], int(parts[1])
            if kind in ("query", "notes"):
                self._text(project, SEP.join(parts[2:]), depth, kind == "query")
            elif kind == "cue":
                scope = parts[2][1:] if parts[2].startswith("/") else None
                self._cue(project, scope, parts[3:], depth)
            else:
                continue
            done += 1
        return done

    def _lists(self) -> ListCache:
        assert self._cache is not None
        return self._cache

    def _sync(self, project: str) -> None:
        """Start from fresh lists and rows when the store changed since the last search;
        in hybrid mode, load the model and embed the newest memories without a vector."""
        if self._hybrid is None:
            self._hybrid = _hybrid()
        self._refresh()
        if self._hybrid and project not in self._caught_up and not self.store.read_only:
            from ..store import semantic

            semantic.load()  # seconds, once per process: not a query's cost
            self._caught_up.add(project)
            done = _key("caught-up", project)
            if done not in self._lists().objects:  # checked already in this state
                if self.store.read(lambda conn: semantic.catch_up(conn, self.store.path, project)):
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
        return self.store.read(query)


#: Most seconds a writer spends recomputing the cached lists after a change (:func:`refresh`).
REFRESH_S = 0.3


def refresh(path: str | None = None, *, budget_s: float = REFRESH_S) -> int:
    """After a write to the store at ``path`` (default: ``MEMHOOKS_STORE`` or the user data
    dir): recompute, for its new state, the hooks' query and folder-cue lists the search
    cache held for an earlier state, and save them, so the next recall — often a fresh
    hook process — finds them ready instead of running every search again. Stops after
    ``budget_s`` seconds (lists left over are computed by the next recall). Returns how
    many lists were recomputed.

    A cache, so it never fails: store errors, a missing store, caching turned off
    (``MEMHOOKS_CACHE=0``) or hybrid search (it would load the embedding model in a
    writer) all give 0.
    """
    if hybrid_requested():
        return 0
    try:
        from ..store import MemoryStore

        backend = EmbeddedBackend(MemoryStore(path, create=False), owns_store=True)
    except MemhooksError:
        return 0
    try:
        return backend._relist(time.monotonic() + budget_s)
    except MemhooksError:
        return 0
    finally:
        backend.close()


def hybrid_requested() -> bool:
    """Whether ``MEMHOOKS_SEARCH`` asks for more than BM25 (hybrid search), read without
    loading the embedding code: the one rule the store's ranking and the recall floor
    (:func:`memhooks.recall.floor.lexical`) follow."""
    return given("MEMHOOKS_SEARCH") != "bm25"


def _hybrid() -> bool:
    """Whether ``MEMHOOKS_SEARCH`` asks for hybrid search (without importing it when not)."""
    if not hybrid_requested():
        return False
    from ..store import semantic

    return semantic.mode() == "hybrid"


def _state(conn: sqlite3.Connection) -> tuple[str, int]:
    store_id, generation = conn.execute("SELECT id, generation FROM store_state").fetchone()
    return (store_id, generation)


def query_words(request: SearchRequest) -> str:
    """A hand-written query's searchable words: its text expanded with its entity names,
    tags and the names of its resources that are not files (a runbook, a URI). File
    resources are folder cues instead: as words, the folder names in their paths
    ("src", "services") would match a large part of the store."""
    files = set(request.files)
    others = [name for name in request.resources if name not in files]
    return " ".join([request.text, *request.entities, *request.tags, *others])


SEP = "\x1f"
#: A word in more than this share of a project's memories says nothing of any one of them
#: (:meth:`EmbeddedBackend.word_shares`) ...
FREQUENT_SHARE = 1 / 3
#: ... once the project holds this many (a history import: requests 4,858, iproute2 5,147).
FREQUENT_LEAST = 200


def _key(*parts: str) -> str:
    return SEP.join(parts)


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
        commit=commit_of(memory.source),
    )
