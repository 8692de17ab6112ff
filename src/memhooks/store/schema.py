"""The store's tables and the migrations that build them, versioned by ``PRAGMA user_version``.

Migration *n* is ``MIGRATIONS[n - 1]``; a file at ``user_version`` *v* gets
migrations *v+1* ... *len(MIGRATIONS)* in one write transaction. To change the
schema, append a migration (never edit a released one) and freeze a copy of the
old schema under ``tests/store/data/`` so the upgrade stays tested.

Tables (version 1):

- ``memories``: one row per memory; ``pk`` is internal, ``(project, id)`` unique.
  ``files``, ``tags`` and ``entities`` hold JSON arrays of strings.
- ``memories_fts``: FTS5 index over text, tags, entities, files and kind
  (external content, kept in step by triggers), porter-stemmed.
- ``memory_files``: ``(path, memory)`` pairs so "memories about this file" is an
  index lookup; filled by the same triggers.

Version 2 adds ``store_state``: one row, a random ``id`` for the file and a
``generation`` that every insert, update and delete of a memory increments.
Version 3 adds ``memory_vectors``: ``(memory, model, vector)``, one embedding per
memory for the optional semantic search (float32 blob), dropped with its memory or
when the memory's text changes. Version 4 indexes the project as one token
(``memories.project_key``, a generated column, and a sixth ``memories_fts`` column).
Version 5 makes every change set ``generation`` to a new random value (a restored
backup that is then written to cannot reach a generation seen before). Version 6 adds
``commits``: the git commits ``history import`` made a memory of (:mod:`.commits`).
"""

from __future__ import annotations

from memhooks.errors import StoreError

from .connection import write

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Callable, Sequence

    Migration = Sequence[str] | Callable[[sqlite3.Connection], None]

#: Marks the file as a memhooks store (``PRAGMA application_id``); ASCII "MHKS".
APPLICATION_ID = 0x4D484B53

_V1: tuple[str, ...] = (
    """CREATE TABLE memories (
        pk INTEGER PRIMARY KEY,
        project TEXT NOT NULL,
        id TEXT NOT NULL,
        scope TEXT NOT NULL,
        files TEXT NOT NULL,
        text TEXT NOT NULL,
        kind TEXT,
        tags TEXT NOT NULL,
        entities TEXT NOT NULL,
        created_at TEXT NOT NULL,
        source TEXT NOT NULL,
        obsolete INTEGER NOT NULL DEFAULT 0,
        superseded_by TEXT,
        UNIQUE (project, id)
    )""",
    # Newest-first reads per folder / per project come straight off these indexes,
    # obsolete included so the live-only filter needs no table lookup.
    "CREATE INDEX memories_scope ON memories (project, scope, created_at, id, obsolete)",
    "CREATE INDEX memories_recent ON memories (project, created_at, id, obsolete)",
    "CREATE INDEX memories_id ON memories (id)",
    """CREATE TABLE memory_files (
        path TEXT NOT NULL,
        memory INTEGER NOT NULL,
        PRIMARY KEY (path, memory)
    ) WITHOUT ROWID""",
    "CREATE INDEX memory_files_memory ON memory_files (memory)",
    """CREATE VIRTUAL TABLE memories_fts USING fts5(
        text, tags, entities, files, kind,
        content='memories', content_rowid='pk',
        tokenize='porter unicode61 remove_diacritics 2'
    )""",
    """CREATE TRIGGER memories_insert AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts (rowid, text, tags, entities, files, kind)
            VALUES (new.pk, new.text, new.tags, new.entities, new.files, new.kind);
        INSERT OR IGNORE INTO memory_files (path, memory)
            SELECT value, new.pk FROM json_each(new.files);
    END""",
    """CREATE TRIGGER memories_delete AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, text, tags, entities, files, kind)
            VALUES ('delete', old.pk, old.text, old.tags, old.entities, old.files, old.kind);
        DELETE FROM memory_files WHERE memory = old.pk;
    END""",
    """CREATE TRIGGER memories_update AFTER UPDATE OF text, tags, entities, files, kind
    ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, text, tags, entities, files, kind)
            VALUES ('delete', old.pk, old.text, old.tags, old.entities, old.files, old.kind);
        INSERT INTO memories_fts (rowid, text, tags, entities, files, kind)
            VALUES (new.pk, new.text, new.tags, new.entities, new.files, new.kind);
        DELETE FROM memory_files WHERE memory = old.pk;
        INSERT OR IGNORE INTO memory_files (path, memory)
            SELECT value, new.pk FROM json_each(new.files);
    END""",
    f"PRAGMA application_id = {APPLICATION_ID}",
)

