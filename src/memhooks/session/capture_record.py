"""Capture's per-session record: what one host session reported so far, for checkpoints
and session records (:mod:`memhooks.capture`), in two tables of the state file
(:mod:`.state`: their layout is there, since layout 3) beside the session's ledger:

============ =================================================================
``captures`` per (session, project): the prompts, files changed, fixes, the last
             reply, the host's summary (scrubbed, capped: :class:`CaptureRecord`), and
             whether the session's record was written
``failures`` per (session, project, command): a failed command waiting for a later
             success, with the steps (edits, commands) taken in between
============ =================================================================

Both are keyed by :attr:`memhooks.session.record.Session.key`, so they belong to the
one session the hook keeps, and go when the state file forgets it
(:meth:`memhooks.session.state.State.sweep`); ``memhooks capture process`` prunes them
by capture's own clock (:func:`prune`). Until layout 3 they were tables of the memory
store (``capture_sessions``, ``capture_failures``): :func:`adopt` takes their rows over
once (:func:`memhooks.capture.marks.upgrade`).

Every function runs inside a write (or read) of the state file: ``conn`` is its
connection.
"""

from __future__ import annotations

import json

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterable
    from typing import Any

_COLUMNS = "key, project, session, host, scope, started, updated, recorded, data"


class CaptureRecord:
    """What one host session reported so far in ``project``: ``key`` (the session's,
    :attr:`memhooks.session.record.Session.key`), ``session`` (the host's own id, ``""``
    for none), ``host``, ``scope`` (folder of its first event), ``started``, ``updated``,
    ``recorded`` (seconds, capture's clock; None until its record was written);
    ``data`` keys: ``prompts``, ``files``, ``commands``, ``fixes``, ``response``,
    ``summary``, ``records`` (all optional)."""

    __slots__ = (
        "data",
        "host",
        "key",
        "project",
        "recorded",
        "scope",
        "session",
        "started",
        "updated",
    )

    def __init__(
        self,
        key: str,
        project: str,
        session: str,
        host: str,
        scope: str,
        started: float,
        updated: float,
        recorded: float | None = None,
        data: dict[str, object] | None = None,
    ) -> None:
        self.key = key
        self.project = project
        self.session = session
        self.host = host
        self.scope = scope
        self.started = started
        self.updated = updated
        self.recorded = recorded
        self.data: dict[str, object] = {} if data is None else data

    def items(self, name: str) -> list[str]:
        value = self.data.get(name)
        return [str(v) for v in value] if isinstance(value, list) else []

    def append(self, name: str, value: str, cap: int) -> None:
        """Add ``value`` to list ``name`` unless present; keep the last ``cap``."""
        values = self.items(name)
        if value in values:
            values.remove(value)
        values.append(value)
        self.data[name] = values[-cap:]

    def save(self, conn: sqlite3.Connection) -> None:
        conn.execute(
            f"INSERT OR REPLACE INTO captures ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                self.key,
                self.project,
                self.session,
                self.host,
                self.scope,
                self.started,
                self.updated,
                self.recorded,
                json.dumps(self.data, ensure_ascii=False, separators=(",", ":")),
            ),
        )


def _record(row: tuple[Any, ...]) -> CaptureRecord:
    data = json.loads(str(row[8]))
    return CaptureRecord(
        str(row[0]),
        str(row[1]),
        str(row[2]),
        str(row[3]),
        str(row[4]),
        float(row[5]),
        float(row[6]),
        None if row[7] is None else float(row[7]),
        data if isinstance(data, dict) else {},
    )


def load(conn: sqlite3.Connection, key: str, project: str) -> CaptureRecord | None:
    """The record of session ``key`` in ``project``, or None."""
    row = conn.execute(
        f"SELECT {_COLUMNS} FROM captures WHERE key = ? AND project = ?", (key, project)
    ).fetchone()
    return None if row is None else _record(row)


