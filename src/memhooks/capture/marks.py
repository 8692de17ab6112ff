"""Capture's marks: one row per captured memory in the store file, so every filter that
needs the past (cooldown, duplicates) reads it from SQLite — each hook call is a new
process.

- ``capture_meta``: one row, the layout :data:`VERSION` of these tables;
- ``capture_marks``: one row per captured memory — project, scope (folder), kind,
  time, exact digest and similarity sketch (:mod:`.similar`) and the memory id. Cooldown
  and de-duplication read it; a memory later forgotten keeps its mark, so capture does
  not bring back what the user deleted.

What a session reported so far (prompts, files, fixes, failed commands) is not here: it
is the session's, in the state file (:mod:`memhooks.session.capture_record`). Layout 1
kept it here too (``capture_sessions``, ``capture_failures``); :func:`upgrade` hands
those rows over once and drops the tables.

Why not a migration in :mod:`memhooks.store.schema`: this is disposable working state,
not memories. It has its own version; a memhooks that finds a version it does not know
drops and recreates these tables (losing only pending state) instead of bumping the
store's ``user_version`` — which would make an older memhooks refuse the whole store.
The tables are created the first time capture writes, so a store where capture was
never on has none of them.
"""

from __future__ import annotations

import sqlite3

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

VERSION = 2
TABLES = ("capture_meta", "capture_marks")
#: Layout 1's per-session tables, handed to the state file by :func:`upgrade`.
FORMER = ("capture_sessions", "capture_failures")

_DDL: tuple[str, ...] = (
    "CREATE TABLE capture_meta (version INTEGER NOT NULL)",
    f"INSERT INTO capture_meta (version) VALUES ({VERSION})",
    """CREATE TABLE capture_marks (
        project TEXT NOT NULL,
        scope TEXT NOT NULL,
        kind TEXT NOT NULL,
        at REAL NOT NULL,
        digest TEXT NOT NULL,
        sketch TEXT NOT NULL,
        memory TEXT NOT NULL
    )""",
    "CREATE INDEX capture_marks_recent ON capture_marks (project, at)",
    "CREATE INDEX capture_marks_cooldown ON capture_marks (project, scope, kind, at)",
    "CREATE INDEX capture_marks_digest ON capture_marks (project, digest)",
)


def _version(conn: sqlite3.Connection) -> int | None:
    try:
        row = conn.execute("SELECT version FROM capture_meta").fetchone()
    except sqlite3.OperationalError:
        return None
    return None if row is None else int(row[0])


def present(conn: sqlite3.Connection) -> bool:
    """Whether capture ever wrote this store (its tables exist, at any layout)."""
    return _version(conn) is not None


def ready(conn: sqlite3.Connection) -> bool:
    """Whether the tables exist at :data:`VERSION` (one read; no write)."""
    return _version(conn) == VERSION


def upgrade(
    conn: sqlite3.Connection,
) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """Inside a write transaction: bring the tables to :data:`VERSION` unless another
    process just did — layout 1 in place (its marks kept), any other layout dropped and
    created afresh. Returns layout 1's per-session rows ``(sessions, failures)`` for the
    state file (:func:`memhooks.session.capture_record.adopt`), ``([], [])`` otherwise."""
    version = _version(conn)
    if version == VERSION:
        return [], []
    if version == 1:
        rows = [conn.execute(f"SELECT * FROM {table}").fetchall() for table in FORMER]
        for table in FORMER:
            conn.execute(f"DROP TABLE {table}")
        conn.execute(f"UPDATE capture_meta SET version = {VERSION}")
        return rows[0], rows[1]
    for table in (*TABLES, *FORMER):
        conn.execute(f"DROP TABLE IF EXISTS {table}")
    for statement in _DDL:
        conn.execute(statement)
    return [], []


def former_counts(conn: sqlite3.Connection, project: str) -> tuple[int, int]:
    """Layout 1: ``(sessions not recorded yet, failures waiting)`` of ``project`` in the
    tables :func:`upgrade` has not handed over yet."""
    sessions, failures = FORMER
    waiting = conn.execute(
        f"SELECT count(*) FROM {sessions} WHERE project = ? AND recorded IS NULL", (project,)
    ).fetchone()[0]
    failed = conn.execute(f"SELECT count(*) FROM {failures} WHERE project = ?", (project,))
    return int(waiting), int(failed.fetchone()[0])


def last_capture(conn: sqlite3.Connection, project: str, scope: str, kind: str) -> float | None:
    """When a memory of ``kind`` was last captured in folder ``scope`` (seconds), or None."""
    row = conn.execute(
        "SELECT max(at) FROM capture_marks WHERE project = ? AND scope = ? AND kind = ?",
        (project, scope, kind),
    ).fetchone()
    return None if row is None or row[0] is None else float(row[0])


def has_digest(conn: sqlite3.Connection, project: str, digest: str) -> bool:
    row = conn.execute(
        "SELECT 1 FROM capture_marks WHERE project = ? AND digest = ? LIMIT 1", (project, digest)
    ).fetchone()
    return row is not None


def recent_sketches(conn: sqlite3.Connection, project: str, limit: int) -> Iterator[list[int]]:
    """Sketches of the project's ``limit`` most recent captures, newest first."""
    rows = conn.execute(
        "SELECT sketch FROM capture_marks WHERE project = ? ORDER BY at DESC LIMIT ?",
        (project, limit),
    )
    for (text,) in rows:
        yield [int(x) for x in text.split()]


def add_mark(
    conn: sqlite3.Connection,
    project: str,
    scope: str,
    kind: str,
    at: float,
    digest: str,
    sketch: list[int],
    memory: str,
) -> None:
    conn.execute(
        "INSERT INTO capture_marks (project, scope, kind, at, digest, sketch, memory)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (project, scope, kind, at, digest, " ".join(map(str, sketch)), memory),
    )


def prune(conn: sqlite3.Connection, before: float) -> int:
    """Delete marks older than ``before``; how many."""
    return conn.execute("DELETE FROM capture_marks WHERE at < ?", (before,)).rowcount