# Version 2: a change counter, so that search results computed for one state of the
# store can be reused until a memory changes (the recall hook runs the same hook
# queries on every prompt). ``id`` tells a replaced file from the one it replaced.
_V2: tuple[str, ...] = (
    "CREATE TABLE store_state (id TEXT NOT NULL, generation INTEGER NOT NULL)",
    "INSERT INTO store_state (id, generation) VALUES (lower(hex(randomblob(8))), 0)",
    *(
        f"""CREATE TRIGGER memories_generation_{event.lower()} AFTER {event} ON memories BEGIN
        UPDATE store_state SET generation = generation + 1;
    END"""
        for event in ("INSERT", "UPDATE", "DELETE")
    ),
)

# Version 3: sentence embeddings for the optional semantic search (memhooks.store.semantic).
# A vector is dropped with its memory and when the text it was computed from changes;
# storing or dropping one moves the generation, so cached hybrid rankings are redone.
_V3: tuple[str, ...] = (
    """CREATE TABLE memory_vectors (
        memory INTEGER PRIMARY KEY,
        model TEXT NOT NULL,
        vector BLOB NOT NULL
    )""",
    """CREATE TRIGGER memory_vectors_forget AFTER DELETE ON memories BEGIN
        DELETE FROM memory_vectors WHERE memory = old.pk;
    END""",
    """CREATE TRIGGER memory_vectors_stale AFTER UPDATE OF text ON memories
    WHEN old.text IS NOT new.text BEGIN
        DELETE FROM memory_vectors WHERE memory = old.pk;
    END""",
    *(
        f"""CREATE TRIGGER memory_vectors_generation_{event.lower()} AFTER {event} ON memory_vectors
    BEGIN
        UPDATE store_state SET generation = generation + 1;
    END"""
        for event in ("INSERT", "UPDATE", "DELETE")
    ),
)

# Version 4: the project as one indexed token, so a search matches, scores and sorts
# inside its project only (in a store shared by many projects, BM25 otherwise ran
# over every project's matches before the join threw them away). ``project_key`` is a
# generated column: 'p', the hex of the project id, 'x' (one token that no stemmer
# touches). Its bm25() weight is 0, so scores are those of version 1 bar one token of
# document length. The index is rebuilt from the table.
_FTS_COLUMNS = "text, tags, entities, files, kind, project_key"
_V4: tuple[str, ...] = (
    (
        "ALTER TABLE memories ADD COLUMN project_key TEXT"
        " GENERATED ALWAYS AS ('p' || lower(hex(project)) || 'x') VIRTUAL"
    ),
    "DROP TRIGGER memories_insert",
    "DROP TRIGGER memories_delete",
    "DROP TRIGGER memories_update",
    "DROP TABLE memories_fts",
    f"""CREATE VIRTUAL TABLE memories_fts USING fts5(
        {_FTS_COLUMNS},
        content='memories', content_rowid='pk',
        tokenize='porter unicode61 remove_diacritics 2'
    )""",
    f"""CREATE TRIGGER memories_insert AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts (rowid, {_FTS_COLUMNS}) VALUES (new.pk, new.text,
            new.tags, new.entities, new.files, new.kind, new.project_key);
        INSERT OR IGNORE INTO memory_files (path, memory)
            SELECT value, new.pk FROM json_each(new.files);
    END""",
    f"""CREATE TRIGGER memories_delete AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, {_FTS_COLUMNS}) VALUES ('delete',
            old.pk, old.text, old.tags, old.entities, old.files, old.kind, old.project_key);
        DELETE FROM memory_files WHERE memory = old.pk;
    END""",
    f"""CREATE TRIGGER memories_update AFTER UPDATE OF text, tags, entities, files, kind, project
    ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, {_FTS_COLUMNS}) VALUES ('delete',
            old.pk, old.text, old.tags, old.entities, old.files, old.kind, old.project_key);
        INSERT INTO memories_fts (rowid, {_FTS_COLUMNS}) VALUES (new.pk, new.text,
            new.tags, new.entities, new.files, new.kind, new.project_key);
        DELETE FROM memory_files WHERE memory = old.pk;
        INSERT OR IGNORE INTO memory_files (path, memory)
            SELECT value, new.pk FROM json_each(new.files);
    END""",
    "INSERT INTO memories_fts (memories_fts) VALUES ('rebuild')",
)

