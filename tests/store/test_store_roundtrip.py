"""What goes into the store comes back out: add/get/list/forget/obsolete, across reopen and projects."""

from __future__ import annotations

import re

import pytest
from store_fakes import FakeClock

from memhooks.errors import StoreError
from memhooks.store import Memory, MemoryStore

UNICODE_TEXT = "Ünïcödé survives: 日本語のメモ, emoji 🧠, RTL שלום, combining e\u0301"


def test_add_returns_what_get_and_a_reopened_store_return(
    store_path: str, clock: FakeClock
) -> None:
    with MemoryStore(store_path, clock=clock) as store:
        added = store.add(
            "proj",
            f"  {UNICODE_TEXT}\n",
            scope=".\\src//api/",
            files=["src\\api\\handlers.py", "./src/api/handlers.py", "README.md"],
            kind="decision",
            tags=["Build", "build", " ", "café"],
            entities=["Müller", "SQLite"],
            source="test",
        )
        assert store.get(added.id) == added
    with MemoryStore(store_path) as reopened:
        again = reopened.get(added.id)
    assert again == added
    assert again.to_json() == {
        "id": added.id,
        "project": "proj",
        "scope": "src/api",
        "files": ["src/api/handlers.py", "README.md"],
        "text": UNICODE_TEXT,
        "kind": "decision",
        "tags": ["Build", "build", "café"],
        "entities": ["Müller", "SQLite"],
        "created_at": "2026-11-30T12:00:00Z",
        "source": "test",
        "obsolete": False,
        "superseded_by": None,
    }


def test_generated_ids_sort_in_creation_order(store: MemoryStore, clock: FakeClock) -> None:
    ids = [store.add("proj", f"note {i}").id for i in range(5)]
    clock.advance(0.001)
    ids.append(store.add("proj", "later").id)
    assert ids == sorted(ids)
    assert len(set(ids)) == len(ids)


def test_list_is_newest_first_and_filters_by_exact_scope(
    store: MemoryStore, clock: FakeClock
) -> None:
    first = store.add("proj", "root note")
    clock.advance(60)
    second = store.add("proj", "api note", scope="src/api")
    clock.advance(60)
    third = store.add("proj", "src note", scope="src")
    store.add("other", "another project's note")

    assert [m.id for m in store.list("proj")] == [third.id, second.id, first.id]
    assert [m.id for m in store.list("proj", scope="./src/")] == [third.id]
    assert [m.id for m in store.list("proj", scope=".")] == [first.id]
    assert [m.id for m in store.list("proj", limit=1)] == [third.id]
    assert store.count("proj") == 3


def test_forget_deletes_from_list_and_search(store: MemoryStore) -> None:
    memory = store.add("proj", "the deploy script needs bash 5", files=["deploy.sh"])
    assert store.forget(memory.id) is True
    assert store.get(memory.id) is None
    assert store.search("proj", "deploy bash") == []
    assert store.candidates_by_scope("proj", [""], ["deploy.sh"]) == []
    assert store.forget(memory.id) is False


def test_mark_obsolete_hides_a_memory_unless_asked(store: MemoryStore) -> None:
    old = store.add("proj", "use tox for tests")
    new = store.add("proj", "use nox for tests")
    marked = store.mark_obsolete(old.id, superseded_by=new.id)
    assert (marked.obsolete, marked.superseded_by) == (True, new.id)
    assert store.get(old.id) == marked
    assert [m.id for m, _ in store.search("proj", "tests")] == [new.id]
    assert {m.id for m, _ in store.search("proj", "tests", include_obsolete=True)} == {
        old.id,
        new.id,
    }
    assert [m.id for m in store.list("proj")] == [new.id]
    assert store.count("proj", include_obsolete=False) == 1


def test_mark_obsolete_refuses_unknown_ids(store: MemoryStore) -> None:
    memory = store.add("proj", "a note")
    store.add("other", "elsewhere", id="foreign")
    with pytest.raises(StoreError, match="there is no memory 'nope'"):
        store.mark_obsolete("nope")
    with pytest.raises(StoreError, match="no memory 'foreign' in project 'proj'"):
        store.mark_obsolete(memory.id, superseded_by="foreign")
    with pytest.raises(StoreError, match="cannot supersede itself"):
        store.mark_obsolete(memory.id, superseded_by=memory.id)
    assert store.get(memory.id) == memory


def test_projects_share_one_file_but_not_their_memories(store: MemoryStore) -> None:
    a = store.add("github.com/acme/app", "cache invalidation is in the worker", id="m1")
    b = store.add("/home/me/scratch", "cache invalidation is in the worker", id="m1")
    assert [m for m, _ in store.search("github.com/acme/app", "cache")] == [a]
    assert store.list("/home/me/scratch") == [b]
    assert store.get("m1", project="/home/me/scratch") == b
    with pytest.raises(StoreError, match="'m1' is used by more than one project"):
        store.get("m1")


def test_add_refuses_an_existing_id_and_bad_fields(store: MemoryStore) -> None:
    store.add("proj", "first", id="fixed")
    cases = [
        ({"text": "again", "id": "fixed"}, "memory 'fixed' already exists in project 'proj'"),
        ({"text": "   "}, "cannot record the memory: `text` is blank"),
        (
            {"text": "x", "files": ["/etc/passwd"]},
            "is absolute; give it relative to the project root",
        ),
        ({"text": "x", "scope": "../outside"}, "climbs above the project root"),
        ({"text": "x", "tags": "single"}, "`tags` must be a list of strings, got a single string"),
        ({"text": "x", "files": "src/a.py"}, "`files` must be a list of root-relative paths"),
        ({"text": "x", "created_at": "2026-11-30 12:00"}, "has no time zone; add `Z`"),
        ({"text": "x", "id": "has space"}, "contains whitespace"),
    ]
    for kwargs, message in cases:
        with pytest.raises(StoreError, match=re.escape(message)):
            store.add("proj", **kwargs)  # type: ignore[arg-type]
    assert store.count("proj") == 1


def test_created_at_is_stored_in_utc(store: MemoryStore) -> None:
    memory = store.add("proj", "x", created_at="2026-11-30T13:30:15.75+01:30")
    assert memory.created_at == "2026-11-30T12:00:15Z"
    assert store.get(memory.id) == memory


def test_an_in_memory_store_works_like_a_file(clock: FakeClock) -> None:
    with MemoryStore(":memory:", clock=clock) as store:
        memory = store.add("proj", "kept in memory", scope="src")
        assert [m for m, _ in store.search("proj", "memory")] == [memory]
    with MemoryStore(":memory:") as fresh:
        assert fresh.count("proj") == 0


def test_memory_objects_compare_by_value() -> None:
    def make(obsolete: bool = False) -> Memory:
        return Memory("i", "p", "", [], "t", None, [], [], "2026-11-30T12:00:00Z", "s", obsolete)

    assert make() == make()
    assert make() != make(obsolete=True)
