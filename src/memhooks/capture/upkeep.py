"""``memhooks capture process``: the work too heavy for a hook, run only when asked.

1. **Idle sessions**: sessions without an end that have been quiet for
   :data:`~.detectors.sessions.IDLE_S` get their session record (same filters as the
   hook path).
2. **Duplicate sweep**: each live captured memory of the last :data:`SWEEP_DAYS` days is
   compared with the project's memories that full-text search finds for its text —
   including ones people recorded by hand, which the hook path never reads — by the
   exact similarity of :mod:`.similar`; above the threshold the newer one is marked obsolete,
   superseded by the older (recall leaves it out; nothing is deleted).
3. **Pruning**: marks older than :data:`MARKS_DAYS` days and sessions' capture records
   and failures untouched for :data:`STATE_DAYS` days are deleted.

The sessions' records are the state file's (:mod:`memhooks.session.capture_record`):
``state_file`` (default :func:`memhooks.session.location.state_path`).
"""

from __future__ import annotations

import os
import time

from ..backends.embedded import refresh
from ..session import State, capture_record
from ..session.location import state_path
from ..store import MemoryStore, default_path
from ..store.connection import BUSY_TIMEOUT, Translated, connect, write
from ..store.memory import format_timestamp
from . import marks
from .admission import TAG, admit, upgrade, write_memory
from .detectors.sessions import IDLE_S, close
from .filters import DEFAULT
from .similar import jaccard

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3

    from ..store import Memory
    from .candidate import Candidate
    from .filters import Policy

SWEEP_DAYS = 30
MARKS_DAYS = 90
STATE_DAYS = 7
DAY = 86400.0


def process(
    store_path: str | None = None,
    *,
    now: float | None = None,
    policy: Policy | None = None,
    timeout_s: float | None = None,
    state_file: str | None = None,
) -> dict[str, int]:
    """Run the three steps over every project in the store; return counts:
    ``sessions`` recorded, ``memories`` written, ``superseded`` duplicates,
    ``pruned_marks``, ``pruned_sessions``, ``pruned_failures``.

    A store that does not exist is left uncreated (all counts 0). Raises StoreError.
    """

    counts = dict.fromkeys(
        (
            "sessions",
            "memories",
            "superseded",
            "pruned_marks",
            "pruned_sessions",
            "pruned_failures",
        ),
        0,
    )
    path = default_path() if store_path is None else store_path
    if path != ":memory:" and not os.path.isfile(path):
        return counts
    now = time.time() if now is None else now
    policy = policy or DEFAULT
    timeout = BUSY_TIMEOUT if timeout_s is None else timeout_s
    with MemoryStore(path, create=False, timeout=timeout, clock=lambda: now) as store:
        conn = connect(store.path, create=False, timeout=timeout)
        state = None
        try:
            with Translated(store.path):
                if not marks.present(conn):
                    return counts  # capture never wrote this store
            state = State(state_path() if state_file is None else state_file)
            kept = state.write(
                lambda ledger: write(
                    conn, store.path, timeout, lambda c: _idle(c, ledger, now, policy, counts)
                )
            )
            for memory_id, project, candidate, older in kept:
                write_memory(store, project, memory_id, candidate, older, "unknown", None, now)
                counts["memories"] += 1
            projects = [r[0] for r in conn.execute("SELECT DISTINCT project FROM capture_marks")]
            for project in projects:
                counts["superseded"] += sweep(store, project, now, policy.threshold)
            counts["pruned_marks"] = write(
                conn, store.path, timeout, lambda c: marks.prune(c, now - MARKS_DAYS * DAY)
            )
            pruned = state.write(
                lambda ledger: capture_record.prune(ledger, now - STATE_DAYS * DAY)
            )
        finally:
            conn.close()
            if state is not None:
                state.close()
    for name, value in pruned.items():
        counts[f"pruned_{name}"] = value
    if counts["memories"] or counts["superseded"]:
        refresh(path)
    return counts


def _idle(
    conn: sqlite3.Connection,
    ledger: sqlite3.Connection,
    now: float,
    policy: Policy,
    counts: dict[str, int],
) -> list[tuple[str, str, Candidate, list[str]]]:

    counts["sessions"] = 0
    upgrade(conn, ledger)
    kept = []
    for session in capture_record.idle(ledger, now - IDLE_S, limit=10_000):
        candidate = close(ledger, session, now, "idle")
        session.save(ledger)
        counts["sessions"] += 1
        if candidate is None:
            continue
        reason, memory_id, older = admit(conn, ledger, session.project, candidate, now, policy)
        if reason is None:
            kept.append((memory_id, session.project, candidate, older))
    return kept


def sweep(store: MemoryStore, project: str, now: float, threshold: float) -> int:
    """Mark near-duplicate captured memories of ``project`` obsolete; return how many."""

    since = format_timestamp(now - SWEEP_DAYS * DAY)
    captured = [
        m for m in store.list(project, limit=None) if TAG in m.tags and m.created_at >= since
    ]
    done = 0
    gone: set[str] = set()
    for memory in captured:
        if memory.id in gone:
            continue
        for other, _ in store.search(project, memory.text, limit=6):
            if other.id == memory.id or other.id in gone or not _older(other, memory):
                continue
            if jaccard(memory.text, other.text) > threshold:
                store.mark_obsolete(memory.id, other.id, project=project)
                gone.add(memory.id)
                done += 1
                break
    return done


def _older(a: Memory, b: Memory) -> bool:
    return (a.created_at, a.id) < (b.created_at, b.id)
