"""``import_history``: a repository's commits into the embedded store, once each.

1. **Scan** (:func:`.gitlog.scan`): every non-merge commit of the range, oldest first;
   its change id (:func:`.mapping.change_id`) is looked up in the store, 500 at a time.
   Commits whose change is stored already are left alone — a re-run reads no message
   and writes nothing for them — except those whose subject may revert something
   (checked again in step 3: their revert may name a commit imported only now).
2. **Read** (:func:`.gitlog.read`) the remaining commits with messages and paths, map
   each to a memory (:func:`.mapping.to_memory`; an empty message is skipped) and add
   them :data:`BATCH` per write transaction (:meth:`MemoryStore.add_many`, which skips
   an id already stored). An interrupted import keeps the batches written; the next
   run goes on from there.
3. **Reverts**: every revert read in step 2 marks the memory of the commit it names
   obsolete, superseded by the revert's memory (:meth:`MemoryStore.mark_obsolete`), so
   recall leaves the reverted approach out unless asked for obsolete memories. The
   reverted commit is the one git's ``This reverts commit <hash>`` line names; when git
   does not know that hash (the reverted commit was rebased before it landed — it
   happens), or the message names none, a ``Revert "<subject>"`` subject names the newest
   earlier commit of the scanned range with that subject (found during the scan, so it
   costs a dictionary lookup). A memory already obsolete is
   left as it is; a revert of a revert makes the first revert obsolete (the reapplying
   commit is the live memory). Reverts are applied oldest first.
"""

from __future__ import annotations

from . import gitlog
from .conventions import may_revert
from .mapping import change_id, to_memory
from .message import reverted, reverted_subject

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ..store import Memory, MemoryStore

    #: ``progress(stage, done, total)``: stage ``"scan"`` (total None: not known yet) or
    #: ``"import"`` (done and total in commits).
    Progress = Callable[[str, int, "int | None"], None]

#: Memories written per transaction.
BATCH = 500
#: Change ids looked up in the store per query during the scan.
LOOKUP = 500


class ImportReport:
    """What an import did, in commits: ``commits`` (non-merge commits in the range),
    ``added`` (new memories; with ``dry_run``, commits that would be read and added
    unless their message is empty), ``present`` (their change was stored already),
    ``duplicates`` (the same change met twice in the range, e.g. cherry-picked),
    ``empty`` (no message once trailers are dropped: not stored), ``obsoleted`` (earlier
    memories a revert marked obsolete), ``unresolved`` (reverted commits that are not in
    the store: merges, or outside what was imported), ``boundary`` (commits at a shallow
    clone's edge, imported without files), ``dry_run``."""

    __slots__ = (
        "added",
        "boundary",
        "commits",
        "dry_run",
        "duplicates",
        "empty",
        "obsoleted",
        "present",
        "unresolved",
    )

    def __init__(self, *, dry_run: bool = False) -> None:
        self.commits = self.added = self.present = self.duplicates = self.empty = 0
        self.obsoleted = self.unresolved = self.boundary = 0
        self.dry_run = dry_run

    def to_json(self) -> dict[str, int | bool]:
        return {name: getattr(self, name) for name in sorted(self.__slots__)}


def import_history(
    store: MemoryStore,
    project: str,
    repo: gitlog.Repository,
    *,
    revisions: Sequence[str] = (),
    since: str | None = None,
    max_count: int | None = None,
    dry_run: bool = False,
    progress: Progress | None = None,
) -> ImportReport:
    """Import the non-merge commits of ``revisions`` (default ``HEAD``) in ``repo`` as
    memories of ``project`` (see the module docstring); ``since`` (ISO 8601) and
    ``max_count`` (the newest N) narrow the range as ``git log`` does. ``dry_run``
    stops after the scan and writes nothing. Raises DiagnosticError MH032 when git
    fails, StoreError when the store does."""
    report = ImportReport(dry_run=dry_run)
    todo, recheck, by_subject = _scan(
        store, project, repo, revisions, since, max_count, report, progress
    )
    if dry_run:
        report.added = len(todo)
        return report
    reverts = _read(store, project, repo, todo, recheck, by_subject, report, progress)
    _apply_reverts(store, project, repo, reverts, report)
    return report


