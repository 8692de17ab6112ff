"""Getting the memories out of a damaged store file (``memories export --salvage``).

A page overwritten on disk breaks every statement that reads it: a plain export scans
the whole table and fails at the first bad page, while a search that happens to touch
only good pages still answers. Salvage reads the way search does, one row at a time:

1. collect row ids from every structure that holds them — the table itself (until its
   scan fails), each index on it, the file index, the full-text index's per-row sizes,
   the vectors — each read on its own, so one broken structure does not hide the others;
2. read each row by id; a row on a bad page, or with a value memhooks never writes, is
   counted, not fatal.

The file is opened read-only: nothing is migrated, repaired or written.
"""

from __future__ import annotations

import sqlite3
from urllib.parse import quote

from . import jsonl, rows
from .connection import DamagedRow, to_store_error

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection
    from typing import IO

    from .memory import Memory

# Each statement yields row ids of ``memories``; index scans never touch the table.
_ROW_IDS = (
    "SELECT pk FROM memories",
    "SELECT pk FROM memories INDEXED BY memories_id",
    "SELECT pk FROM memories INDEXED BY memories_recent",
    "SELECT pk FROM memories INDEXED BY memories_scope",
    "SELECT memory FROM memory_files",
    "SELECT id FROM memories_fts_docsize",
    "SELECT memory FROM memory_vectors",
)


class Salvaged:
    """``written`` (memories of the projects written out), ``unreadable`` (rows found
    by id that could not be read, of any project: their project is unknown)."""

    __slots__ = ("unreadable", "written")

    def __init__(self, written: int, unreadable: int) -> None:
        self.written = written
        self.unreadable = unreadable


def salvage(path: str, projects: Collection[str], fp: IO[str]) -> Salvaged:
    """Write every readable memory of ``projects`` in the store file at ``path`` to ``fp``
    as export lines (:func:`memhooks.store.jsonl.line`), oldest first.

    Raises :class:`~memhooks.errors.StoreError` when the file cannot be opened or its schema cannot be read (then
    nothing can be told apart); damage anywhere else only costs the rows on it.
    """
    try:
        conn = sqlite3.connect(f"file:{quote(path)}?mode=ro", uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        raise to_store_error(path, exc) from exc
    try:
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error as exc:
            raise to_store_error(path, exc) from exc
        found: list[Memory] = []
        unreadable = 0
        for pk in sorted(_row_ids(conn)):
            readable, memory = _read(conn, pk)
            if not readable:
                unreadable += 1
            elif memory is not None and memory.project in projects:
                found.append(memory)
    finally:
        conn.close()
    found.sort(key=lambda m: (m.created_at, m.id))
    for memory in found:
        fp.write(jsonl.line(memory))
    return Salvaged(len(found), unreadable)


def _row_ids(conn: sqlite3.Connection) -> set[int]:
    ids: set[int] = set()
    for sql in _ROW_IDS:
        try:
            for (pk,) in conn.execute(sql):
                if isinstance(pk, int):
                    ids.add(pk)
        except (sqlite3.Error, UnicodeDecodeError):
            continue  # what was read before the bad page is kept
    return ids


def _read(conn: sqlite3.Connection, pk: int) -> tuple[bool, Memory | None]:
    """(readable, the memory in row ``pk`` or None when no row has that id: a stale
    index entry)."""
    try:
        row = conn.execute(
            f"SELECT {rows.COLUMNS} FROM memories m WHERE m.pk = ?", (pk,)
        ).fetchone()
        return True, None if row is None else rows.from_row(row)
    except (sqlite3.Error, UnicodeDecodeError, DamagedRow):
        return False, None
