"""The :class:`MemoryStore`: one SQLite file holding the memories of many projects.

Over 300 lines on purpose: the class is the store's one door (STYLE.md: a store class
that takes its path), and what it holds is its public methods' signatures and
docstrings; the work of each write lives in a module of its own, loaded by its first
call where the hook's reads never need it — the field rule (:mod:`.fields`), many
memories at once (:mod:`.batch`), superseding (:mod:`.supersede`), adoption
(:mod:`.adoption`), JSON Lines (:mod:`.jsonl`) — or shared with a read, as history
memories (:mod:`.commits`). A second class for the write side would make every caller
pick a class by what it does next.
"""

from __future__ import annotations

import builtins
import os
import time

from memhooks.errors import MissingStoreError, StoreError

from . import commits, rows, search
from .connection import BUSY_TIMEOUT, MEMORY, Translated, connect, connect_reader, write
from .location import default_path
from .memory import Memory, clean_id, format_timestamp, parse_timestamp
from .schema import migrate
from .scope import normalize_scope

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Callable, Iterable, Sequence
    from typing import IO, TypeVar

    from typing_extensions import Self

    from . import commit_writes
    from .memory import Draft

    T = TypeVar("T")


class MemoryStore:
    """The embedded memory store at ``path`` (default :func:`~memhooks.store.default_path`).

    ``":memory:"`` gives a private in-memory store (for tests of code that uses one).
    Opening creates the file and its directory unless ``create`` is false, and
    migrates an older schema; with ``lazy``, a missing file is created by the first
    write (until then the store reads as empty, :attr:`vacant`): an import that finds
    nothing leaves no empty store behind. Writers wait up to ``timeout`` seconds for the
    write lock. ``clock`` (seconds since the epoch) stamps new memories and ids.
    Every method raises :class:`~memhooks.errors.StoreError` when the file cannot
    be read or written, or when an argument cannot be stored; the message names
    the file or the field and says what to do. Use as a context manager or call
    :meth:`close`. One store object must not be used by two threads at once.
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        create: bool = True,
        lazy: bool = False,
        timeout: float = BUSY_TIMEOUT,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = default_path() if path is None else os.fspath(path)
        if not self.path:
            raise StoreError("the memory store path is empty; give a file path or leave it out")
        self.timeout = timeout
        self._clock = clock
        #: A reader (``create=False``) of a file that holds no store yet (0 bytes, or no
        #: schema: what a killed first write leaves), or a ``lazy`` store whose file is
        #: missing, reads an empty in-memory store and leaves the file as it is; its
        #: first write makes the file a store.
        self.vacant = False
        #: Why a reader could only open the file read-only (a read-only file system,
        #: folder or file, or a side file of another user), or None. Its memories are
        #: read; a write fails with an error naming what is at fault.
        self.read_only: str | None = None
        # Nothing to read yet: a reader of a blank file, a lazy store of a missing one
        if (not create and _blank(self.path)) or (create and lazy and _missing(self.path)):
            self._conn, self.vacant = self._empty(), True
            return
        if create:
            self._conn = connect(self.path, create=True, timeout=timeout)
        else:
            self._conn, self.read_only = connect_reader(self.path, timeout=timeout)
        try:
            with Translated(self.path):
                if migrate(self._conn, self.path, timeout, create=create) == 0 and not create:
                    self._conn.close()
                    self._conn, self.vacant = self._empty(), True
        except BaseException:
            self._conn.close()
            raise

    @classmethod
    def for_import(cls, path: str | None, *, dry_run: bool, lazy: bool = False) -> MemoryStore:
        """The store at ``path`` (default :func:`default_path`) an import writes into
        (``history import``, ``transcripts import``): created when missing — with
        ``lazy``, by its first write — or, for a ``dry_run``, opened to read, and an empty
        in-memory store when there is none yet (a dry run compares with what is stored
        and writes nothing)."""
        if not dry_run:
            return cls(path, lazy=lazy)
        try:
            return cls(path, create=False)
        except MissingStoreError:
            return cls(MEMORY)

    def _empty(self) -> sqlite3.Connection:
        conn = connect(MEMORY)
        migrate(conn, self.path, self.timeout)
        return conn

    def close(self) -> None:
        """Close the database connection; the store is unusable afterwards."""
        self._conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def add(
        self,
        project: str,
        text: str,
        *,
        created_at: str | None = None,
        id: str | None = None,
        supersedes: Iterable[str] = (),
        scope: str = "",
        files: Iterable[str] = (),
        kind: str | None = None,
        tags: Iterable[str] = (),
        entities: Iterable[str] = (),
        source: str = "",
    ) -> Memory:
        """Record a new memory and return it as stored (fields normalized).

        ``scope``: the root-relative folder (default the root); ``files``: root-relative
        paths (:mod:`memhooks.store.scope`); ``kind``, ``tags``, ``entities``; ``source``:
        who recorded it. ``created_at`` is ISO 8601 with ``Z`` or an offset
        (default: now); ``id`` defaults to a fresh time-ordered id and must not exist in
        ``project`` yet. ``supersedes``: ids of memories of ``project`` the new one retires
        (capture's newer checkpoint), marked as :meth:`mark_obsolete` does in the same
        transaction — a crash leaves both or neither; an id that names no memory any more
        (forgotten meanwhile) is skipped.
        """
        from . import supersede

        # Read once: the transaction below runs again after a busy lock (store.connection.write)
        supersedes = builtins.list(supersedes)
        now = self._clock()
        memory = _draft(project, text, scope, files, kind, tags, entities, source, now)
        if created_at is not None or id is not None:
            try:
                memory.id = "" if id is None else clean_id(id)
                if created_at is not None:
                    memory.created_at = parse_timestamp(created_at)
            except (TypeError, ValueError) as exc:
                raise StoreError(f"cannot record the memory: {exc}") from None

        def work(conn: sqlite3.Connection) -> None:
            if id is None:
                memory.id = rows.fresh_id(conn, memory.project, now)
            elif rows.find(conn, memory.project, memory.id) is not None:
                raise StoreError(
                    f"memory {id!r} already exists in project {project!r}; "
                    "import a JSONL line with that id to update it, or leave the id out"
                )
            rows.insert(conn, memory)
            for old in supersedes:
                if rows.find(conn, memory.project, old) is not None:
                    supersede.mark(conn, memory.project, old, memory.id)

        self._write(work)
        return memory

    def remember(self, draft: Draft, *, replaces: str | None = None) -> tuple[Memory, bool]:
        """Record ``draft`` (:class:`~memhooks.store.memory.Draft`: the record every
        backend's ``remember`` takes too) once per folder: ``(memory, added)``.

        When a live memory of ``draft.project`` scoped to ``draft.scope`` already says
        exactly ``draft.text`` (surrounding whitespace aside), that memory is the answer
        (``added`` False) and the draft's ``files``, ``tags`` and ``entities`` are merged
        into it (its ``kind`` is kept, or set when it had none); otherwise a new memory is
        recorded, its fields normalized as :meth:`add` does (``created_at``: the draft's,
        else now). ``replaces`` names a memory of the project that the answer supersedes:
        it is marked obsolete with ``superseded_by`` the answer's id
        (:meth:`mark_obsolete`'s rule, in the same transaction), so recall leaves it out
        as it leaves out a reverted commit. Raises StoreError when ``replaces`` names no
        memory of the project or the answer itself, or as :meth:`add` does.
        """
        from . import supersede

        now = self._clock()
        memory = _draft(draft.project, draft.text, draft.scope, draft.files, draft.kind,
                        draft.tags, draft.entities, draft.source, now)  # fmt: skip
        if draft.created_at is not None:
            try:
                memory.created_at = parse_timestamp(draft.created_at)
            except (TypeError, ValueError) as exc:
                raise StoreError(f"cannot record the memory: {exc}") from None

        def work(conn: sqlite3.Connection) -> tuple[Memory, bool]:
            found = rows.same_text(conn, memory.project, memory.scope, memory.text)
            if found is None:
                memory.id = rows.fresh_id(conn, memory.project, now)
                rows.insert(conn, memory)
            elif supersede.merge(found, memory):
                rows.update(conn, found)
            answer = memory if found is None else found
            if replaces is not None:
                supersede.mark(conn, memory.project, replaces, answer.id)
            return answer, found is None

        return self._write(work)

    def add_many(self, project: str, memories: Iterable[Memory]) -> builtins.list[str]:
        """Record new memories with caller-chosen ids in one write transaction; return
        the ids added, in order.

        Each :class:`Memory` needs its ``id``, ``text`` and ``created_at``; its fields are
        normalized as :meth:`add` does and its ``project`` is replaced by ``project``. A
        memory whose id ``project`` already holds is skipped and the stored one is left
        as it is, so an importer that derives ids from its source can re-run and add only
        what is new. Raises StoreError naming the first memory that cannot be stored;
        nothing is written then.
        """
        from . import batch  # importers only: the hook never pays for it

        project = _project(project)
        cleaned = []
        for memory in memories:
            try:
                cleaned.append(batch.clean(project, memory))
            except (TypeError, ValueError) as exc:
                name = getattr(memory, "id", None)
                raise StoreError(f"cannot record the memory {name!r}: {exc}") from None
        return self._write(lambda conn: batch.insert_new(conn, project, cleaned))

    def stored(self, project: str, ids: Iterable[str]) -> builtins.dict[str, Memory]:
        """The memories of ``project`` among ``ids``, by id, read at once (obsolete ones
        included; an id not stored is left out)."""
        from . import batch

        with Translated(self.path):
            return batch.stored(self._conn, project, ids)

    def update_fields(
        self, project: str, memories: Iterable[Memory], fields: Sequence[str]
    ) -> builtins.list[str]:
        """Bring stored memories up to date in one transaction: each memory of
        ``project`` with the id of one of ``memories`` takes that one's ``fields``
        (normalized as :meth:`add_many` does); its other fields — kind, tags, source,
        obsolete marks — are kept. Returns the ids updated; one no longer stored is
        skipped. Raises StoreError as :meth:`add_many` does."""
        from . import batch

        project = _project(project)
        try:
            fresh = [batch.clean(project, memory) for memory in memories]
        except (TypeError, ValueError) as exc:
            raise StoreError(f"cannot update the memories: {exc}") from None

        def work(conn: sqlite3.Connection) -> builtins.list[str]:
            present = batch.stored(conn, project, [memory.id for memory in fresh])
            for memory in fresh:
                if (old := present.get(memory.id)) is not None:
                    for name in fields:
                        setattr(old, name, getattr(memory, name))
                    rows.update(conn, old)
            return [memory.id for memory in fresh if memory.id in present]

        return self._write(work)

    def stored_changes(
        self, project: str, ids: Iterable[str]
    ) -> builtins.dict[str, commit_writes.Stored]:
        """What ``project`` holds of the history memories ``ids``
        (:func:`memhooks.store.commit_writes.stored`): a cheap read before deciding which
        memories an import must build."""
        from . import commit_writes  # history import only: the hook reads, never loads it

        with Translated(self.path):
            return commit_writes.stored(self._conn, _project(project), ids)

    def imported_commits(
        self, project: str, hashes: Sequence[str], format: int
    ) -> builtins.set[str]:
        """Which commit ``hashes`` ``history import`` stored in ``project`` with mapping
        ``format`` or a later one (:func:`memhooks.store.commit_writes.imported`)."""
        from . import commit_writes

        with Translated(self.path):
            return commit_writes.imported(self._conn, project, hashes, format)

    def store_changes(
        self, project: str, wanted: Sequence[commit_writes.Wanted]
    ) -> builtins.dict[str, tuple[str, bool]]:
        """Add, rewrite or update the history memories ``wanted`` in one write
        transaction; ``{id: (what was done, low-signal)}`` as decided under the write
        lock (:func:`memhooks.store.commit_writes.apply`). Raises StoreError naming a memory
        that cannot be stored; nothing is written then."""
        from . import commit_writes

        project = _project(project)

        def work(conn: sqlite3.Connection) -> builtins.dict[str, tuple[str, bool]]:
            try:
                return commit_writes.apply(conn, project, wanted)
            except (TypeError, ValueError) as exc:
                raise StoreError(f"cannot record the memory of a commit: {exc}") from None

        return self._write(work)

    def mark_reverted(
        self, project: str, marks: Sequence[tuple[str, str]]
    ) -> tuple[builtins.list[tuple[str, str]], int]:
        """Mark each live memory a revert undid obsolete, superseded by the revert, in one
        write transaction (:func:`memhooks.store.commit_writes.mark_reverted`); return the
        ``(reverted, revert)`` marks made and how many reverted memories the project
        does not hold."""
        from . import commit_writes

        project = _project(project)
        if not marks:
            return [], 0
        return self._write(lambda conn: commit_writes.mark_reverted(conn, project, marks))

    def by_commit(self, project: str, names: Iterable[str]) -> builtins.dict[str, Memory]:
        """``{name: memory}`` for the commits ``names`` (full or abbreviated hashes) that
        ``history import`` made memories of (:func:`memhooks.store.commits.by_hash`)."""
        with Translated(self.path):
            return commits.by_hash(self._conn, project, names)

    def commit_marks(self, project: str) -> tuple[builtins.list[str], builtins.list[str]]:
        """What :meth:`by_commit` can say of any commit of ``project``
        (:func:`memhooks.store.commits.marks`): ``(obsolete hashes, hashes whose memory
        names another commit)``."""
        with Translated(self.path):
            return commits.marks(self._conn, project)

    def adopt(self, project: str, aliases: Iterable[str]) -> int:
        """Move every memory (and capture's state) kept under ``aliases`` — ids the same
        project had before, :attr:`memhooks.store.project.Identity.aliases` — to
        ``project``; return how many memories moved. Costs one index lookup when there
        is nothing to move. An id that ``project`` already uses for another memory is
        replaced by a fresh one (:func:`memhooks.store.adoption.move`). A store opened
        read-only moves nothing (0)."""
        from . import adoption

        earlier = [a for a in dict.fromkeys(aliases) if a and a != project]
        if not earlier or self.vacant or self.read_only:
            return 0
        with Translated(self.path):
            if not adoption.pending(self._conn, earlier):
                return 0
        now = self._clock()
        return self._write(lambda conn: adoption.move(conn, earlier, _project(project), now))

    def get(self, id: str, *, project: str | None = None) -> Memory | None:
        """The memory with this id (in ``project`` when given), or None.

        Raises StoreError if ``project`` is None and several projects use the id.
        """
        with Translated(self.path):
            return rows.lookup(self._conn, id, project)

    def forget(self, id: str, *, project: str | None = None) -> bool:
        """Delete a memory for good; return whether it existed."""

        def work(conn: sqlite3.Connection) -> bool:
            memory = rows.lookup(conn, id, project)
            if memory is None:
                return False
            conn.execute("DELETE FROM memories WHERE project = ? AND id = ?", (memory.project, id))
            return True

        return self._write(work)

    def mark_obsolete(
        self, id: str, superseded_by: str | None = None, *, project: str | None = None
    ) -> Memory:
        """Mark a memory obsolete (recall leaves it out), optionally naming its replacement.

        The one way a memory is superseded — reverted commits (``history import``),
        ``memhooks remember --replaces`` (:meth:`remember`) — see
        :mod:`memhooks.store.supersede`. Raises StoreError if either id is unknown (the
        replacement must be in the same project) or a memory would supersede itself.
        """
        from . import supersede

        return self._write(lambda conn: supersede.mark(conn, project, id, superseded_by))

    def count(
        self, project: str, *, scope: str | None = None, include_obsolete: bool = True
    ) -> int:
        """How many memories ``project`` has (only those scoped exactly to ``scope`` when given)."""
        live = "" if include_obsolete else " AND obsolete = 0"
        params: tuple[str, ...] = (project,)
        if scope is not None:
            try:
                params += (normalize_scope(scope),)
            except (TypeError, ValueError) as exc:
                raise StoreError(f"cannot count by scope: {exc}") from None
            live += " AND scope = ?"
        with Translated(self.path):
            sql = f"SELECT count(*) FROM memories WHERE project = ?{live}"
            total: int = self._conn.execute(sql, params).fetchone()[0]
        return total

    def beyond_history(self, project: str) -> bool:
        """Whether ``project`` holds a live memory not made of a commit: a remembered note,
        an imported conversation — anything ``history import`` did not record as a
        commit's (the ``commits`` table, :data:`memhooks.store.commits.NOT_A_COMMIT`;
        a source spelt ``git:`` proves nothing). Reads the project's rows until one is
        found."""
        with Translated(self.path):
            row = self._conn.execute(
                "SELECT 1 FROM memories m WHERE m.project = ? AND m.obsolete = 0"
                f" AND {commits.NOT_A_COMMIT} LIMIT 1",
                (_project(project),),
            ).fetchone()
        return row is not None

    def search(
        self,
        project: str,
        query_text: str,
        *,
        limit: int = 10,
        scopes: Iterable[str] | None = None,
        files: Iterable[str] | None = None,
        tags: Iterable[str] | None = None,
        entities: Iterable[str] | None = None,
        include_obsolete: bool = False,
    ) -> builtins.list[tuple[Memory, float]]:
        """Full-text search of one project: ``[(memory, score)]``, best first, at most ``limit``.

        ``score`` is SQLite FTS5's BM25 negated (positive, higher is better) over
        text, tags, entities, files and kind, weighted by ``search.WEIGHTS``; it
        is comparable only within one result list. Ties are broken by id, so a
        fixed store always gives the same ranking. Any text is accepted (see
        :func:`~memhooks.store.search.match_expression`); text with no words gives ``[]``.

        Filters (None = no filter; an empty list matches nothing): a memory must
        have its scope in ``scopes`` *or* one of its files in ``files``, must
        carry one of ``tags`` and one of ``entities`` (ASCII case ignored), and
        must not be obsolete unless ``include_obsolete``. Scopes match exactly;
        pass :func:`~memhooks.store.ancestor_scopes` for "this folder and above".
        """
        with Translated(self.path):
            return search.search(
                self._conn,
                project,
                query_text,
                limit=limit,
                scopes=scopes,
                files=files,
                tags=tags,
                entities=entities,
                include_obsolete=include_obsolete,
            )

    def candidates_by_scope(
        self,
        project: str,
        scopes: Iterable[str] = (),
        files: Iterable[str] = (),
        *,
        limit: int = 50,
        include_obsolete: bool = False,
    ) -> builtins.list[Memory]:
        """Memories scoped exactly to one of ``scopes`` or related to one of ``files``.

        No text query: this is the folder cue. Order: memories matched by a file
        first, then deeper (more specific) scopes, then newest, then id descending.
        """
        with Translated(self.path):
            return search.candidates(
                self._conn, project, scopes, files, limit=limit, include_obsolete=include_obsolete
            )

    def export_jsonl(self, project: str, fp: IO[str]) -> int:
        """Write all memories of ``project`` to ``fp`` as JSON Lines, oldest first; return the count.

        Each line is :meth:`Memory.to_json` without ``project``, UTF-8 text
        (not ``\\u`` escapes), so exports diff well under version control.
        """
        with Translated(self.path):
            from . import jsonl

            return jsonl.export(self._conn, project, fp)

    def import_jsonl(
        self,
        project: str,
        fp: Iterable[str] | Iterable[bytes],
        *,
        default_scope: str = "",
        source: str = "import",
    ) -> dict[str, int]:
        """Load JSON Lines into ``project``; return ``{"added": n, "updated": n,
        "unchanged": n}`` (a line that would change nothing is not written).

        Every line is validated before anything is written, then all are written
        in one transaction: a bad line raises DiagnosticError MH045 at
        ``<file>:<line>:<column>`` saying what is wrong (:func:`.jsonl.parse`), and the
        store is unchanged. A line needs only ``text``;
        ``id``, ``scope``, ``files``, ``kind``, ``tags``, ``entities``,
        ``created_at`` (ISO 8601 with ``Z`` or an offset, stored as UTC),
        ``source``, ``obsolete`` and ``superseded_by`` are optional; other keys
        (``project`` included) are ignored. A line whose ``id`` exists in
        ``project`` updates that memory, keeping fields the line leaves out.
        New memories get ``default_scope`` and ``source`` when the line has none.
        """
        from . import jsonl
        from .fields import CLEAN

        project = _project(project)
        if isinstance(fp, (str, bytes)):
            raise StoreError("import_jsonl takes an open file or a list of lines, not a string")
        try:
            scope = normalize_scope(default_scope)
            source = CLEAN["source"](source)
        except (TypeError, ValueError) as exc:
            raise StoreError(f"cannot import: {exc}") from None

        records = jsonl.parse(fp, getattr(fp, "name", "<input>"))
        now = self._clock()

        def work(conn: sqlite3.Connection) -> dict[str, int]:
            return jsonl.store(conn, project, records, default_scope=scope, source=source, now=now)

        return self._write(work)

    def list(
        self,
        project: str,
        *,
        scope: str | None = None,
        limit: int | None = 100,
        include_obsolete: bool = False,
    ) -> builtins.list[Memory]:
        """Memories of ``project``, newest first; only those scoped exactly to ``scope``
        when given; at most ``limit`` (None: all)."""
        try:
            wanted = None if scope is None else normalize_scope(scope)
        except (TypeError, ValueError) as exc:
            raise StoreError(f"cannot list by scope: {exc}") from None
        with Translated(self.path):
            return rows.recent(self._conn, project, wanted, limit, include_obsolete)

    def read(self, query: Callable[[sqlite3.Connection], T]) -> T:
        """``query(connection)`` on this store's connection, SQLite's errors translated
        (StoreError): the entry for an adapter's own id-level queries
        (:mod:`memhooks.store.ranking`); one that writes takes its own transaction
        (:func:`memhooks.store.semantic.catch_up`). One thread. Writes of memories go
        through the named methods (:meth:`remember`, :meth:`adopt`, …)."""
        with Translated(self.path):
            return query(self._conn)

    def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        if self.vacant:  # the first write makes the file a store
            conn = connect(self.path, create=True, timeout=self.timeout)
            try:
                with Translated(self.path):
                    migrate(conn, self.path, self.timeout)
            except BaseException:
                conn.close()
                raise
            self._conn.close()
            self._conn, self.vacant = conn, False
        return write(self._conn, self.path, self.timeout, work)


def _draft(
    project: str,
    text: str,
    scope: str,
    files: Iterable[str],
    kind: str | None,
    tags: Iterable[str],
    entities: Iterable[str],
    source: str,
    now: float,
) -> Memory:
    """A new memory of ``text`` and its fields, normalized by the one rule
    (:data:`memhooks.store.fields.CLEAN`; its id is chosen when it is written).
    StoreError naming the field that cannot be stored."""
    from .fields import CLEAN  # the write side: recall never loads it

    def given(values: Iterable[str]) -> object:  # any iterable of strings, not one string
        return values if isinstance(values, str) else builtins.list(values)

    try:
        return Memory(
            id="",
            project=_project(project),
            scope=CLEAN["scope"](scope),
            files=CLEAN["files"](given(files)),
            text=CLEAN["text"](text),
            kind=CLEAN["kind"](kind),
            tags=CLEAN["tags"](given(tags)),
            entities=CLEAN["entities"](given(entities)),
            created_at=format_timestamp(now),
            source=CLEAN["source"](source),
        )
    except (TypeError, ValueError) as exc:
        raise StoreError(f"cannot record the memory: {exc}") from None


def _blank(path: str) -> bool:
    """A 0-byte regular file (SQLite would write a schema into it on open)."""
    try:
        return path != MEMORY and os.path.isfile(path) and os.path.getsize(path) == 0
    except OSError:
        return False


def _missing(path: str) -> bool:
    """No file at ``path`` yet (a lazy store makes it on its first write)."""
    return path != MEMORY and not os.path.lexists(path)


def _project(project: object) -> str:
    if not isinstance(project, str) or not project.strip():
        raise StoreError("a project id must be a non-blank string; see memhooks.store.project_id")
    return project
