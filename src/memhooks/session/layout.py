"""The state file's layout (:data:`memhooks.session.state.VERSION`): the statements that
create it, and those that bring each older layout to the next, in place, keeping what
it holds. Read only when a state file is created or migrated: a hook call that finds
the current layout does not import this module."""

from __future__ import annotations

DDL: tuple[str, ...] = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
    """CREATE TABLE sessions (
        key TEXT PRIMARY KEY,
        host TEXT NOT NULL,
        session TEXT NOT NULL,
        anonymous INTEGER NOT NULL,
        root TEXT NOT NULL,
        started REAL NOT NULL,
        updated REAL NOT NULL,
        epoch INTEGER NOT NULL DEFAULT 0,
        prompt TEXT,
        prompt_at REAL,
        tool_chars INTEGER NOT NULL DEFAULT 0,
        ended REAL
    ) WITHOUT ROWID""",
    "CREATE INDEX sessions_recent ON sessions (updated)",
    "CREATE INDEX sessions_anonymous ON sessions (host, root, anonymous, updated)",
    """CREATE TABLE touches (
        key TEXT NOT NULL,
        path TEXT NOT NULL,
        kind TEXT NOT NULL,
        how TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (key, path)
    ) WITHOUT ROWID""",
    "CREATE INDEX touches_recent ON touches (key, at)",
    """CREATE TABLE served (
        key TEXT NOT NULL,
        epoch INTEGER NOT NULL,
        target TEXT NOT NULL,
        at REAL NOT NULL,
        until REAL,
        PRIMARY KEY (key, epoch, target)
    ) WITHOUT ROWID""",
    """CREATE TABLE deliveries (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL,
        epoch INTEGER NOT NULL,
        at REAL NOT NULL,
        native_event TEXT NOT NULL,
        target TEXT NOT NULL,
        chars INTEGER NOT NULL,
        items TEXT NOT NULL,
        until REAL,
        tool INTEGER NOT NULL DEFAULT 0
    )""",
    "CREATE INDEX deliveries_session ON deliveries (key, id)",
    """CREATE TABLE delivered (
        key TEXT NOT NULL,
        epoch INTEGER NOT NULL,
        item TEXT NOT NULL,
        delivery INTEGER NOT NULL,
        until REAL,
        PRIMARY KEY (key, epoch, item)
    ) WITHOUT ROWID""",
    """CREATE TABLE journal (
        id INTEGER PRIMARY KEY,
        root TEXT NOT NULL,
        at REAL NOT NULL,
        work TEXT NOT NULL
    )""",
    "CREATE INDEX journal_root ON journal (root, id)",
)
#: Capture's record of a session (:mod:`memhooks.session.capture_record`), layout 3.
CAPTURE_DDL = (
    """CREATE TABLE captures (
        key TEXT NOT NULL,
        project TEXT NOT NULL,
        session TEXT NOT NULL,
        host TEXT NOT NULL,
        scope TEXT NOT NULL,
        started REAL NOT NULL,
        updated REAL NOT NULL,
        recorded REAL,
        data TEXT NOT NULL,
        PRIMARY KEY (key, project)
    ) WITHOUT ROWID""",
    "CREATE INDEX captures_idle ON captures (recorded, updated)",
    """CREATE TABLE failures (
        key TEXT NOT NULL,
        project TEXT NOT NULL,
        command_key TEXT NOT NULL,
        scope TEXT NOT NULL,
        command TEXT NOT NULL,
        excerpt TEXT NOT NULL,
        at REAL NOT NULL,
        steps TEXT NOT NULL,
        PRIMARY KEY (key, project, command_key)
    ) WITHOUT ROWID""",
)
DDL += CAPTURE_DDL
#: Layout 1 → 2: rows a hook call holds until its reply is sure to go out; 2 → 3:
#: capture's record of each session moves here from the memory store; 3 → 4: which
#: deliveries were at tool time (a held one counts against the session's tool-time
#: ceiling before its call confirms it: :meth:`memhooks.session.record.Session._spent`).
MIGRATE = {
    1: tuple(
        f"ALTER TABLE {t} ADD COLUMN until REAL" for t in ("served", "deliveries", "delivered")
    ),
    2: CAPTURE_DDL,
    3: ("ALTER TABLE deliveries ADD COLUMN tool INTEGER NOT NULL DEFAULT 0",),
}