def idle(
    conn: sqlite3.Connection, before: float, project: str | None = None, limit: int = 100
) -> list[CaptureRecord]:
    """Records not yet recorded whose last event is older than ``before``, oldest first."""
    where = "recorded IS NULL AND updated < ?"
    args: tuple[object, ...] = (before,)
    if project is not None:
        where += " AND project = ?"
        args += (project,)
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM captures WHERE {where} ORDER BY updated LIMIT ?", (*args, limit)
    ).fetchall()
    return [_record(r) for r in rows]


def open_counts(conn: sqlite3.Connection, project: str) -> tuple[int, int]:
    """``(records not yet recorded, failures waiting)`` of ``project``."""
    waiting = conn.execute(
        "SELECT count(*) FROM captures WHERE project = ? AND recorded IS NULL", (project,)
    ).fetchone()[0]
    failed = conn.execute("SELECT count(*) FROM failures WHERE project = ?", (project,))
    return int(waiting), int(failed.fetchone()[0])


class Failure:
    """A failed command waiting for a later success: ``key`` (the command's),
    ``command``, ``excerpt`` (what went wrong, scrubbed), ``at``, ``steps`` (edits and
    commands since), ``scope``."""

    __slots__ = ("at", "command", "excerpt", "key", "scope", "steps")

    def __init__(
        self, key: str, command: str, excerpt: str, at: float, steps: list[str], scope: str
    ) -> None:
        self.key = key
        self.command = command
        self.excerpt = excerpt
        self.at = at
        self.steps = steps
        self.scope = scope


def failures(conn: sqlite3.Connection, record: CaptureRecord) -> list[Failure]:
    """The failures waiting in ``record``'s session, oldest first."""
    rows = conn.execute(
        "SELECT command_key, command, excerpt, at, steps, scope FROM failures"
        " WHERE key = ? AND project = ? ORDER BY at",
        (record.key, record.project),
    ).fetchall()
    return [Failure(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5]) for r in rows]


def save_failure(conn: sqlite3.Connection, record: CaptureRecord, failure: Failure) -> None:
    conn.execute(
        "INSERT OR REPLACE INTO failures"
        " (key, project, command_key, scope, command, excerpt, at, steps)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            record.key,
            record.project,
            failure.key,
            failure.scope,
            failure.command,
            failure.excerpt,
            failure.at,
            json.dumps(failure.steps, ensure_ascii=False),
        ),
    )


def drop_failure(conn: sqlite3.Connection, record: CaptureRecord, key: str) -> None:
    conn.execute(
        "DELETE FROM failures WHERE key = ? AND project = ? AND command_key = ?",
        (record.key, record.project, key),
    )


def prune(conn: sqlite3.Connection, before: float) -> dict[str, int]:
    """Delete records and failures idle since ``before`` (capture's clock); the counts
    (``sessions``, ``failures``)."""
    return {
        "sessions": conn.execute("DELETE FROM captures WHERE updated < ?", (before,)).rowcount,
        "failures": conn.execute("DELETE FROM failures WHERE at < ?", (before,)).rowcount,
    }


def adopt(
    conn: sqlite3.Connection,
    sessions: Iterable[tuple[object, ...]],
    failing: Iterable[tuple[object, ...]],
) -> None:
    """Take over the rows of the memory store's former tables: ``sessions`` as
    ``(project, session, host, scope, started, updated, recorded, data)`` and
    ``failing`` as ``(project, session, scope, key, command, excerpt, at, steps)``. The
    host's session id becomes the key (the state file's key of a session with an id);
    a record already here is kept."""
    conn.executemany(
        f"INSERT OR IGNORE INTO captures ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(r[1], r[0], *r[1:]) for r in sessions],
    )
    conn.executemany(
        "INSERT OR IGNORE INTO failures"
        " (key, project, scope, command_key, command, excerpt, at, steps)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(r[1], r[0], *r[2:]) for r in failing],
    )
