"""Superseding memories: the one machinery behind every "this memory is out of date".

A superseded memory stays in the store (``memhooks memories list --all`` shows it, an
export keeps it) but is *obsolete*: recall, search and listings leave it out unless asked
for obsolete memories. ``superseded_by`` names the memory that replaced it, in the same
project. Used by :meth:`memhooks.store.MemoryStore.mark_obsolete` (capture's newer checkpoint),
:func:`memhooks.store.commit_writes.mark_reverted` (a revert in ``history import`` supersedes the
commit it reverts) and :meth:`~memhooks.store.MemoryStore.remember` (``memhooks remember
TEXT --replaces ID``). Each function runs inside the caller's write transaction.
"""

from __future__ import annotations

from memhooks.errors import StoreError

from . import rows

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3

    from .memory import Memory


def mark(
    conn: sqlite3.Connection, project: str | None, memory_id: str, superseded_by: str | None
) -> Memory:
    """Mark ``memory_id`` (of ``project``; any project when None) obsolete, superseded by
    ``superseded_by`` when given; return it as stored. Raises StoreError when either id
    names no memory (the replacement must be in the same project) or the memory would
    supersede itself."""
    memory = rows.lookup(conn, memory_id, project)
    if memory is None:
        raise StoreError(f"there is no memory {memory_id!r}; list memories to find its id")
    if superseded_by is not None:
        if superseded_by == memory_id:
            raise StoreError(f"memory {memory_id!r} cannot supersede itself")
        if rows.find(conn, memory.project, superseded_by) is None:
            raise StoreError(
                f"there is no memory {superseded_by!r} in project {memory.project!r} "
                f"to supersede {memory_id!r}; record the replacement first"
            )
    memory.obsolete = True
    memory.superseded_by = superseded_by
    rows.update(conn, memory)
    return memory


def mark_live(conn: sqlite3.Connection, project: str, memory_id: str, superseded_by: str) -> bool:
    """Mark ``memory_id`` of ``project`` obsolete, superseded by ``superseded_by``, when it
    is live; return whether it was (a memory already obsolete keeps its first successor).
    The caller has checked that ``superseded_by`` is another memory of ``project``."""
    done = conn.execute(
        "UPDATE memories SET obsolete = 1, superseded_by = ?"
        " WHERE project = ? AND id = ? AND obsolete = 0",
        (superseded_by, project, memory_id),
    )
    return bool(done.rowcount)


def merge(kept: Memory, again: Memory) -> bool:
    """Fold what ``again`` (the same text, said again) adds into ``kept``: files, tags and
    entities not there yet, in order, and a ``kind`` when ``kept`` has none. Returns
    whether ``kept`` changed (and so needs writing)."""
    changed = False
    for field in ("files", "tags", "entities"):
        have: list[str] = getattr(kept, field)
        new = [value for value in getattr(again, field) if value not in have]
        if new:
            setattr(kept, field, have + new)
            changed = True
    if kept.kind is None and again.kind is not None:
        kept.kind = again.kind
        changed = True
    return changed
