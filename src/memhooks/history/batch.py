"""A history import's writes: commits gathered and written :data:`BATCH` per transaction.

Each batch is one write transaction of :meth:`memhooks.store.MemoryStore.store_changes`
(which decides under the write lock what to add, rewrite or move); a dry run only reads
what the store holds. :func:`fault_point` is the crash-safety tests' kill switch.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..store import MemoryStore
    from ..store.commit_writes import Stored, Wanted
    from .report import ImportReport

#: Commits written per transaction.
BATCH = 500
#: Test hook: stop the process (``os._exit(9)``, as a kill -9 would) after this many
#: batches were written (``MEMHOOKS_TEST_KILL_AFTER_BATCHES``; unset in normal use).
KILL_AFTER = "MEMHOOKS_TEST_KILL_AFTER_BATCHES"


class Batch:
    """Commits waiting to be written, :data:`BATCH` per write transaction (a dry run only
    reads what the store holds of them)."""

    def __init__(
        self, store: MemoryStore, project: str, report: ImportReport, dry_run: bool
    ) -> None:
        self.store = store
        self.project = project
        self.report = report
        self.dry_run = dry_run
        #: Every commit is stored already, in this format (the walk said so): a read
        #: confirms it, and nothing is written unless the store changed since.
        self.settled = False
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
        if self.dry_run or self.settled:
            have = self.store.stored_changes(self.project, [w.id for w in first])
            outcome = {w.id: would(w, have.get(w.id)) for w in first}
            if not self.dry_run and any(done != "present" for done, _ in outcome.values()):
                outcome = self.store.store_changes(self.project, self.wanted)  # changed since
        else:
            # Decided and written under the write lock; messages become memory text only
            # for what the store lacks.
            outcome = self.store.store_changes(self.project, self.wanted)
        report = self.report
        for done, low in outcome.values():
            setattr(report, done, getattr(report, done) + 1)
            report.low_signal += done != "empty" and low
        self.wanted = []
        self.flushed += 1
        fault_point(self.flushed)


def would(want: Wanted, stored: Stored | None) -> tuple[str, bool]:
    """What :func:`memhooks.store.commit_writes.apply` would do with ``want`` (a dry run)."""
    assert want.build is not None
    if stored is None:
        if want.build() is None:
            return "empty", False
        return "added", want.row().low_signal is not None
    if stored.format < want.format or not stored.same_place(want):
        return "updated", want.row().low_signal is not None
    return "present", stored.low


def fault_point(batches: int) -> None:
    """Die as a kill -9 would once ``batches`` batches are written, when the test
    variable :data:`KILL_AFTER` asks for it (the crash-safety tests)."""
    wanted = os.environ.get(KILL_AFTER)
    if wanted and wanted.isdigit() and batches >= int(wanted):
        os._exit(9)
