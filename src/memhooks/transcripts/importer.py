"""``import_transcripts``: a project's past sessions into the embedded store, once each.

1. **Find** every session each host kept (:mod:`.hosts`) and keep the current project's:
   those that ran inside its canonical root, or in another checkout of the same project
   (same project id: a worktree, a moved clone). Deciding costs each file's first
   records, not a full read. Other projects' sessions are counted, never read further.
2. **Skip** a file whose size and modification time are those of the last import
   (:mod:`.state`).
3. **Read, cut, anchor** (:mod:`.segment`, :mod:`.render`): one memory per piece that
   says something (:func:`.render.substantive`), its id stable across re-imports. A piece stored already is updated when its session grew
   (only the last piece of a session can change); a piece imported before and since
   forgotten is not brought back.
4. **Supersede** (:mod:`.supersede`): the new pieces against the project's others.

Nothing leaves the machine: the transcripts are read where the hosts keep them and the
pieces go to the embedded store. Every text is scrubbed of secrets first (:mod:`.render`).
"""

from __future__ import annotations

import os

from ..git import find_repository
from ..paths import is_within
from ..store import identify
from ..store.connection import Translated, connect, write
from ..store.memory import format_timestamp
from . import chat, fragments, state, supersede
from .anchors import Place
from .hosts import READERS, Reader
from .lines import Damage
from .render import substantive, to_memory
from .segment import segment

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Mapping, Sequence

    from typing_extensions import Self

    from ..store import Memory, MemoryStore
    from ..workspace import Workspace
    from .model import Transcript
    from .segment import Piece


#: The fields of a stored piece a grown session brings up to date (its marks are kept).
UPDATED = ("scope", "files", "text", "entities", "created_at")


class ImportReport:
    """What an import did: ``sessions`` read (with pieces or not), ``pieces`` made,
    ``added`` / ``updated`` / ``unchanged`` pieces (with ``dry_run``, ``added`` counts what
    would be), ``forgotten`` (pieces imported before and since forgotten: not added again),
    ``superseded`` (pieces marked superseded by a later one), ``fragments`` (what capture
    recorded of the same session, verbatim in a piece, now superseded by it), ``unchanged_files``
    (skipped: as at the last import), ``elsewhere`` (sessions of other projects, not
    read), ``damaged`` (lines no reader could use), ``hollow`` (pieces with nothing said
    but filler around their tool calls: not stored, :func:`.render.substantive`),
    ``by_host`` (sessions read per host)."""

    __slots__ = (
        "added",
        "by_host",
        "damaged",
        "dry_run",
        "elsewhere",
        "forgotten",
        "fragments",
        "hollow",
        "pieces",
        "sessions",
        "superseded",
        "unchanged",
        "unchanged_files",
        "updated",
    )

    def __init__(self, *, dry_run: bool = False) -> None:
        self.sessions = self.pieces = self.added = self.updated = self.unchanged = 0
        self.forgotten = self.superseded = self.unchanged_files = self.elsewhere = 0
        self.fragments = self.hollow = 0
        self.damaged = 0
        self.by_host: dict[str, int] = {}
        self.dry_run = dry_run

    def to_json(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in sorted(self.__slots__)}


def import_transcripts(
    store: MemoryStore,
    where: Workspace,
    *,
    env: Mapping[str, str],
    hosts: Sequence[str] | None = None,
    chats: Sequence[str] = (),
    dry_run: bool = False,
) -> ImportReport:
    """Import the sessions of ``where``'s project that ``hosts`` (default: every host in
    :data:`.hosts.READERS`) keep under the folders ``env`` names (``HOME``,
    ``CLAUDE_CONFIG_DIR``, ``CODEX_HOME``, ``COPILOT_HOME``, ``GEMINI_CLI_HOME``) and the
    plain chat files ``chats`` (:mod:`.chat`). ``dry_run`` writes nothing. Raises DiagnosticError MH034 for a bad chat file, StoreError when the store fails."""
    with _Import(store, where, dry_run) as run:
        for name in hosts if hosts is not None else list(READERS):
            reader = READERS[name]
            for path in reader.sessions(env):
                run.host_file(reader, path)
        for path in chats:
            full = os.path.abspath(path)
            root = Place(where.root, where.root, where.root)
            run.sessions(full, _stat(full) or (0, 0), chat.read_all(full, where.root), root)
    return run.report


def import_session(store: MemoryStore, where: Workspace, host: str, path: str) -> ImportReport:
    """Import one session file of ``host`` (what capture does when a session ends or
    compacts: :mod:`.ending`) as :func:`import_transcripts` would: once, only what is new,
    only when it belongs to ``where``'s project."""
    with _Import(store, where, dry_run=False) as run:
        run.host_file(READERS[host], path)
    return run.report


