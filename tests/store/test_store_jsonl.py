"""JSONL import/export: round trips, updates by id, and all-or-nothing imports with located errors."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from store_fakes import DATA, FakeClock

from memhooks.errors import DiagnosticError, StoreError
from memhooks.store import Memory, MemoryStore, rows

PROJECT = "github.com/acme/app"
ERRORS = json.loads((DATA / "import_errors.json").read_text(encoding="utf-8"))


def export(store: MemoryStore, project: str = PROJECT) -> str:
    out = io.StringIO()
    store.export_jsonl(project, out)
    return out.getvalue()


def test_export_then_import_reproduces_every_memory(tmp_path: Path, store: MemoryStore) -> None:
    store.add(
        PROJECT, "Grüße aus Köln 🧠\nsecond line", scope="src", files=["src/a.py"], tags=["ü"]
    )
    old = store.add(PROJECT, "old way", kind="decision", source="agent:claude-code")
    new = store.add(PROJECT, "new way", entities=["tox"])
    store.mark_obsolete(old.id, superseded_by=new.id)
    store.add("another/project", "not exported")
    text = export(store)
    assert "Grüße" in text and "\\u" not in text  # readable in a diff
    assert all("project" not in json.loads(line) for line in text.splitlines())

    with MemoryStore(tmp_path / "copy.sqlite3") as copy:
        assert copy.import_jsonl("moved/project", io.StringIO(text)) == {
            "added": 3,
            "updated": 0,
            "unchanged": 0,
        }
        assert export(copy, "moved/project") == text
        assert copy.get(old.id, project="moved/project").to_json() == {  # type: ignore[union-attr]
            **old.to_json(),
            "project": "moved/project",
            "obsolete": True,
            "superseded_by": new.id,
        }


def test_reimporting_the_same_lines_writes_nothing(store: MemoryStore) -> None:
    # A re-run of the same import must not move the store's generation: every cached
    # search list would be dropped and the next prompt would pay for all of them.
    lines = ['{"id": "a", "text": "first version", "tags": ["x"]}', '{"id": "b", "text": "b"}']
    assert store.import_jsonl(PROJECT, lines) == {"added": 2, "updated": 0, "unchanged": 0}
    generation = store._conn.execute("SELECT generation FROM store_state").fetchone()
    assert store.import_jsonl(PROJECT, lines) == {"added": 0, "updated": 0, "unchanged": 2}
    assert store._conn.execute("SELECT generation FROM store_state").fetchone() == generation
    lines[1] = '{"id": "b", "text": "b, changed"}'
    assert store.import_jsonl(PROJECT, lines) == {"added": 0, "updated": 1, "unchanged": 1}


def test_reimporting_updates_instead_of_duplicating(store: MemoryStore) -> None:
    lines = [
        '{"id": "a", "text": "first version", "tags": ["x"]}',
        '{"text": "no id, so always new"}',
    ]
    assert store.import_jsonl(PROJECT, lines) == {"added": 2, "updated": 0, "unchanged": 0}
    store.mark_obsolete("a")
    lines[0] = '{"id": "a", "text": "second version"}'
    assert store.import_jsonl(PROJECT, lines) == {"added": 1, "updated": 1, "unchanged": 0}
    updated = store.get("a")
    assert updated is not None
    # Fields on the line replace, fields left out are kept.
    assert (updated.text, updated.tags, updated.obsolete) == ("second version", ["x"], True)
    assert store.count(PROJECT) == 3
    assert [m.id for m, _ in store.search(PROJECT, "first", include_obsolete=True)] == []


def test_import_defaults_and_normalization(store: MemoryStore, clock: FakeClock) -> None:
    full_line = {
        "text": "full",
        "scope": "./lib/",
        "files": ["lib\\x.py"],
        "kind": "",
        "created_at": "2026-01-01T03:00:00-05:00",
        "source": "git",
        "n_files": 1,
    }
    lines = ['{"text": "bare"}', json.dumps(full_line)]
    store.import_jsonl(PROJECT, lines, default_scope="docs/", source="bench")
    bare, full = sorted(store.list(PROJECT), key=lambda m: m.text)
    assert (bare.scope, bare.source, bare.created_at) == ("docs", "bench", "2026-11-30T12:00:00Z")
    assert (full.scope, full.files, full.kind) == ("lib", ["lib/x.py"], None)
    assert (full.created_at, full.source) == ("2026-01-01T08:00:00Z", "git")


def test_import_reads_bytes_with_a_bom_and_blank_lines(tmp_path: Path, store: MemoryStore) -> None:
    path = tmp_path / "memories.jsonl"
    path.write_bytes('\ufeff{"text": "é"}\n\n   \n{"text": "ß"}\r\n'.encode())
    with path.open("rb") as fp:
        assert store.import_jsonl(PROJECT, fp) == {"added": 2, "updated": 0, "unchanged": 0}


def placed(caught: pytest.ExceptionInfo[DiagnosticError]) -> str:
    """``path:line:column: message`` of an import's MH045 (the code checked)."""
    found = caught.value.diagnostic
    assert found.code == "MH045" and found.help and "nothing of the file" in found.help
    return f"{found.path}:{found.line}:{found.column}: {found.message}"


