"""What the pre-tool edit's shortcut rests on (:func:`memhooks.hook.told.quiet_store`):
the code's names never tell a commit's memory, so only another memory makes them
search."""

from __future__ import annotations

from memhooks.store import MemoryStore


def test_a_store_of_commits_alone_holds_nothing_beyond_history(store: MemoryStore) -> None:
    store.add("p", "fix: cap retries", source="git:" + "a" * 40)
    assert not store.beyond_history("p")
    note, _ = store.remember("p", "Retries are capped at four")
    assert store.beyond_history("p") and not store.beyond_history("q")
    store.mark_obsolete(note.id, project="p")
    assert not store.beyond_history("p")
