"""Memories that can be corrected (issue 22 item 7): the same text said again in the same
folder is one memory, and ``remember --replaces ID`` supersedes an older one, which then
stays out of recall as a reverted commit does."""

from __future__ import annotations

from pathlib import Path

import pytest

from memhooks.cli import main
from memhooks.errors import StoreError
from memhooks.recall import recall
from memhooks.store import MemoryStore, project_id
from memhooks.store import store as module
from memhooks.store.memory import Draft

ROOT_HOOK = "---\nschema: memhooks/v2\n---\n"


def test_the_same_text_in_the_same_folder_is_one_memory(store: MemoryStore) -> None:
    first, added = store.remember(
        Draft("Tokens expire after 15 min", project="p", scope="auth", tags=["a"])
    )
    again, added_again = store.remember(
        Draft(
            "  Tokens expire after 15 min\n",
            project="p",
            scope="auth",
            tags=["b"],
            files=["auth/t.py"],
        )
    )
    assert (added, added_again) == (True, False)
    assert again.id == first.id
    stored = store.get(first.id, project="p")
    assert stored is not None
    assert (stored.tags, stored.files) == (["a", "b"], ["auth/t.py"])  # what was said again adds
    assert store.count("p") == 1
    # another folder, or other words, is another memory
    assert store.remember(Draft("Tokens expire after 15 min", project="p", scope=""))[1] is True
    assert store.remember(Draft("tokens expire after 15 min", project="p", scope="auth"))[1] is True


def test_a_draft_says_when_it_was_made_and_a_bad_time_records_nothing(
    store: MemoryStore,
) -> None:
    # the one record every remember takes carries created_at: the store keeps it (in UTC)
    dated, _ = store.remember(Draft("Dated", project="p", created_at="2026-11-30T13:00:00+01:00"))
    assert dated.created_at == "2026-11-30T12:00:00Z"
    with pytest.raises(StoreError, match="cannot record the memory"):
        store.remember(Draft("Undated", project="p", created_at="yesterday"))
    assert [m.text for m in store.list("p")] == ["Dated"]


def test_replaces_supersedes_the_older_memory(store: MemoryStore) -> None:
    old, _ = store.remember(Draft("Sessions time out after 15 min", project="p"))
    new, added = store.remember(
        Draft("Sessions time out after 30 min", project="p"), replaces=old.id
    )
    assert added
    stored = store.get(old.id, project="p")
    assert stored is not None and stored.obsolete and stored.superseded_by == new.id
    assert [m.id for m, _ in store.search("p", "sessions time out")] == [new.id]
    # saying the old text again is a new, live memory: it was superseded, not forgotten
    assert store.remember(Draft("Sessions time out after 15 min", project="p"))[1] is True


def test_replaces_an_unknown_or_the_same_memory_records_nothing(store: MemoryStore) -> None:
    kept, _ = store.remember(Draft("Keep this", project="p"))
    with pytest.raises(StoreError, match="there is no memory 'nope'"):
        store.remember(Draft("New text", project="p"), replaces="nope")
    with pytest.raises(StoreError, match="cannot supersede itself"):
        store.remember(Draft("Keep this", project="p"), replaces=kept.id)
    assert [m.text for m in store.list("p", include_obsolete=True)] == ["Keep this"]
    with pytest.raises(StoreError, match="there is no memory"):  # another project's id
        store.remember(Draft("Other", project="q"), replaces=kept.id)


def test_the_cli_says_what_happened_and_recall_leaves_the_replaced_rule_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    store = str(tmp_path / "s.sqlite3")
    base = ["--cwd", str(root), "--store", store]
    assert main(["remember", "Access tokens live 15 min", *base]) == 0
    old = capsys.readouterr().out.split()[1]
    assert main(["remember", "Access tokens live 15 min", *base]) == 0
    assert capsys.readouterr().out == (
        f"Already remembered as {old} in project {project_id(str(root))} (scope .)\n"
    )
    assert main(["remember", "Access tokens live 30 min", "--replaces", old, *base]) == 0
    out = capsys.readouterr().out
    new = out.split()[1]
    assert out.endswith(f"; it replaces {old}, which recall now leaves out\n")
    result = recall(str(root), prompt="how long do access tokens live", store_path=store)
    assert [m["id"] for m in result["memories"]] == [new]
    assert main(["memories", "list", "--all", *base]) == 0
    assert f"Access tokens live 15 min  (superseded by {new})" in capsys.readouterr().out
    with MemoryStore(store) as opened:
        assert opened.count(project_id(str(root))) == 2


def test_a_misspelt_field_is_an_error_not_a_memory_without_it(store: MemoryStore) -> None:
    # add and remember take a memory's fields as plain keywords: one they do not know is refused
    for write in (store.add, store.remember):
        with pytest.raises(TypeError, match="unexpected keyword argument 'tag'"):
            write("p", "Tokens expire after 15 min", tag=["auth"])  # type: ignore[call-arg]
    assert store.count("p") == 0


def test_add_retires_what_it_supersedes_when_its_transaction_runs_again(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # store.connection.write runs the work again after a busy lock: ids given as a
    # generator must still be marked on the run that commits (else both stay live)
    real = module.write

    def busy_once(conn, path, timeout, work, *rest):  # type: ignore[no-untyped-def]
        conn.execute("BEGIN IMMEDIATE")
        work(conn)
        conn.execute("ROLLBACK")  # as after SQLITE_BUSY: nothing of the first run is kept
        return real(conn, path, timeout, work, *rest)

    old = store.add("p", "Session checkpoint")
    monkeypatch.setattr(module, "write", busy_once)
    new = store.add("p", "Session record", supersedes=(i for i in [old.id]))
    stored = store.get(old.id, project="p")
    assert stored is not None
    assert (stored.obsolete, stored.superseded_by) == (True, new.id)