class _Import:
    """One import: the store, the state table's connection, what was imported before."""

    def __init__(self, store: MemoryStore, where: Workspace, dry_run: bool) -> None:
        self.store, self.where = store, where
        self.report = ImportReport(dry_run=dry_run)
        self.placer = _Placer(where)
        self.conn: sqlite3.Connection | None = None
        self.seen: dict[str, state.Seen] = {}
        if not store.vacant:  # a store its first write makes holds no state yet
            try:
                with Translated(store.path):
                    self.seen = state.seen(self.ledger(), where.project)
            except BaseException:
                self.__exit__()
                raise

    def ledger(self) -> sqlite3.Connection:
        """The connection of the state table (what was imported from where), opened and
        the table made on first use: once the store's file exists."""
        if self.conn is None:
            store, dry_run = self.store, self.report.dry_run
            self.conn = connect(store.path, create=not dry_run, timeout=store.timeout)
            with Translated(store.path):
                if not dry_run and not state.ready(self.conn):
                    write(self.ledger(), store.path, store.timeout, state.create)
        return self.conn

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.conn is not None:
            self.conn.close()

    def host_file(self, reader: Reader, path: str) -> None:
        """Import one host session file, unless it belongs to another project or is as
        it was at the last import."""
        place = self.placer(reader.cwd(path))
        if place is None:
            self.report.elsewhere += 1
            return
        mark = _stat(path)
        old = self.seen.get(path)
        if mark is None or (old is not None and (old.size, old.mtime_ns) == mark):
            self.report.unchanged_files += mark is not None
            return
        damage = Damage()
        try:
            transcript = reader.read(path, damage)
        except OSError:
            return  # removed while we looked: nothing to import
        self.report.damaged += damage.lines
        self.sessions(path, mark, [transcript] if transcript is not None else [], place)

    def sessions(
        self, path: str, mark: tuple[int, int], transcripts: list[Transcript], place: Place
    ) -> None:
        """Import the sessions read from one file, then remember the file."""
        store, where, report = self.store, self.where, self.report
        old = self.seen.get(path)
        made: list[tuple[Memory, Piece, Transcript]] = []
        for transcript in transcripts:
            report.sessions += 1
            report.by_host[transcript.host] = report.by_host.get(transcript.host, 0) + 1
            fallback = _mtime_iso(path)
            for piece in segment(transcript, place):
                if not substantive(piece):  # an edit with no why: never stored
                    report.hollow += 1
                    continue
                made.append(
                    (
                        to_memory(transcript, piece, place, where.project, fallback),
                        piece,
                        transcript,
                    )
                )
        memories = [m for m, _, _ in made]
        report.pieces += len(memories)
        prior = set(old.pieces) if old is not None else set()
        stored = store.stored(where.project, [m.id for m in memories]) if memories else {}
        new = [m for m in memories if m.id not in stored and m.id not in prior]
        report.forgotten += sum(m.id not in stored and m.id in prior for m in memories)
        changed = [m for m in memories if _differs(stored.get(m.id), m)]
        report.unchanged += sum(m.id in stored for m in memories) - len(changed)
        if report.dry_run:
            report.added += len(new)
            report.updated += len(changed)
            return
        if new:
            report.added += len(store.add_many(where.project, new))
        if changed:
            store.update_fields(where.project, changed, UPDATED)
            report.updated += len(changed)
        if new or changed:
            report.superseded += len(supersede.apply(store, where.project, [*new, *changed]))
            live = {m.id for m in [*new, *changed]}
            report.fragments += fragments.replace(
                store, self.ledger(), where.project, [x for x in made if x[0].id in live]
            )
        if store.vacant:
            return  # nothing stored, no store made: the next import reads the file again
        host = transcripts[0].host if transcripts else ""
        session = transcripts[0].session if len(transcripts) == 1 else ""
        ids = prior | {m.id for m in memories}
        write(self.ledger(), store.path, store.timeout,
              lambda c: state.record(c, where.project, path, mark, host, session, ids))  # fmt: skip
        self.seen[path] = state.Seen(mark[0], mark[1], sorted(ids))


def _differs(stored: Memory | None, made: Memory) -> bool:
    """Whether the piece ``made`` again says more than the piece ``stored`` (its session
    grew), so that it is brought up to date (:data:`UPDATED`)."""
    return stored is not None and (
        stored.text != made.text or stored.files != made.files or stored.entities != made.entities
    )


class _Placer:
    """Where a session ran, as a :class:`Place` of the project, or None for another
    project. Each folder is decided once per import."""

    def __init__(self, where: Workspace) -> None:
        self.where = where
        self.known: dict[str, Place | None] = {}

    def __call__(self, cwd: str | None) -> Place | None:
        if not cwd or not os.path.isabs(cwd):
            return None
        if cwd not in self.known:
            self.known[cwd] = self._decide(cwd)
        return self.known[cwd]

    def _decide(self, cwd: str) -> Place | None:
        root = self.where.root
        real = os.path.realpath(cwd) if os.path.exists(cwd) else os.path.normpath(cwd)
        if is_within(real, root):
            return Place(root, root, real)
        repo = find_repository(real) if os.path.isdir(real) else None
        if repo is None:
            return None
        ids = {self.where.project, *self.where.aliases}
        return Place(root, repo.top, real) if identify(repo.top).id in ids else None


def _stat(path: str) -> tuple[int, int] | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_size, found.st_mtime_ns


def _mtime_iso(path: str) -> str:
    try:
        return format_timestamp(os.path.getmtime(path))
    except OSError:
        return format_timestamp(0)
