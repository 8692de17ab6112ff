"""Capture's memory between hook processes: four small tables in the store file.

Each hook call is a new process, so every filter that needs the past (cooldown,
duplicates, "this command failed earlier") reads it from SQLite:

- ``capture_meta``: one row, the layout :data:`VERSION` of these tables;
- ``capture_marks``: one row per captured memory — project, scope (folder), kind,
  time, exact digest and similarity sketch (:mod:`.similar`) and the memory id. Cooldown
  and de-duplication read it; a memory later forgotten keeps its mark, so capture does
  not bring back what the user deleted;
- ``capture_sessions``: per (project, session) what the host reported so far — prompts,
  files changed, fixes, the last reply (scrubbed, capped) — for checkpoints and
  session records;
- ``capture_failures``: failed commands waiting for a later success, with the steps
  (edits, commands) taken in between.

Why not a migration in :mod:`memhooks.store.schema`: this is disposable working state,
not memories. It has its own version; a memhooks that finds another version drops and
recreates these tables (losing only pending state) instead of bumping the store's
``user_version`` — which would make an older memhooks refuse the whole store. The tables
are created the first time capture writes, so a store where capture was never on has
none of them.
"""

from __future__ import annotations

import json
import sqlite3

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

VERSION = 1
TABLES = ("capture_meta", "capture_marks", "capture_sessions", "capture_failures")

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
    """CREATE TABLE capture_sessions (
        project TEXT NOT NULL,
        session TEXT NOT NULL,
        host TEXT NOT NULL,
        scope TEXT NOT NULL,
        started REAL NOT NULL,
        updated REAL NOT NULL,
        recorded REAL,
        data TEXT NOT NULL,
        PRIMARY KEY (project, session)
    )""",
    "CREATE INDEX capture_sessions_idle ON capture_sessions (recorded, updated)",
    """CREATE TABLE capture_failures (
        project TEXT NOT NULL,
        session TEXT NOT NULL,
        scope TEXT NOT NULL,
        key TEXT NOT NULL,
        command TEXT NOT NULL,
        excerpt TEXT NOT NULL,
        at REAL NOT NULL,
        steps TEXT NOT NULL,
        PRIMARY KEY (project, session, key)
    )""",
)


def ready(conn: sqlite3.Connection) -> bool:
    """Whether the tables exist at :data:`VERSION` (one read; no write)."""
    try:
        row = conn.execute("SELECT version FROM capture_meta").fetchone()
    except sqlite3.OperationalError:
        return False
    return row is not None and row[0] == VERSION


def create(conn: sqlite3.Connection) -> None:
    """Inside a write transaction: (re)create the tables unless another process just did."""
    if ready(conn):
        return
    for table in TABLES:
        conn.execute(f"DROP TABLE IF EXISTS {table}")
    for statement in _DDL:
        conn.execute(statement)


# -- marks: cooldown and duplicates ------------------------------------------------------


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


# -- sessions ----------------------------------------------------------------------------


class Session:
    """What one host session reported so far. ``data`` keys: ``prompts``, ``files``,
    ``commands``, ``fixes``, ``response``, ``summary``, ``failures`` (all optional)."""

    __slots__ = ("data", "host", "key", "project", "recorded", "scope", "started", "updated")

    def __init__(
        self,
        project: str,
        key: str,
        host: str,
        scope: str,
        started: float,
        updated: float,
        recorded: float | None,
        data: dict[str, object],
    ) -> None:
        self.project = project
        self.key = key
        self.host = host
        self.scope = scope
        self.started = started
        self.updated = updated
        self.recorded = recorded
        self.data = data

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


def load_session(
    conn: sqlite3.Connection, project: str, key: str, host: str, scope: str, now: float
) -> Session:
    """The session's state, new and empty when none was stored."""
    row = conn.execute(
        "SELECT host, scope, started, updated, recorded, data FROM capture_sessions"
        " WHERE project = ? AND session = ?",
        (project, key),
    ).fetchone()
    if row is None:
        return Session(project, key, host, scope, now, now, None, {})
    data = json.loads(row[5])
    return Session(project, key, row[0], row[1], row[2], row[3], row[4], data)


def save_session(conn: sqlite3.Connection, session: Session) -> None:
    conn.execute(
        "INSERT OR REPLACE INTO capture_sessions"
        " (project, session, host, scope, started, updated, recorded, data)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            session.project,
            session.key,
            session.host,
            session.scope,
            session.started,
            session.updated,
            session.recorded,
            json.dumps(session.data, ensure_ascii=False, separators=(",", ":")),
        ),
    )


def idle_sessions(
    conn: sqlite3.Connection, before: float, project: str | None = None, limit: int = 100
) -> list[Session]:
    """Sessions not yet recorded whose last event is older than ``before``."""
    where = "recorded IS NULL AND updated < ?"
    args: tuple[object, ...] = (before,)
    if project is not None:
        where += " AND project = ?"
        args += (project,)
    rows = conn.execute(
        "SELECT project, session, host, scope, started, updated, recorded, data"
        f" FROM capture_sessions WHERE {where} ORDER BY updated LIMIT ?",
        (*args, limit),
    ).fetchall()
    return [Session(r[0], r[1], r[2], r[3], r[4], r[5], r[6], json.loads(r[7])) for r in rows]


# -- failures ----------------------------------------------------------------------------


class Failure:
    """A failed command waiting for a later success: ``command``, ``excerpt`` (what went
    wrong, scrubbed), ``at``, ``steps`` (edits and commands since), ``scope``."""

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


def failures(conn: sqlite3.Connection, project: str, session: str) -> list[Failure]:
    rows = conn.execute(
        "SELECT key, command, excerpt, at, steps, scope FROM capture_failures"
        " WHERE project = ? AND session = ? ORDER BY at",
        (project, session),
    ).fetchall()
    return [Failure(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5]) for r in rows]


def save_failure(conn: sqlite3.Connection, project: str, session: str, failure: Failure) -> None:
    conn.execute(
        "INSERT OR REPLACE INTO capture_failures"
        " (project, session, scope, key, command, excerpt, at, steps)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            project,
            session,
            failure.scope,
            failure.key,
            failure.command,
            failure.excerpt,
            failure.at,
            json.dumps(failure.steps, ensure_ascii=False),
        ),
    )


def drop_failure(conn: sqlite3.Connection, project: str, session: str, key: str) -> None:
    conn.execute(
        "DELETE FROM capture_failures WHERE project = ? AND session = ? AND key = ?",
        (project, session, key),
    )


def prune(conn: sqlite3.Connection, marks_before: float, state_before: float) -> dict[str, int]:
    """Delete marks older than ``marks_before`` and sessions/failures idle since
    ``state_before``; return the counts."""
    counts = {}
    for name, sql, when in (
        ("marks", "DELETE FROM capture_marks WHERE at < ?", marks_before),
        ("sessions", "DELETE FROM capture_sessions WHERE updated < ?", state_before),
        ("failures", "DELETE FROM capture_failures WHERE at < ?", state_before),
    ):
        counts[name] = conn.execute(sql, (when,)).rowcount
    return counts
