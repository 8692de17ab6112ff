"""``add_many`` and ``stored``: importers that choose ids and re-run."""

from __future__ import annotations

import pytest

from memhooks.errors import StoreError
from memhooks.store import Memory, MemoryStore


def memory(id: str, text: str = "a change", **fields: object) -> Memory:
    values: dict[str, object] = {
        "id": id, "project": "ignored", "scope": "", "files": [], "text": text, "kind": None,
        "tags": [], "entities": [], "created_at": "2024-01-31T12:00:00Z", "source": "test",
    }  # fmt: skip
    values.update(fields)
    return Memory(**values)  # type: ignore[arg-type]


def test_new_ids_are_added_in_one_go_and_known_ones_left_alone(store: MemoryStore) -> None:
    assert store.add_many("p", [memory("a", files=["./src//x.py"]), memory("b")]) == ["a", "b"]
    before = store.get("a", project="p")
    assert before is not None and before.files == ["src/x.py"] and before.project == "p"
    assert store.add_many("p", [memory("a", "changed"), memory("c"), memory("c", "again")]) == ["c"]
    assert store.get("a", project="p") == before
    assert store.get("c", project="p").text == "a change"  # type: ignore[union-attr]
    assert store.stored("p", ["a", "x", "c", "a"]).keys() == {"a", "c"}
    assert store.stored("other", ["a"]) == {}


def test_one_bad_memory_writes_nothing(store: MemoryStore) -> None:
    with pytest.raises(
        StoreError, match=r"cannot record the memory 'bad': `created_at` 'yesterday'"
    ):
        store.add_many("p", [memory("ok"), memory("bad", created_at="yesterday")])
    assert store.count("p") == 0


def test_many_ids_are_looked_up_past_sqlite_s_variable_limit(store: MemoryStore) -> None:
    ids = [f"m{n}" for n in range(1500)]
    assert len(store.add_many("p", [memory(i) for i in ids])) == 1500
    assert store.stored("p", [*ids, "nope"]).keys() == set(ids)