@pytest.mark.parametrize("case", ERRORS, ids=[case["error"][:50] for case in ERRORS])
def test_a_bad_line_is_named(store: MemoryStore, case: dict[str, Any]) -> None:
    """MH045 at the line and the column of the JSON error or the field at fault (it was
    an uncoded StoreError naming the line alone: newcomer13)."""
    with pytest.raises(DiagnosticError) as caught:
        store.import_jsonl(PROJECT, case["lines"])
    assert placed(caught) == case["error"]
    assert store.count(PROJECT) == 0


def test_a_bad_line_anywhere_means_nothing_is_written(store: MemoryStore) -> None:
    store.add(PROJECT, "already here", id="a")
    before = export(store)
    lines = ['{"id": "a", "text": "changed"}']
    lines += [f'{{"id": "n{i}", "text": "new {i}"}}' for i in range(100)]
    lines.append('{"text": ""}')
    with pytest.raises(DiagnosticError) as caught:
        store.import_jsonl(PROJECT, lines)
    assert placed(caught).startswith("<input>:102:2: `text` is blank")
    assert export(store) == before


def test_encoding_errors_name_the_file_and_line(tmp_path: Path, store: MemoryStore) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b'{"text": "ok"}\n{"text": "\xff\xfe"}\n')
    with path.open("rb") as fp, pytest.raises(DiagnosticError) as caught:
        store.import_jsonl(PROJECT, fp)
    assert placed(caught) == f"{path}:2:11: not UTF-8 (invalid start byte); save the file as UTF-8"
    with path.open(encoding="utf-8") as fp, pytest.raises(DiagnosticError) as caught:
        store.import_jsonl(PROJECT, fp)
    assert placed(caught) == (
        f"{path}:1:None: not UTF-8 (invalid start byte) at or after this line; save the file as UTF-8"
    )
    assert store.count(PROJECT) == 0


def test_a_failure_while_writing_rolls_the_whole_import_back(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.add(PROJECT, "already here", id="a")
    before = export(store)
    real_insert = rows.insert
    calls: list[int] = []

    def failing_insert(conn: sqlite3.Connection, memory: Memory) -> None:
        calls.append(1)
        if len(calls) == 30:
            raise sqlite3.OperationalError("disk I/O error")
        real_insert(conn, memory)

    monkeypatch.setattr(rows, "insert", failing_insert)
    lines = ['{"id": "a", "text": "changed"}'] + [f'{{"text": "new {i}"}}' for i in range(50)]
    with pytest.raises(StoreError, match="failed: disk I/O error"):
        store.import_jsonl(PROJECT, lines)
    assert export(store) == before
