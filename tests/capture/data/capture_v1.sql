-- Capture's tables as memhooks wrote them into the memory store before state file
-- layout 3 (capture layout 1): a session "cx" that asked one thing and edited
-- src/limiter.py after `pytest tests/test_limiter.py` failed. {project} is the test's
-- project path.
CREATE TABLE capture_meta (version INTEGER NOT NULL);
INSERT INTO capture_meta (version) VALUES (1);
CREATE TABLE capture_marks (
    project TEXT NOT NULL,
    scope TEXT NOT NULL,
    kind TEXT NOT NULL,
    at REAL NOT NULL,
    digest TEXT NOT NULL,
    sketch TEXT NOT NULL,
    memory TEXT NOT NULL
);
CREATE INDEX capture_marks_recent ON capture_marks (project, at);
CREATE INDEX capture_marks_cooldown ON capture_marks (project, scope, kind, at);
CREATE INDEX capture_marks_digest ON capture_marks (project, digest);
INSERT INTO capture_marks VALUES ('{project}', '', 'decision', 990.0, 'd1', '1 2 3', 'm1');
CREATE TABLE capture_sessions (
    project TEXT NOT NULL,
    session TEXT NOT NULL,
    host TEXT NOT NULL,
    scope TEXT NOT NULL,
    started REAL NOT NULL,
    updated REAL NOT NULL,
    recorded REAL,
    data TEXT NOT NULL,
    PRIMARY KEY (project, session)
);
CREATE INDEX capture_sessions_idle ON capture_sessions (recorded, updated);
INSERT INTO capture_sessions VALUES ('{project}', 'cx', 'claude-code', '', 900.0, 1000.0, NULL,
    '{"prompts":["Fix the limiter burst bug"],"files":["src/limiter.py"]}');
CREATE TABLE capture_failures (
    project TEXT NOT NULL,
    session TEXT NOT NULL,
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    command TEXT NOT NULL,
    excerpt TEXT NOT NULL,
    at REAL NOT NULL,
    steps TEXT NOT NULL,
    PRIMARY KEY (project, session, key)
);
INSERT INTO capture_failures VALUES ('{project}', 'cx', '', 'pytest tests/test_limiter.py',
    'pytest tests/test_limiter.py', 'E   AssertionError: burst of 11 allowed', 950.0,
    '["edited src/limiter.py"]');
