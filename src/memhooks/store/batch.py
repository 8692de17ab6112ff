"""Many memories with caller-chosen ids in one transaction: new ones
(``MemoryStore.add_many``), and what is stored of many (``MemoryStore.stored``,
``MemoryStore.update_fields``).

For importers that derive an id from where a memory came from (a commit, a line of a
file) and re-run: a memory whose id the project already holds is left as it is, so a
second run adds only what is new and changes nothing else.
"""

from __future__ import annotations

from . import rows
from .fields import CLEAN
from .memory import Memory

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterable

#: Ids looked up per statement (SQLite's default limit on bound variables is 999).
CHUNK = 500


def clean(project: str, memory: Memory) -> Memory:
    """A copy of ``memory`` in ``project`` with every field normalized by the one rule
    (:data:`memhooks.store.fields.CLEAN`); TypeError/ValueError naming the field."""
    if not isinstance(memory, Memory):
        raise TypeError(f"add_many takes Memory objects, got {type(memory).__name__}")
    values = {name: clean(getattr(memory, name)) for name, clean in CLEAN.items()}
    return Memory(project=project, **values)


def insert_new(conn: sqlite3.Connection, project: str, memories: list[Memory]) -> list[str]:
    """Insert the cleaned ``memories`` whose id ``project`` does not hold yet (in the
    caller's transaction); return the ids inserted, in order. A second memory with an
    id already inserted here is skipped like a stored one."""
    present = existing(conn, project, [memory.id for memory in memories])
    added: list[str] = []
    for memory in memories:
        if memory.id in present:
            continue
        rows.insert(conn, memory)
        present.add(memory.id)
        added.append(memory.id)
    return added


def existing(conn: sqlite3.Connection, project: str, ids: Iterable[str]) -> set[str]:
    """Which of ``ids`` are memories of ``project``."""
    wanted = list(dict.fromkeys(ids))
    found: set[str] = set()
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start : start + CHUNK]
        marks = ",".join("?" * len(chunk))
        found.update(
            row[0]
            for row in conn.execute(
                f"SELECT id FROM memories WHERE project = ? AND id IN ({marks})", (project, *chunk)
            )
        )
    return found


def stored(conn: sqlite3.Connection, project: str, ids: Iterable[str]) -> dict[str, Memory]:
    """The memories of ``project`` among ``ids``, by id (one statement per
    :data:`CHUNK` ids; obsolete ones included)."""
    wanted = list(dict.fromkeys(ids))
    found: dict[str, Memory] = {}
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start : start + CHUNK]
        marks = ",".join("?" * len(chunk))
        sql = f"SELECT {rows.COLUMNS} FROM memories m WHERE m.project = ? AND m.id IN ({marks})"
        for row in conn.execute(sql, (project, *chunk)):
            memory = rows.from_row(row)
            found[memory.id] = memory
    return found