def _scan(
    store: MemoryStore,
    project: str,
    repo: gitlog.Repository,
    revisions: Sequence[str],
    since: str | None,
    max_count: int | None,
    report: ImportReport,
    progress: Progress | None,
) -> tuple[list[str], set[str], dict[str, str]]:
    """Hashes of the commits to read (oldest first), of stored reverts to check again, and
    ``{revert hash: memory id}`` of what each ``Revert "<subject>"`` names by subject."""
    todo: list[str] = []
    recheck: set[str] = set()
    queued: set[str] = set()
    pending: list[tuple[str, gitlog.Header]] = []
    # hash(subject) -> the change id of the newest commit so far with that subject. The
    # str hash stays in the process; a collision (about 2**-64 a pair) would only point a
    # hashless revert at the wrong commit.
    latest: dict[int, str] = {}
    by_subject: dict[str, str] = {}

    def flush() -> None:
        stored = store.existing_ids(project, [memory_id for memory_id, _ in pending])
        for memory_id, header in pending:
            if memory_id in stored:
                report.present += 1
                if may_revert(header.subject):
                    recheck.add(header.hash)
            elif memory_id in queued:
                report.duplicates += 1
            else:
                queued.add(memory_id)
                todo.append(header.hash)
        pending.clear()
        if progress is not None:
            progress("scan", report.commits, None)

    for header in gitlog.scan(repo, revisions, since=since, max_count=max_count):
        report.commits += 1
        memory_id = change_id(header)
        named = reverted_subject(header.subject)
        if named is not None and hash(named) in latest:
            by_subject[header.hash] = latest[hash(named)]
        latest[hash(header.subject)] = memory_id
        pending.append((memory_id, header))
        if len(pending) >= LOOKUP:
            flush()
    flush()
    return todo, recheck, by_subject


def _read(
    store: MemoryStore,
    project: str,
    repo: gitlog.Repository,
    todo: list[str],
    recheck: set[str],
    by_subject: dict[str, str],
    report: ImportReport,
    progress: Progress | None,
) -> list[Revert]:
    """Add the memories of ``todo``; return every revert read (``recheck`` ones included)."""
    reverts: list[Revert] = []
    batch: list[Memory] = []
    done = 0

    def write() -> None:
        report.added += len(store.add_many(project, batch))
        batch.clear()
        if progress is not None:
            progress("import", done, len(todo))

    if progress is not None:
        progress("import", 0, len(todo))
    for commit in gitlog.read(repo, [*todo, *sorted(recheck)]):
        targets = reverted(commit.subject, commit.message)
        if commit.hash in recheck:
            if targets or commit.hash in by_subject:
                reverts.append(Revert(commit, change_id(commit), targets, by_subject))
            continue
        done += 1
        boundary = commit.hash in repo.shallow
        memory = to_memory(commit, project, boundary=boundary)
        if memory is None:
            report.empty += 1
            continue
        report.boundary += boundary
        if targets or commit.hash in by_subject:
            reverts.append(Revert(commit, memory.id, targets, by_subject))
        batch.append(memory)
        if len(batch) >= BATCH:
            write()
    write()
    return reverts


class Revert:
    """A revert read: its commit ``time`` (seconds), its memory ``id``, the ``names``
    (hashes as written) of the commits it says it reverts, and ``by_subject``: the
    memory id its ``Revert "<subject>"`` subject names, or None."""

    __slots__ = ("by_subject", "id", "names", "time")

    def __init__(
        self, commit: gitlog.Commit, memory_id: str, names: list[str], by_subject: dict[str, str]
    ) -> None:
        self.time = commit.commit_time
        self.id = memory_id
        self.names = names
        self.by_subject = by_subject.get(commit.hash)


def _apply_reverts(
    store: MemoryStore,
    project: str,
    repo: gitlog.Repository,
    reverts: list[Revert],
    report: ImportReport,
) -> None:
    """Mark what each revert names obsolete, superseded by the revert."""
    if not reverts:
        return
    named = [name for revert in reverts for name in revert.names]
    known = {header.hash: change_id(header) for header in gitlog.resolve(repo, named)}
    for revert in sorted(reverts, key=lambda revert: (revert.time, revert.id)):
        targets = [_known(known, name) for name in revert.names]
        if not any(targets):
            targets = [revert.by_subject]
        for target in targets:
            if target == revert.id:
                continue
            memory = None if target is None else store.get(target, project=project)
            if memory is None:
                report.unresolved += 1
            elif not memory.obsolete:
                store.mark_obsolete(memory.id, revert.id, project=project)
                report.obsoleted += 1


def _known(known: dict[str, str], name: str) -> str | None:
    return next((known[full] for full in known if full.startswith(name)), None)
