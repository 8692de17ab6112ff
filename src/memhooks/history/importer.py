"""``import_history``: a repository's commits into the embedded store, once each.

1. **Walk** (:func:`.gitlog.walk`): every commit of the range, newest first, with git's
   rename detection. Merges are counted and skipped; for each other commit the paths it
   touched are kept, each with the path its file has now (:mod:`.lineage`). ``max_count``
   stops the walk after that many non-merge commits.
2. **Read** (:func:`.gitlog.read`) those commits oldest first, with their messages.
   :class:`.changes.Changes` gives each its memory id (a cherry-pick carries the memory
   of the change it repeats; a re-land gets its own) and reads what it reverts;
   :func:`.signal.low_signal` says whether it is low-signal. :data:`BATCH` at a time, a
   cheap read of the store says which memories it lacks or holds in an older format —
   only their messages become memory text (:func:`.mapping.to_memory`) — then one write
   transaction adds those, rewrites the old ones, and moves the files, scope and source of
   the others where a rename or a rebase changed them
   (:meth:`MemoryStore.store_changes`, which decides under the write lock: two imports
   at once each count what they wrote).
3. **Reverts**: every revert read marks what it names obsolete, superseded by the
   revert, oldest first, in one write transaction (:meth:`MemoryStore.mark_reverted`); a
   memory already obsolete keeps its mark, so recall leaves the reverted approach out
   unless asked for obsolete memories, and a revert of a revert makes the first revert
   obsolete (the reapplying commit is the live memory).

**Crash-safe as a whole.** Every batch is one transaction, and every decision is made
from the history and from what the store holds — never from what an earlier run did or
meant to do. A re-run after an import killed at any point reads the whole range again and
ends with exactly what an uninterrupted import writes, revert marks included (they are
made from the messages each run reads, once every memory is stored).
"""

from __future__ import annotations

import os

from ..store.commits import SOURCE_PREFIX, CommitRow, Stored, Wanted
from ..store.memory import format_timestamp
from . import gitlog
from .changes import Changes
from .lineage import Lineage
from .mapping import FORMAT, NO_PATHS, Paths, to_memory
from .signal import low_signal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ..store import Memory, MemoryStore

    #: ``progress(stage, done, total)``: stage ``"scan"`` (total None: not known yet) or
    #: ``"import"`` (done and total in commits).
    Progress = Callable[[str, int, "int | None"], None]

#: Commits written per transaction.
BATCH = 500
#: Test hook: stop the process (``os._exit(9)``, as a kill -9 would) after this many
#: batches were written (``MEMHOOKS_TEST_KILL_AFTER_BATCHES``; unset in normal use).
KILL_AFTER = "MEMHOOKS_TEST_KILL_AFTER_BATCHES"


