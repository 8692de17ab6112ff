-- The state file's layout 1 (memhooks before the ledger held a call's rows), with one
-- session that was given one memory: a newer memhooks migrates it in place.
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE sessions (
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
    ) WITHOUT ROWID;
CREATE INDEX sessions_recent ON sessions (updated);
CREATE INDEX sessions_anonymous ON sessions (host, root, anonymous, updated);
CREATE TABLE touches (
        key TEXT NOT NULL,
        path TEXT NOT NULL,
        kind TEXT NOT NULL,
        how TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (key, path)
    ) WITHOUT ROWID;
CREATE INDEX touches_recent ON touches (key, at);
CREATE TABLE served (
        key TEXT NOT NULL,
        epoch INTEGER NOT NULL,
        target TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (key, epoch, target)
    ) WITHOUT ROWID;
CREATE TABLE deliveries (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL,
        epoch INTEGER NOT NULL,
        at REAL NOT NULL,
        native_event TEXT NOT NULL,
        target TEXT NOT NULL,
        chars INTEGER NOT NULL,
        items TEXT NOT NULL
    );
CREATE INDEX deliveries_session ON deliveries (key, id);
CREATE TABLE delivered (
        key TEXT NOT NULL,
        epoch INTEGER NOT NULL,
        item TEXT NOT NULL,
        delivery INTEGER NOT NULL,
        PRIMARY KEY (key, epoch, item)
    ) WITHOUT ROWID;
CREATE TABLE journal (
        id INTEGER PRIMARY KEY,
        root TEXT NOT NULL,
        at REAL NOT NULL,
        work TEXT NOT NULL
    );
CREATE INDEX journal_root ON journal (root, id);
INSERT INTO sessions (key, host, session, anonymous, root, started, updated, tool_chars) VALUES ('s1', 'claude-code', 's1', 0, '/p', 1000.0, 1000.0, 420);
INSERT INTO served (key, epoch, target, at) VALUES ('s1', 0, 'billing', 1000.0);
INSERT INTO deliveries (key, epoch, at, native_event, target, chars, items) VALUES ('s1', 0, 1000.0, 'PostToolUse', 'billing', 420, '[{"item": "billing-cents", "words": "w", "cue": "q"}]');
INSERT INTO delivered (key, epoch, item, delivery) VALUES ('s1', 0, 'billing-cents', 1);
PRAGMA user_version = 1;
