"""How a :class:`Memory` maps to a ``memories`` row, and the few statements that move one."""

from __future__ import annotations

from memhooks.errors import StoreError

from ..fast.jsonfast import dumps, loads
from .connection import DamagedRow
from .memory import Memory, new_id

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Sequence
    from typing import Any

#: Select list matching :func:`from_row` (prefix ``m.``: every query aliases the table).
COLUMNS = (
    "m.id, m.project, m.scope, m.files, m.text, m.kind, m.tags, m.entities, "
    "m.created_at, m.source, m.obsolete, m.superseded_by"
)


def from_row(row: Sequence[Any]) -> Memory:
    """A Memory from the first 12 columns of a row selected with :data:`COLUMNS`.

    Raises :class:`~memhooks.store.connection.DamagedRow` when a value is not what
    memhooks writes (the file was changed under it); ``Translated`` turns that into a
    StoreError naming the store.
    """
    memory_id = row[0]
    for index, field in _TEXT_FIELDS:
        if not isinstance(row[index], str):
            raise DamagedRow(memory_id, field)
    if row[5] is not None and not isinstance(row[5], str):
        raise DamagedRow(memory_id, "kind")
    if row[11] is not None and not isinstance(row[11], str):
        raise DamagedRow(memory_id, "superseded_by")
    return Memory(
        id=memory_id,
        project=row[1],
        scope=row[2],
        files=_strings(row[3], memory_id, "files"),
        text=row[4],
        kind=row[5],
        tags=_strings(row[6], memory_id, "tags"),
        entities=_strings(row[7], memory_id, "entities"),
        created_at=row[8],
        source=row[9],
        obsolete=bool(row[10]),
        superseded_by=row[11],
    )


_TEXT_FIELDS = (
    (0, "id"),
    (1, "project"),
    (2, "scope"),
    (4, "text"),
    (8, "created_at"),
    (9, "source"),
)


def _strings(value: object, memory_id: object, field: str) -> list[str]:
    """A JSON array of strings, as written by :func:`_params`."""
    try:
        found = loads(value) if isinstance(value, str) else None
    except ValueError:
        found = None
    if not isinstance(found, list) or not all(isinstance(item, str) for item in found):
        raise DamagedRow(memory_id, field)
    return found


def insert(conn: sqlite3.Connection, memory: Memory) -> int:
    """Insert a new row (the caller has checked that ``(project, id)`` is free); return
    its ``pk``."""
    cursor = conn.execute(
        "INSERT INTO memories (id, project, scope, files, text, kind, tags, entities,"
        " created_at, source, obsolete, superseded_by)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        _params(memory),
    )
    assert cursor.lastrowid is not None  # an INSERT that succeeded
    return cursor.lastrowid


def update(conn: sqlite3.Connection, memory: Memory) -> None:
    """Overwrite every field of the row with the same ``(project, id)``."""
    params = _params(memory)
    conn.execute(
        "UPDATE memories SET scope = ?, files = ?, text = ?, kind = ?, tags = ?, entities = ?,"
        " created_at = ?, source = ?, obsolete = ?, superseded_by = ?"
        " WHERE id = ? AND project = ?",
        params[2:] + params[:2],
    )


def find(conn: sqlite3.Connection, project: str, memory_id: str) -> Memory | None:
    """The memory ``memory_id`` of ``project``, or None."""
    row = conn.execute(
        f"SELECT {COLUMNS} FROM memories m WHERE m.project = ? AND m.id = ?",
        (project, memory_id),
    ).fetchone()
    return None if row is None else from_row(row)


def same_text(conn: sqlite3.Connection, project: str, scope: str, text: str) -> Memory | None:
    """The oldest live memory of ``project`` scoped exactly to ``scope`` whose text is
    ``text``, or None (``memories_scope`` narrows the scan to the folder's memories)."""
    row = conn.execute(
        f"SELECT {COLUMNS} FROM memories m WHERE m.project = ? AND m.scope = ?"
        " AND m.obsolete = 0 AND m.text = ? ORDER BY m.created_at, m.id LIMIT 1",
        (project, scope, text),
    ).fetchone()
    return None if row is None else from_row(row)


def lookup(conn: sqlite3.Connection, memory_id: str, project: str | None) -> Memory | None:
    """Like :func:`find`, but any project when ``project`` is None (StoreError if several)."""
    if project is not None:
        return find(conn, project, memory_id)
    found = conn.execute(
        f"SELECT {COLUMNS} FROM memories m WHERE m.id = ? LIMIT 2", (memory_id,)
    ).fetchall()
    if len(found) > 1:
        raise StoreError(
            f"memory id {memory_id!r} is used by more than one project; say which project"
        )
    return from_row(found[0]) if found else None


def fresh_id(conn: sqlite3.Connection, project: str, now: float) -> str:
    """A new id (see :func:`~memhooks.store.memory.new_id`) not yet used in ``project``."""
    memory_id = new_id(now)
    while find(conn, project, memory_id) is not None:  # 1 in 2**32 within a millisecond
        memory_id = new_id(now)
    return memory_id


def recent(
    conn: sqlite3.Connection,
    project: str,
    scope: str | None,
    limit: int | None,
    include_obsolete: bool,
) -> list[Memory]:
    """Memories of ``project`` (scoped exactly to ``scope`` if given), newest first."""
    sql = f"SELECT {COLUMNS} FROM memories m WHERE m.project = ?"
    params: list[object] = [project]
    if scope is not None:
        sql += " AND m.scope = ?"
        params.append(scope)
    if not include_obsolete:
        sql += " AND m.obsolete = 0"
    sql += " ORDER BY m.created_at DESC, m.id DESC LIMIT ?"
    params.append(-1 if limit is None else max(limit, 0))
    return [from_row(row) for row in conn.execute(sql, params)]


def dump_list(values: list[str]) -> str:
    # ensure_ascii=False: the FTS tokenizer reads this column, and "\u00e9" escapes
    # would index as the token "u00e9" instead of the word.
    return dumps(values, ensure_ascii=False)


def _params(memory: Memory) -> tuple[Any, ...]:
    return (
        memory.id,
        memory.project,
        memory.scope,
        dump_list(memory.files),
        memory.text,
        memory.kind,
        dump_list(memory.tags),
        dump_list(memory.entities),
        memory.created_at,
        memory.source,
        int(memory.obsolete),
        memory.superseded_by,
    )