# Version 5: a change sets the generation to a random value instead of adding one. A copy
# of the file restored from a backup (same id, an older count) and then written to would
# otherwise count up to a generation the cache already holds lists for, and be answered
# with the lists of the contents it replaced.
_GENERATION_TRIGGERS = (
    *(("memories", event) for event in ("INSERT", "UPDATE", "DELETE")),
    *(("memory_vectors", event) for event in ("INSERT", "UPDATE", "DELETE")),
)
_V5: tuple[str, ...] = tuple(
    statement
    for table, event in _GENERATION_TRIGGERS
    for statement in (
        f"DROP TRIGGER {table}_generation_{event.lower()}",
        f"""CREATE TRIGGER {table}_generation_{event.lower()} AFTER {event} ON {table} BEGIN
        UPDATE store_state SET generation = random();
    END""",
    )
)

# Version 6: the commits a history memory was made of (memhooks.store.commits): one row
# per (memory, commit hash) — a change cherry-picked to another branch is one memory with
# two commits — holding the author, the author date, why the commit is low-signal (NULL
# when it is not; memhooks.history.signal) and the version of the mapping that wrote the
# memory (a re-import rewrites memories of an older one). Dropped with its memory;
# a change moves the generation (the tool-time lists leave low-signal memories out).
_V6: tuple[str, ...] = (
    """CREATE TABLE commits (
        memory INTEGER NOT NULL,
        hash TEXT NOT NULL,
        author TEXT NOT NULL,
        authored_at TEXT NOT NULL,
        low_signal TEXT,
        format INTEGER NOT NULL,
        PRIMARY KEY (memory, hash)
    ) WITHOUT ROWID""",
    "CREATE INDEX commits_hash ON commits (hash)",
    """CREATE TRIGGER commits_forget AFTER DELETE ON memories BEGIN
        DELETE FROM commits WHERE memory = old.pk;
    END""",
    *(
        f"""CREATE TRIGGER commits_generation_{event.lower()} AFTER {event} ON commits BEGIN
        UPDATE store_state SET generation = random();
    END"""
        for event in ("INSERT", "UPDATE", "DELETE")
    ),
)

#: Append-only. Each entry is a sequence of SQL statements or a function of the connection.
MIGRATIONS: list[Migration] = [_V1, _V2, _V3, _V4, _V5, _V6]


def migrate(conn: sqlite3.Connection, path: str, timeout: float, *, create: bool = True) -> int:
    """Bring the open store up to ``len(MIGRATIONS)``; return the version it was at.

    Safe when many processes open a new file at once: the version is re-read
    under the write lock, so each migration runs exactly once. A file without a
    schema (version 0, no tables: what a killed first write leaves) is a new store;
    with ``create`` false it is left as it is and ``0`` is returned. Raises
    :class:`StoreError` for a file written by a newer memhooks, a SQLite file
    that is not a memhooks store, or a failing migration (nothing is changed then).
    """
    target = len(MIGRATIONS)
    found = _version(conn, path)
    if found == target or (found == 0 and not create):
        return found

    def upgrade(conn: sqlite3.Connection) -> None:
        current = _version(conn, path)
        for number in range(current + 1, target + 1):
            step = MIGRATIONS[number - 1]
            if callable(step):
                step(conn)
            else:
                for statement in step:
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {number}")

    write(conn, path, timeout, upgrade)
    return found


def _version(conn: sqlite3.Connection, path: str) -> int:
    # One statement, so one consistent snapshot: read separately, another process's
    # first migration could commit in between and make a new store look foreign.
    version, app_id, tables = conn.execute(
        "SELECT (SELECT user_version FROM pragma_user_version),"
        " (SELECT application_id FROM pragma_application_id),"
        " (SELECT count(*) FROM sqlite_master)"
    ).fetchone()
    if version > len(MIGRATIONS):
        raise StoreError(
            f"the memory store {path} has schema version {version}, newer than this "
            f"memhooks understands ({len(MIGRATIONS)}); upgrade memhooks",
            path,
        )
    if (version == 0 and tables > 0) or (version > 0 and app_id != APPLICATION_ID):
        raise StoreError(
            f"{path} is a SQLite database but not a memhooks memory store; "
            "point MEMHOOKS_STORE / --store at another path",
            path,
        )
    return int(version)
