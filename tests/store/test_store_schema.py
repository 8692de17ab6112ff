"""The store file: WAL, versioned schema, migrations of older files, and refusal of files that are not ours."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from store_fakes import DATA

from memhooks.errors import StoreError
from memhooks.store import SCHEMA_VERSION, Memory, MemoryStore, schema

PROJECT = "github.com/acme/app"


def v1_file(path: Path) -> Path:
    """A store file exactly as memhooks 0.1.0 (schema version 1) wrote it."""
    conn = sqlite3.connect(path)
    conn.executescript((DATA / "schema_v1.sql").read_text(encoding="utf-8"))
    conn.close()
    return path


def pragma(path: Path | str, name: str) -> object:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(f"PRAGMA {name}").fetchone()[0]
    finally:
        conn.close()


def test_a_new_store_is_a_versioned_wal_file(store_path: str) -> None:
    MemoryStore(store_path).close()
    assert pragma(store_path, "journal_mode") == "wal"
    assert pragma(store_path, "user_version") == SCHEMA_VERSION == len(schema.MIGRATIONS)
    assert pragma(store_path, "application_id") == schema.APPLICATION_ID


def test_a_version_1_file_opens_with_its_memories(tmp_path: Path) -> None:
    path = v1_file(tmp_path / "old.sqlite3")
    with MemoryStore(path) as store:
        assert store.get("v1-a") == Memory(
            id="v1-a",
            project=PROJECT,
            scope="src/api",
            files=["src/api/routes.py"],
            text="Routes are registered in one table; keep it sorted.",
            kind="decision",
            tags=["api"],
            entities=["Flask"],
            created_at="2025-06-01T10:00:00Z",
            source="cli",
        )
        assert [m.id for m, _ in store.search(PROJECT, "release notes")] == ["v1-c"]
        assert [m.id for m in store.candidates_by_scope(PROJECT, [], ["CHANGES.md"])] == ["v1-c"]
        store.add(PROJECT, "written after the upgrade")
    assert pragma(path, "user_version") == SCHEMA_VERSION


def test_an_upgraded_version_1_file_has_the_schema_of_a_new_file(tmp_path: Path) -> None:
    # Fails when a released migration is edited instead of a new one appended.
    def tables(path: Path) -> list[tuple[str, str]]:
        MemoryStore(path).close()
        conn = sqlite3.connect(path)
        rows = conn.execute("SELECT name, sql FROM sqlite_master ORDER BY name").fetchall()
        conn.close()
        return [(name, " ".join(str(sql).split())) for name, sql in rows]

    assert tables(v1_file(tmp_path / "old.sqlite3")) == tables(tmp_path / "new.sqlite3")


def test_an_appended_migration_upgrades_old_files_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []

    def backfill(conn: sqlite3.Connection) -> None:
        calls.append(1)
        conn.execute("UPDATE memories SET pinned = 1 WHERE kind = 'decision'")

    migrations = [*schema.MIGRATIONS]
    migrations.append(("ALTER TABLE memories ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0",))
    migrations.append(backfill)
    monkeypatch.setattr(schema, "MIGRATIONS", migrations)
    path = v1_file(tmp_path / "old.sqlite3")

    for _ in range(2):
        with MemoryStore(path) as store:
            assert [m.id for m in store.list(PROJECT, include_obsolete=True)] == [
                "v1-c",
                "v1-b",
                "v1-a",
            ]
    assert calls == [1]
    assert pragma(path, "user_version") == len(schema.MIGRATIONS) == SCHEMA_VERSION + 2
    conn = sqlite3.connect(path)
    pinned = dict(conn.execute("SELECT id, pinned FROM memories").fetchall())
    conn.close()
    assert pinned == {"v1-a": 1, "v1-b": 0, "v1-c": 1}


def test_a_failing_migration_leaves_the_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = ("ALTER TABLE memories ADD COLUMN pinned INTEGER", "THIS IS NOT SQL")
    monkeypatch.setattr(schema, "MIGRATIONS", [*schema.MIGRATIONS, broken])
    path = v1_file(tmp_path / "old.sqlite3")
    with pytest.raises(StoreError, match=f"the memory store {path} failed: .*syntax error"):
        MemoryStore(path)
    assert pragma(path, "user_version") == 1
    conn = sqlite3.connect(path)
    columns = [row[1] for row in conn.execute("PRAGMA table_info(memories)")]
    conn.close()
    assert "pinned" not in columns


def test_a_file_from_a_newer_memhooks_is_refused(store_path: str) -> None:
    MemoryStore(store_path).close()
    conn = sqlite3.connect(store_path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(StoreError) as caught:
        MemoryStore(store_path)
    assert str(caught.value) == (
        f"the memory store {store_path} has schema version 99, newer than this memhooks "
        f"understands ({SCHEMA_VERSION}); upgrade memhooks"
    )


def test_another_programs_database_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "app.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE users (name TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError) as caught:
        MemoryStore(path)
    assert str(caught.value) == (
        f"{path} is a SQLite database but not a memhooks memory store; "
        "point MEMHOOKS_STORE / --store at another path"
    )
    conn = sqlite3.connect(path)
    assert [row[0] for row in conn.execute("SELECT name FROM sqlite_master")] == ["users"]
    conn.close()


def test_a_file_that_is_not_sqlite_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "memories.sqlite3"
    garbage = b"this is not a database, it is a text file someone put here\n" * 20
    path.write_bytes(garbage)
    with pytest.raises(StoreError) as caught:
        MemoryStore(path)
    assert str(caught.value) == (
        f"the memory store {path} is not a SQLite database (SQLite: file is not a database); move the file "
        "away or point MEMHOOKS_STORE / --store at another path"
    )
    assert caught.value.__cause__ is not None
    assert path.read_bytes() == garbage


def test_a_damaged_store_raises_store_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "memories.sqlite3"
    with MemoryStore(path) as store:
        for i in range(300):
            store.add(PROJECT, f"memory number {i} about caching and locking " * 5)
    size = path.stat().st_size
    with path.open("r+b") as fp:  # clobber every page but the first
        fp.seek(4096)
        fp.write(b"\xff" * (size - 4096))
    # SQLite reports this as "malformed" or as a failing FTS table, depending on
    # which page it reads first; either way the user gets a StoreError naming the file.
    pattern = f"the memory store {path} (is damaged|failed)"
    with pytest.raises(StoreError, match=pattern) as caught, MemoryStore(path) as store:
        store.search(PROJECT, "caching")
        store.list(PROJECT)
    assert "memories export --salvage FILE`, move the store away" in str(caught.value)


def test_a_directory_or_a_missing_file_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a directory; give the path of a file"):
        MemoryStore(tmp_path)
    missing = tmp_path / "none" / "memories.sqlite3"
    with pytest.raises(StoreError, match=f"there is no memory store at {missing}"):
        MemoryStore(missing, create=False)
    assert not missing.parent.exists()
    with pytest.raises(StoreError, match="/dev/null is not a regular file"):
        MemoryStore(os.devnull)


def test_backends_check_fails_for_a_store_path_that_cannot_be_a_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from memhooks.cli import main

    for path, kind in ((tmp_path, "a directory"), (Path(os.devnull), "not a regular file")):
        assert main(["backends", "check", "--store", str(path)]) == 1
        assert f"the store path {path} is {kind}" in capsys.readouterr().out
    assert main(["backends", "check", "--store", str(tmp_path / "new.sqlite3")]) == 0
    assert "no store yet" in capsys.readouterr().out


def test_a_store_whose_schema_text_is_not_utf8_is_a_store_error_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Bytes changed under the store (a disk error, another program) can make SQLite's
    # own error message undecodable: sqlite3 then raises UnicodeDecodeError, which is
    # not a sqlite3.Error.
    path = tmp_path / "memories.sqlite3"
    with MemoryStore(path) as store:
        for number in range(50):
            store.add(PROJECT, f"memory {number} about caching")
    size = path.stat().st_size
    with path.open("r+b") as fp:
        for offset in range(4096, size, 97):
            fp.seek(offset)
            fp.write(b"\xab")
    expected = f"the memory store {path} is damaged: a stored text is not valid UTF-8"
    with pytest.raises(StoreError, match=expected):
        MemoryStore(path)
    from memhooks.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["memories", "list", "--store", str(path)]) == 1
    err = capsys.readouterr().err.splitlines()[0]
    assert err.startswith(f"error[MH037]: {expected}") and err.endswith(
        "`memhooks memories export --salvage FILE`, move the store away, then"
        " `memhooks memories import FILE` into a new one"
    )


@pytest.mark.parametrize(
    ("damage", "field"),
    [
        ("UPDATE memories SET tags = '[\"de\x16ploy\"]'", "tags"),
        ("UPDATE memories SET files = '{\"a\": 1}'", "files"),
        ("UPDATE memories SET entities = '[1]'", "entities"),
        ("UPDATE memories SET text = CAST('a memory' AS BLOB)", "text"),
    ],
)
def test_a_damaged_row_is_a_store_error_naming_the_memory_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str, field: str
) -> None:
    from memhooks.cli import main
    from memhooks.recall import recall

    path = tmp_path / "memories.sqlite3"
    (tmp_path / ".git").mkdir()
    from memhooks.store import project_id

    with MemoryStore(path) as store:
        store.add(project_id(str(tmp_path)), "a memory about deploys", id="m1", tags=["deploy"])
        store._conn.execute(damage)
    expected = f"the memory store {path} is damaged: memory 'm1' has an unreadable `{field}`"
    for command in (["memories", "list"], ["memories", "export"], ["memories", "show", "m1"]):
        assert main([*command, "--cwd", str(tmp_path), "--store", str(path)]) == 1
        assert capsys.readouterr().err.startswith(f"error[MH037]: {expected}")
    result = recall(str(tmp_path), prompt="memory deploys", store_path=str(path))
    assert result["status"] == "failed" and expected in result["queries"][0]["error"]
