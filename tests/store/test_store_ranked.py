"""The recall hook's queries: bounded BM25 (`ranked`), the folder cue (`cue`), rows by pk.

`ranked` must give exactly `search`'s ranking whenever no word is dropped, and its
documented approximation when the store makes words common.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from store_fakes import DATA, FakeClock

from memhooks.store import MemoryStore, ranking

PROJECT = "github.com/acme/app"
QUERIES = [
    "sqlite locked writes",
    "tie breaker identical",
    "migrations",
    "search budget unicode",
    "decision migrations search sqlite wal",
    "the",
    "",
    "nothing matches this",
]


def conn(store: MemoryStore):  # type: ignore[no-untyped-def]
    return store._conn


def pks_to_ids(store: MemoryStore, ranked: list[tuple[int, float]]) -> list[tuple[str, float]]:
    found = ranking.memories(conn(store), [pk for pk, _ in ranked])
    return [(found[pk].id, round(score, 9)) for pk, score in ranked]


@pytest.fixture
def ranked_store(store: MemoryStore) -> MemoryStore:
    store.import_jsonl(PROJECT, (DATA / "ranking.jsonl").read_text("utf-8").splitlines())
    return store


@pytest.mark.parametrize("query", QUERIES)
def test_ranked_is_search_exactly_when_no_word_is_common(
    ranked_store: MemoryStore, query: str
) -> None:
    exact = [(m.id, round(score, 9)) for m, score in ranked_store.search(PROJECT, query, limit=50)]
    fast = ranking.ranked(conn(ranked_store), PROJECT, query, limit=50)
    assert pks_to_ids(ranked_store, fast) == exact


def test_ranked_ranks_the_same_whatever_the_insertion_order(tmp_path: Path) -> None:
    lines = (DATA / "ranking.jsonl").read_text("utf-8").splitlines()
    outcomes = []
    for name, order in (("forward", lines), ("backward", lines[::-1])):
        with MemoryStore(tmp_path / f"{name}.sqlite3", clock=FakeClock()) as store:
            store.import_jsonl(PROJECT, order)
            outcomes.append(
                [
                    pks_to_ids(store, ranking.ranked(conn(store), PROJECT, q, limit=5))
                    for q in QUERIES
                ]
            )
    assert outcomes[0] == outcomes[1]
    assert [memory_id for memory_id, _ in outcomes[0][1]][:2] == ["r07", "r08"]


@pytest.fixture
def skewed(store: MemoryStore, monkeypatch: pytest.MonkeyPatch) -> MemoryStore:
    """Twelve memories say "cache"; two say "lock"; one says "vacuum"; COMMON is 5."""
    monkeypatch.setattr(ranking, "COMMON", 5)
    for i in range(12):
        store.add(PROJECT, f"cache note {i}", id=f"c{i:02}")
    store.add(PROJECT, "cache lock ordering", id="lock-1")
    store.add(PROJECT, "lock files are advisory", id="lock-2")
    store.add(PROJECT, "run vacuum monthly", id="vacuum")
    return store


def ids(store: MemoryStore, query: str, **kwargs: object) -> list[str]:
    found = ranking.ranked(conn(store), PROJECT, query, limit=50, **kwargs)  # type: ignore[arg-type]
    return [memory_id for memory_id, _ in pks_to_ids(store, found)]


def test_a_common_word_is_dropped_and_rarer_words_decide(skewed: MemoryStore) -> None:
    # "cache" is in 13 memories (> COMMON): only memories with "lock" match, and their
    # order is BM25 over "lock" alone.
    assert set(ids(skewed, "cache lock")) == {"lock-1", "lock-2"}
    exact = [m.id for m, _ in skewed.search(PROJECT, "lock", limit=50)]
    assert ids(skewed, "cache lock") == exact


def test_words_are_kept_rarest_first_within_the_postings_bound(
    skewed: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ranking, "POSTINGS", 2)  # "vacuum" (1) fits, then "lock" (2) does not
    assert ids(skewed, "lock vacuum") == ["vacuum"]
    monkeypatch.setattr(ranking, "POSTINGS", 3)
    assert set(ids(skewed, "lock vacuum")) == {"vacuum", "lock-1", "lock-2"}


def test_a_query_of_common_words_scores_only_the_newest_matches(skewed: MemoryStore) -> None:
    found = ids(skewed, "cache")
    assert len(found) == 5  # COMMON newest matches, best BM25 first
    assert set(found) == {"c08", "c09", "c10", "c11", "lock-1"}


def test_frequencies_are_memoized_per_project_in_the_dict_given(skewed: MemoryStore) -> None:
    counts: dict[str, int] = {}
    ranking.ranked(conn(skewed), PROJECT, "cache lock nowhere", limit=5, frequencies=counts)
    key = PROJECT + "\x1f"
    # Counted up to COMMON + 1; the project holds most of the store (key alone: 1).
    assert counts == {key: 1, key + "cache": 6, key + "lock": 2, key + "nowhere": 0}
    counts[key + "lock"] = 0  # a memo is trusted: a word it says is absent is not searched
    assert ids(skewed, "lock vacuum", frequencies=counts) == ["vacuum"]


def test_a_word_common_elsewhere_is_rare_here(skewed: MemoryStore) -> None:
    for i in range(3):
        skewed.add("other", f"vacuum log {i}")
    skewed.add("other", "cache")
    # "cache" is common in PROJECT, not in "other"; "vacuum" the other way round.
    found = ranking.ranked(conn(skewed), "other", "cache vacuum", limit=10)
    assert len(found) == 4
    assert ids(skewed, "cache vacuum") == ["vacuum"]


def test_ties_and_obsolete_rows_past_the_first_fetch_rank_as_a_full_sort(
    store: MemoryStore,
) -> None:
    for i in range(60):
        store.add(PROJECT, "identical tie text", id=f"t{59 - i:02}")
    for i in range(0, 60, 3):
        store.mark_obsolete(f"t{i:02}", project=PROJECT)
    exact = [(m.id, round(s, 9)) for m, s in store.search(PROJECT, "identical tie", limit=25)]
    fast = ranking.ranked(conn(store), PROJECT, "identical tie", limit=25)
    assert pks_to_ids(store, fast) == exact
    assert [memory_id for memory_id, _ in exact][:3] == ["t01", "t02", "t04"]


def test_ranked_stays_in_its_project_and_leaves_obsolete_memories_out(
    ranked_store: MemoryStore,
) -> None:
    ranked_store.add("elsewhere", "WAL mode everywhere")
    ranked_store.mark_obsolete("r02", project=PROJECT)
    found = ranking.ranked(conn(ranked_store), PROJECT, "wal database", limit=10)
    assert [memory_id for memory_id, _ in pks_to_ids(ranked_store, found)] == ["r01"]
    with_obsolete = ranking.ranked(
        conn(ranked_store), PROJECT, "wal database", limit=10, include_obsolete=True
    )
    assert {memory_id for memory_id, _ in pks_to_ids(ranked_store, with_obsolete)} == {"r01", "r02"}


@pytest.mark.parametrize("limit", [0, -1])
def test_ranked_with_no_room_returns_nothing(ranked_store: MemoryStore, limit: int) -> None:
    assert ranking.ranked(conn(ranked_store), PROJECT, "sqlite", limit=limit) == []


def cue_ids(store: MemoryStore, scope: str | None, files: list[str], limit: int = 10) -> list[str]:
    pks = ranking.cue(conn(store), PROJECT, scope, files, limit=limit)
    found = ranking.memories(conn(store), pks)
    return [found[pk].id for pk in pks]


def test_cue_puts_most_shared_files_first_then_depth_then_newest(ranked_store: MemoryStore) -> None:
    ranked_store.add(
        PROJECT, "touches both", files=["src/store/db.py", "src/store/schema.py"], id="both"
    )
    files = ["src/store/db.py", "./src/store/schema.py"]
    assert cue_ids(ranked_store, None, files) == ["both", "r03", "r02", "r01"]
    # Then memories scoped exactly to the folder, newest first, each once.
    assert cue_ids(ranked_store, "src/store", files) == ["both", "r03", "r02", "r01", "r08", "r07"]
    assert cue_ids(ranked_store, "src/store", files, limit=2) == ["both", "r03"]
    assert cue_ids(ranked_store, "src/store", []) == ["r08", "r07", "r03", "r02", "r01"]


def test_cue_ignores_paths_that_cannot_be_files_and_other_projects(
    ranked_store: MemoryStore,
) -> None:
    ranked_store.add("elsewhere", "same file, other project", files=["src/store/db.py"])
    assert cue_ids(ranked_store, None, ["/etc/passwd", "../up", "", "src/store/db.py"]) == [
        "r02",
        "r01",
    ]
    assert cue_ids(ranked_store, None, []) == []
    assert ranking.cue(conn(ranked_store), PROJECT, "src/store", ["src/store/db.py"], limit=0) == []


def test_cue_leaves_obsolete_memories_out(ranked_store: MemoryStore) -> None:
    ranked_store.mark_obsolete("r02", project=PROJECT)
    assert cue_ids(ranked_store, None, ["src/store/db.py"]) == ["r01"]


def test_memories_by_pk_skip_unknown_pks(ranked_store: MemoryStore) -> None:
    pk = conn(ranked_store).execute("SELECT pk FROM memories WHERE id = 'r05'").fetchone()[0]
    found = ranking.memories(conn(ranked_store), [pk, 10_000])
    assert list(found) == [pk]
    assert found[pk] == ranked_store.get("r05", project=PROJECT)
