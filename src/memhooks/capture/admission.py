"""Admitting what capture proposes: the store's capture tables brought up to date, each
candidate scrubbed, filtered (:mod:`.filters`) and marked (:mod:`.marks`), then written
as a memory that retires the older records of its session it supersedes. Shared by the
hook path (:mod:`.observer`) and ``memhooks capture process`` (:mod:`.upkeep`)."""

from __future__ import annotations

from ..scrubber import clean
from ..session import capture_record
from ..store.memory import format_timestamp, new_id
from . import marks, similar
from .filters import verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3

    from ..store import MemoryStore
    from .candidate import Candidate
    from .filters import Policy

#: Tag on every captured memory (``memhooks memories search --tag``…).
TAG = "captured"


def upgrade(conn: sqlite3.Connection, ledger: sqlite3.Connection) -> None:
    """Inside both writes: the store's capture tables at :data:`.marks.VERSION`, the
    per-session rows an older layout kept in the store taken over by the state file."""
    if not marks.ready(conn):
        capture_record.adopt(ledger, *marks.upgrade(conn))


def admit(
    conn: sqlite3.Connection,
    ledger: sqlite3.Connection,
    project: str,
    candidate: Candidate,
    now: float,
    policy: Policy,
) -> tuple[str | None, str, list[str]]:
    """Scrub, filter and mark one candidate (``conn``: the store's, ``ledger``: the state
    file's, each inside its write): ``(reason dropped or None, new memory id, ids of the
    older records of the same session it supersedes)``."""

    candidate.text = clean(candidate.text)
    candidate.key = clean(candidate.key)
    sketch = similar.sketch(candidate.key)
    digest = similar.digest(candidate.key)
    reason = verdict(conn, project, candidate, sketch, digest, now, policy)
    if reason is not None:
        return reason, "", []
    memory_id = new_id(now)
    marks.add_mark(conn, project, candidate.scope, candidate.kind, now, digest, sketch, memory_id)
    older: list[str] = []
    if candidate.of is not None:
        older = candidate.of.items("records")
        candidate.of.data["records"] = [memory_id]
        candidate.of.save(ledger)
    return None, memory_id, older


def write_memory(
    store: MemoryStore,
    project: str,
    memory_id: str,
    candidate: Candidate,
    older: list[str],
    host: str,
    session: str | None,
    now: float,
) -> None:
    """Add the memory and retire the records it supersedes, in one transaction."""

    store.add(
        project,
        candidate.text,
        scope=candidate.scope,
        files=candidate.files,
        kind=candidate.kind,
        tags=[TAG],
        source=source(candidate.host or host, candidate.session or session),
        created_at=format_timestamp(now),
        id=memory_id,
        supersedes=older,  # one the user forgot meanwhile: nothing to retire
    )


def source(host: str, session: str | None) -> str:
    """A captured memory's ``source``: ``capture:<host>:<session>`` (``-`` for none)."""
    return f"capture:{host}:{session or '-'}"
