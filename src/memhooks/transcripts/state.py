"""What was imported from which transcript: one small table in the store file.

``transcript_files`` has one row per (project, transcript file): the file's size and
modification time when it was last read (an unchanged file is not read again) and the
ids of every piece ever imported from it (a piece the user forgot is not brought back
when its session grows). Like capture's tables (:mod:`memhooks.capture.marks`) it is
working state with its own layout version, not a store migration: a memhooks that finds
another layout drops and recreates it, and the next import reads every transcript
again (adding nothing twice: piece ids are stable; only forgotten pieces could return).
"""

from __future__ import annotations

import json
import sqlite3

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

VERSION = 1
_DDL = (
    "CREATE TABLE transcript_meta (version INTEGER NOT NULL)",
    f"INSERT INTO transcript_meta (version) VALUES ({VERSION})",
    """CREATE TABLE transcript_files (
        project TEXT NOT NULL,
        path TEXT NOT NULL,
        size INTEGER NOT NULL,
        mtime_ns INTEGER NOT NULL,
        host TEXT NOT NULL,
        session TEXT NOT NULL,
        pieces TEXT NOT NULL,
        PRIMARY KEY (project, path)
    )""",
)


class Seen:
    """A transcript file as last imported: ``size``, ``mtime_ns`` and ``pieces`` (ids)."""

    __slots__ = ("mtime_ns", "pieces", "size")

    def __init__(self, size: int, mtime_ns: int, pieces: list[str]) -> None:
        self.size = size
        self.mtime_ns = mtime_ns
        self.pieces = pieces


def ready(conn: sqlite3.Connection) -> bool:
    """Whether the tables exist at :data:`VERSION`."""
    try:
        row = conn.execute("SELECT version FROM transcript_meta").fetchone()
    except sqlite3.OperationalError:
        return False
    return row is not None and row[0] == VERSION


def create(conn: sqlite3.Connection) -> None:
    """Inside a write transaction: (re)create the tables unless another process just did."""
    if ready(conn):
        return
    for table in ("transcript_meta", "transcript_files"):
        conn.execute(f"DROP TABLE IF EXISTS {table}")
    for statement in _DDL:
        conn.execute(statement)


def seen(conn: sqlite3.Connection, project: str) -> dict[str, Seen]:
    """Every file imported for ``project``: path -> :class:`Seen` (empty before the tables exist)."""
    if not ready(conn):
        return {}
    rows = conn.execute(
        "SELECT path, size, mtime_ns, pieces FROM transcript_files WHERE project = ?", (project,)
    )
    return {path: Seen(size, mtime, json.loads(pieces)) for path, size, mtime, pieces in rows}


def record(
    conn: sqlite3.Connection,
    project: str,
    path: str,
    stat: tuple[int, int],
    host: str,
    session: str,
    pieces: Iterable[str],
) -> None:
    """Inside a write transaction: remember ``path`` as imported with ``pieces``."""
    conn.execute(
        "INSERT OR REPLACE INTO transcript_files VALUES (?, ?, ?, ?, ?, ?, ?)",
        (project, path, stat[0], stat[1], host, session, json.dumps(sorted(set(pieces)))),
    )
