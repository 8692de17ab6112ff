"""``import_history``: a repository's commits into the embedded store, once each.

1. **Walk** (:func:`.gitlog.walk`): every commit of the range, newest first, with git's
   rename detection. Merges are counted and skipped; for each other commit the paths it
   touched are kept, each with the path its file has now (:mod:`.lineage`). ``max_count``
   stops the walk after that many non-merge commits.
2. **Read** (:func:`.gitlog.read`) those commits oldest first, with their messages.
   :class:`.changes.Changes` gives each its memory id (a cherry-pick carries the memory
   of the change it repeats; a re-land gets its own) and reads what it reverts;
   :func:`.signal.low_signal` says whether it is low-signal. :data:`.batch.BATCH` at a time, a
   write transaction adds the memories the store lacks (only their messages become
   memory text: :func:`.mapping.to_memory`), rewrites those an older format wrote, and
   moves the files, scope and source of the others where a rename or a rebase changed
   them (:meth:`MemoryStore.store_changes`, which decides under the write lock: two
   imports at once each count what they wrote).
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

from ..store.commit_writes import CommitRow, Wanted
from ..store.commits import SOURCE_PREFIX
from ..store.memory import format_timestamp
from . import blame_ignore, gitlog
from .batch import BATCH, Batch
from .changes import Changes
from .lineage import Lineage
from .mapping import FORMAT, NO_PATHS, Paths, to_memory
from .report import ImportReport
from .signal import low_signal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Generator, Sequence

    from ..store import Memory, MemoryStore

    #: ``progress(stage, done, total)``: stage ``"scan"`` (total None: not known yet) or
    #: ``"import"`` (done and total in commits).
    Progress = Callable[[str, int, "int | None"], None]


def import_history(
    store: MemoryStore,
    project: str,
    repo: gitlog.Checkout,
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
    order, paths = _walk(store, project, repo, revisions, since, max_count, report, progress)
    changes = Changes(order)
    batch = Batch(store, project, report, dry_run)
    batch.settled = paths is None
    ignored = blame_ignore.revs(repo.top)
    if progress is not None:
        progress("import", 0, len(order))
    for done, commit in enumerate(gitlog.read(repo, order), 1):
        if commit.hash == order[done - 1]:
            commit.hash = order[done - 1]  # one string per hash held, not two
        memory_id, first = changes.identify(commit)
        if not first:
            report.duplicates += 1
            batch.add(Wanted(memory_id, commit.hash, row=_row(commit, ignored), format=FORMAT))
        else:
            changes.note(commit, memory_id)
            where = None if paths is None else paths.get(commit.hash, NO_PATHS)
            batch.add(_wanted(commit, memory_id, where, project, ignored))
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


def memory_ids(repo: gitlog.Checkout, revisions: Sequence[str] = ()) -> dict[str, str]:
    """``{commit hash: memory id}`` for every non-merge commit of ``revisions`` (default
    ``HEAD``), as :func:`import_history` names their memories (a cherry-pick maps to the
    memory of the change it repeats). Raises DiagnosticError MH032 when git fails."""
    order = [w.hash for w in gitlog.walk(repo, revisions, changes=False) if w.parents < 2]
    order.reverse()
    changes = Changes(order)
    ids: dict[str, str] = {}
    for commit in gitlog.read(repo, order):
        ids[commit.hash], first = changes.identify(commit)
        if first:
            changes.note(commit, ids[commit.hash])
    return ids


def _walk(
    store: MemoryStore,
    project: str,
    repo: gitlog.Checkout,
    revisions: Sequence[str],
    since: str | None,
    max_count: int | None,
    report: ImportReport,
    progress: Progress | None,
) -> tuple[list[str], dict[str, Paths] | None]:
    """The non-merge commits of the range, oldest first, and the paths of each — or None
    when the store holds every one of them already, in this format: then no tree is
    compared (a re-run with nothing new; on 50,000 commits the comparing is most of the
    walk). A commit with an empty message has no memory, so a range holding one is
    always walked with its paths."""
    plain = _non_merges(repo, revisions, since, max_count, report, False)
    newest = next(plain, None)
    order = [] if newest is None else [newest.hash]
    known = newest is not None and store.imported_commits(project, order, FORMAT) == set(order)
    if known:  # the newest commit was imported: perhaps all were
        order += (walked.hash for walked in plain)
        known = store.imported_commits(project, order, FORMAT) >= set(order)
    plain.close()  # stops git when the newest commit is new
    paths: dict[str, Paths] | None = None
    if not known:
        paths, order, lineage = {}, [], Lineage()
        for walked in _non_merges(repo, revisions, since, max_count, report, True):
            order.append(walked.hash)  # newest first: renames are followed forward
            if walked.hash not in repo.shallow:  # an edge of a shallow clone adds its tree
                paths[walked.hash] = Paths(lineage.files(walked.changes))
                lineage.step(walked.changes)
            if progress is not None and len(order) % BATCH == 0:
                progress("scan", len(order), None)
    order.reverse()
    report.boundary = sum(1 for commit in order if commit in repo.shallow)
    report.commits = len(order)
    if progress is not None:
        progress("scan", len(order), None)
    return order, paths


def _non_merges(
    repo: gitlog.Checkout,
    revisions: Sequence[str],
    since: str | None,
    max_count: int | None,
    report: ImportReport,
    changes: bool,
) -> Generator[gitlog.Walked, None, None]:
    """The non-merge commits of the range, newest first (at most ``max_count``), with
    their ``changes`` or not; the merges met are counted in ``report``."""
    report.merges = count = 0
    for walked in gitlog.walk(repo, revisions, since=since, changes=changes):
        if walked.parents > 1:
            report.merges += 1
            continue
        yield walked
        count += 1
        if max_count is not None and count >= max_count:
            return


def _row(commit: gitlog.Commit, ignored: frozenset[str]) -> Callable[[], CommitRow]:
    """What the store keeps of ``commit`` beside its memory, made when first asked for (a
    re-run asks for the rows of new commits only)."""
    made: list[CommitRow] = []

    def row() -> CommitRow:
        if not made:
            body = commit.message.strip().partition("\n\n")[2]
            reason = low_signal(
                commit.subject,
                body,
                author=commit.author,
                email=commit.author_email,
                blame_ignored=bool(ignored) and blame_ignore.listed(commit.hash, ignored),
            )
            authored = format_timestamp(int(commit.author_time))
            made.append(CommitRow(commit.hash, commit.author, authored, reason))
        return made[0]

    return row


def _wanted(
    commit: gitlog.Commit,
    memory_id: str,
    paths: Paths | None,
    project: str,
    ignored: frozenset[str],
) -> Wanted:
    """``commit`` as :meth:`MemoryStore.store_changes` takes it; ``paths`` None: not read
    (the store holds the commit already: its place is kept)."""
    made: list[Memory | None] = []

    def build() -> Memory | None:
        if not made:
            made.append(to_memory(commit, project, memory_id, paths or NO_PATHS))
        return made[0]

    return Wanted(
        memory_id,
        commit.hash,
        row=_row(commit, ignored),
        # Without its paths a memory written now (forgotten since the walk) is marked of
        # no format, so that the next import rewrites it with them.
        format=FORMAT if paths is not None else 0,
        scope=paths.scope if paths else "",
        files=None if paths is None else list(paths.files),
        source=SOURCE_PREFIX + commit.hash,
        build=build,
    )
