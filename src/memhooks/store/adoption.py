"""Moving what a store kept under a project's earlier ids to its current one.

Project ids changed once (from the ``origin`` URL or the path to the root commit, see
:mod:`.project`), and an id without a root commit changes again at the first commit.
SQLite cannot tell which checkout a URL or a path belongs to, so a schema migration
cannot do this; the first command that knows the checkout (an :class:`~.project.Identity`)
does, in one write transaction. Every table with a ``project`` column moves: memories
(their search index, file index and vectors follow by row), and capture's working state.
"""

from __future__ import annotations

from . import rows

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Sequence

#: The fields that make two rows with one id the same memory.
_SAME = "text, scope, files, kind, tags, entities, created_at, obsolete, superseded_by"


def pending(conn: sqlite3.Connection, aliases: Sequence[str]) -> bool:
    """Whether any memory is stored under one of ``aliases`` (one index lookup)."""
    marks = ",".join("?" * len(aliases))
    sql = f"SELECT EXISTS (SELECT 1 FROM memories WHERE project IN ({marks}))"
    return bool(conn.execute(sql, tuple(aliases)).fetchone()[0])


def move(conn: sqlite3.Connection, aliases: Sequence[str], project: str, now: float) -> int:
    """Inside a write transaction: re-key every row of ``aliases`` to ``project``; return
    how many memories moved. A memory whose id ``project`` already uses is dropped when it
    is the same memory, and otherwise moves under a fresh id (nothing is lost)."""
    moved = 0
    for alias in aliases:
        clashes = conn.execute(
            f"SELECT a.id, (SELECT count(*) FROM memories b WHERE b.project = ? AND b.id = a.id"
            f" AND ({_same('b')}) IS ({_same('a')})) FROM memories a WHERE a.project = ?"
            " AND a.id IN (SELECT id FROM memories WHERE project = ?)",
            (project, alias, project),
        ).fetchall()
        for memory_id, same in clashes:
            if same:
                conn.execute(
                    "DELETE FROM memories WHERE project = ? AND id = ?", (alias, memory_id)
                )
            else:
                fresh = rows.fresh_id(conn, project, now)
                conn.execute(
                    "UPDATE memories SET id = ? WHERE project = ? AND id = ?",
                    (fresh, alias, memory_id),
                )
                # what the alias's memories said supersedes it follows the rename
                conn.execute(
                    "UPDATE memories SET superseded_by = ? WHERE project = ? AND superseded_by = ?",
                    (fresh, alias, memory_id),
                )
        moved += conn.execute(
            "UPDATE memories SET project = ? WHERE project = ?", (project, alias)
        ).rowcount
        for table in _project_tables(conn):
            # Capture's working state: a row whose key the project already has is stale.
            conn.execute(
                f"UPDATE OR IGNORE {table} SET project = ? WHERE project = ?", (project, alias)
            )
            conn.execute(f"DELETE FROM {table} WHERE project = ?", (alias,))
    return moved


def _same(prefix: str) -> str:
    return ", ".join(f"{prefix}.{c.strip()}" for c in _SAME.split(","))


def _project_tables(conn: sqlite3.Connection) -> list[str]:
    names = [
        name
        for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'memories'"
            " AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%'"
        )
    ]
    return [
        name
        for name in names
        if any(
            column == "project"
            for (column,) in conn.execute("SELECT name FROM pragma_table_info(?)", (name,))
        )
    ]
