"""Schema versions 2 and 3: the change counter that cached rankings key on, and the
vector table of the optional semantic search (its triggers, not the model)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from store_fakes import DATA

from memhooks.store import MemoryStore

PROJECT = "github.com/acme/app"


def state(store: MemoryStore) -> tuple[str, int]:
    row = store._conn.execute("SELECT id, generation FROM store_state").fetchall()
    assert len(row) == 1
    return row[0][0], row[0][1]


def test_every_memory_change_moves_the_generation(store: MemoryStore) -> None:
    store_id, start = state(store)
    seen = [start]

    def moved() -> None:
        current = state(store)
        assert current[0] == store_id and current[1] not in seen  # a value never seen before
        seen.append(current[1])

    memory = store.add(PROJECT, "first")
    moved()
    store.mark_obsolete(memory.id, project=PROJECT)
    moved()
    store.forget(memory.id, project=PROJECT)
    moved()
    store.import_jsonl(PROJECT, ['{"text": "a"}', '{"text": "b"}'])
    moved()
    store.search(PROJECT, "a")
    store.list(PROJECT)
    assert state(store) == (store_id, seen[-1])  # reads never move it


def test_each_store_file_has_its_own_id_kept_across_opens(tmp_path: Path) -> None:
    with MemoryStore(tmp_path / "a.sqlite3") as a, MemoryStore(tmp_path / "b.sqlite3") as b:
        assert state(a)[0] != state(b)[0]
        first = state(a)
    with MemoryStore(tmp_path / "a.sqlite3") as again:
        assert state(again) == first
    assert len(first[0]) == 16


def test_a_version_1_file_gets_a_state_row_once(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript((DATA / "schema_v1.sql").read_text(encoding="utf-8"))
    conn.close()
    with MemoryStore(path) as store:
        first = state(store)
        store.add(PROJECT, "after the upgrade")
    with MemoryStore(path) as store:
        assert state(store)[0] == first[0] and state(store)[1] != first[1]


def vectors(store: MemoryStore) -> dict[str, bytes]:
    rows = store._conn.execute(
        "SELECT m.id, v.vector FROM memory_vectors v JOIN memories m ON m.pk = v.memory"
    )
    return dict(rows.fetchall())


def put_vector(store: MemoryStore, memory_id: str) -> None:
    store._conn.execute(
        "INSERT INTO memory_vectors (memory, model, vector)"
        " SELECT pk, 'test', x'00000000' FROM memories WHERE id = ?",
        (memory_id,),
    )


def test_a_vector_goes_with_its_memory_and_with_its_text(store: MemoryStore) -> None:
    for memory_id in ("kept", "edited", "forgotten"):
        store.add(PROJECT, f"text of {memory_id}", id=memory_id)
        put_vector(store, memory_id)
    before = state(store)[1]
    store.mark_obsolete("kept", project=PROJECT)  # text unchanged: the vector stays
    store.import_jsonl(PROJECT, ['{"id": "edited", "text": "new words"}'])
    store.forget("forgotten", project=PROJECT)
    assert sorted(vectors(store)) == ["kept"]
    assert state(store)[1] != before
    before = state(store)[1]
    store._conn.execute("DELETE FROM memory_vectors")  # a vector change alone moves it too
    assert state(store)[1] != before