class ImportReport:
    """What an import did, in commits: ``commits`` (non-merge commits in the range),
    ``merges`` (merge commits skipped), ``added`` (new memories), ``updated`` (memories
    rewritten from an older import, or whose files, scope or commit moved: a rename, a
    rebase), ``present`` (stored already, unchanged), ``duplicates`` (the same change met
    twice in the range, e.g. cherry-picked: one memory), ``empty`` (no message once
    trailers are dropped: not stored) — ``added + updated + present + duplicates +
    empty == commits`` — then ``low_signal`` (memories of the range made of low-signal
    commits: stored and searchable, never delivered at tool time), ``obsoleted`` (earlier
    memories a revert marked obsolete), ``unresolved`` (reverted commits that are not in
    the store: merges, or outside what was imported), ``boundary`` (commits at a shallow
    clone's edge, imported without files), ``dry_run`` (nothing written: the counts say
    what an import would do)."""

    __slots__ = (
        "added",
        "boundary",
        "commits",
        "dry_run",
        "duplicates",
        "empty",
        "low_signal",
        "merges",
        "obsoleted",
        "present",
        "unresolved",
        "updated",
    )

    def __init__(self, *, dry_run: bool = False) -> None:
        self.commits = self.merges = self.added = self.updated = self.present = 0
        self.duplicates = self.empty = self.low_signal = 0
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
    writes nothing. Raises DiagnosticError MH032 when git fails, StoreError when the
    store does."""
    report = ImportReport(dry_run=dry_run)
    order, paths = _walk(repo, revisions, since, max_count, report, progress)
    changes = Changes()
    batch = _Batch(store, project, report, dry_run)
    ignored = _blame_ignored(repo)
    if progress is not None:
        progress("import", 0, len(order))
    for done, commit in enumerate(gitlog.read(repo, order), 1):
        memory_id, first = changes.identify(commit)
        if not first:
            report.duplicates += 1
            batch.add(Wanted(memory_id, rows=[_row(commit, ignored)], format=FORMAT))
        else:
            changes.note(commit, memory_id)
            batch.add(
                _wanted(commit, memory_id, paths.get(commit.hash, NO_PATHS), project, ignored)
            )
        if len(batch) >= BATCH:
            batch.flush()
            if progress is not None:
                progress("import", done, len(order))
    batch.flush()
    if progress is not None:
        progress("import", len(order), len(order))
    marks = changes.marks(lambda names: gitlog.resolve(repo, names))
    if dry_run:
        return report
    made, report.unresolved = store.mark_reverted(project, marks)
    report.obsoleted = len(made)
    return report


def memory_ids(repo: gitlog.Repository, revisions: Sequence[str] = ()) -> dict[str, str]:
    """``{commit hash: memory id}`` for every non-merge commit of ``revisions`` (default
    ``HEAD``), as :func:`import_history` names their memories (a cherry-pick maps to the
    memory of the change it repeats). Raises DiagnosticError MH032 when git fails."""
    order = [w.hash for w in gitlog.walk(repo, revisions) if w.parents < 2]
    order.reverse()
    changes = Changes()
    ids: dict[str, str] = {}
    for commit in gitlog.read(repo, order):
        ids[commit.hash], first = changes.identify(commit)
        if first:
            changes.note(commit, ids[commit.hash])
    return ids


def _walk(
    repo: gitlog.Repository,
    revisions: Sequence[str],
    since: str | None,
    max_count: int | None,
    report: ImportReport,
    progress: Progress | None,
) -> tuple[list[str], dict[str, Paths]]:
    """The non-merge commits of the range, oldest first, and the paths of each."""
    lineage = Lineage()
    order: list[str] = []
    paths: dict[str, Paths] = {}
    for walked in gitlog.walk(repo, revisions, since=since):
        if walked.parents > 1:
            report.merges += 1
            continue
        order.append(walked.hash)
        if walked.hash in repo.shallow:
            # git shows a shallow clone's edge adding its whole tree: its files are unknown
            report.boundary += 1
        else:
            paths[walked.hash] = Paths(lineage.files(walked.changes))
            lineage.step(walked.changes)
        if progress is not None and len(order) % BATCH == 0:
            progress("scan", len(order), None)
        if max_count is not None and len(order) >= max_count:
            break
    if progress is not None:
        progress("scan", len(order), None)
    order.reverse()
    report.commits = len(order)
    return order, paths


def _row(commit: gitlog.Commit, ignored: frozenset[str]) -> CommitRow:
    body = commit.message.strip().partition("\n\n")[2]
    reason = low_signal(
        commit.subject,
        body,
        author=commit.author,
        email=commit.author_email,
        blame_ignored=bool(ignored) and _listed(commit.hash, ignored),
    )
    authored = format_timestamp(int(commit.author_time))
    return CommitRow(commit.hash, commit.author, authored, reason)


def _wanted(
    commit: gitlog.Commit, memory_id: str, paths: Paths, project: str, ignored: frozenset[str]
) -> Wanted:
    made: list[Memory | None] = []

    def build() -> Memory | None:
        if not made:
            made.append(to_memory(commit, project, memory_id, paths))
        return made[0]

    return Wanted(
        memory_id,
        scope=paths.scope,
        files=paths.files,
        source=SOURCE_PREFIX + commit.hash,
        rows=[_row(commit, ignored)],
        format=FORMAT,
        build=build,
    )


class _Batch:
    """Commits waiting to be written: a cheap read first, messages turned into text only
    for the memories to write, then one transaction (nothing written on a dry run)."""

    def __init__(
        self, store: MemoryStore, project: str, report: ImportReport, dry_run: bool
    ) -> None:
        self.store = store
        self.project = project
        self.report = report
        self.dry_run = dry_run
        self.wanted: list[Wanted] = []
        self.flushed = 0

    def __len__(self) -> int:
        return len(self.wanted)

    def add(self, wanted: Wanted) -> None:
        self.wanted.append(wanted)

    def flush(self) -> None:
        if not self.wanted:
            return
        first = [w for w in self.wanted if w.build is not None]
        have = self.store.stored_changes(self.project, [w.id for w in first])
        for want in first:
            stored = have.get(want.id)
            if want.build is not None and (stored is None or stored.format < want.format):
                want.build()  # outside the write lock; apply() reuses it
        if self.dry_run:
            outcome = {w.id: _would(w, have.get(w.id)) for w in first}
        else:
            outcome = self.store.store_changes(self.project, self.wanted)
        report = self.report
        for want in first:
            setattr(report, outcome[want.id], getattr(report, outcome[want.id]) + 1)
            if outcome[want.id] != "empty" and any(row.low_signal for row in want.rows):
                report.low_signal += 1
        self.wanted = []
        self.flushed += 1
        _fault_point(self.flushed)


def _would(want: Wanted, stored: Stored | None) -> str:
    """What :func:`memhooks.store.commits.apply` would do with ``want`` (a dry run)."""
    assert want.build is not None
    if stored is None:
        return "added" if want.build() is not None else "empty"
    if stored.format < want.format:
        return "updated"
    same = (stored.scope, stored.files, stored.source) == (want.scope, want.files, want.source)
    return "present" if same else "updated"


def _fault_point(batches: int) -> None:
    """Die as a kill -9 would once ``batches`` batches are written, when the test
    variable :data:`KILL_AFTER` asks for it (the crash-safety tests)."""
    wanted = os.environ.get(KILL_AFTER)
    if wanted and wanted.isdigit() and batches >= int(wanted):
        os._exit(9)


def _blame_ignored(repo: gitlog.Repository) -> frozenset[str]:
    """Commit names the project's ``.git-blame-ignore-revs`` lists (git-blame(1)
    ``--ignore-revs-file``: formatting commits blame should look through). Read from the
    work tree's top folder, and only when the file really is inside it."""
    path = os.path.join(repo.top, ".git-blame-ignore-revs")
    real = os.path.realpath(path)
    if os.path.dirname(real) != os.path.realpath(repo.top) or not os.path.isfile(real):
        return frozenset()
    try:
        with open(real, encoding="utf-8", errors="replace") as fp:
            lines = [
                line.split("#", 1)[0].strip().lower() for line in fp.read(1 << 20).splitlines()
            ]
    except OSError:
        return frozenset()
    return frozenset(line for line in lines if len(line) >= 7 and _is_hex(line))


def _listed(commit: str, ignored: frozenset[str]) -> bool:
    return commit in ignored or any(commit.startswith(name) for name in ignored)


def _is_hex(text: str) -> bool:
    return all(ch in "0123456789abcdef" for ch in text)
