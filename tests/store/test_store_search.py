"""Full-text search: hostile input never breaks it, ranking is stable, filters mean what they say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from store_fakes import DATA, FakeClock

from memhooks.store import MemoryStore, ranking
from memhooks.store.search import MAX_TERMS, match_expression

PROJECT = "github.com/acme/app"


def load(store: MemoryStore, lines: list[str]) -> None:
    store.import_jsonl(PROJECT, lines, source="fixture")


@pytest.fixture
def ranked(store: MemoryStore) -> MemoryStore:
    load(store, (DATA / "ranking.jsonl").read_text(encoding="utf-8").splitlines())
    return store


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("WAL mode", '"wal" OR "mode"'),
        ('say "hi', '"say" OR "hi"'),
        ("NEAR(foo, bar) AND baz*", '"near" OR "foo" OR "bar" OR "baz"'),
        ("-x OR y:z ^w {a b}", '"x" OR "y" OR "z" OR "w" OR "b"'),
        ("the and of", '"the" OR "and" OR "of"'),  # only stopwords: keep them
        ("Café café CAFÉ", '"café"'),
        ("日本語のメモ — ok", '"日本語のメモ" OR "ok"'),
        ("", ""),
        ('" * ( ) - + : ^ — …', ""),
    ],
)
def test_match_expression_quotes_words_and_drops_syntax(text: str, expected: str) -> None:
    assert match_expression(text) == expected


def test_match_expression_caps_the_number_of_words() -> None:
    words = [f"w{i}" for i in range(MAX_TERMS + 10)]
    assert match_expression(" ".join(words)).count(" OR ") == MAX_TERMS - 1


@pytest.mark.parametrize(
    "query",
    [
        '"',
        "*",
        "NEAR(",
        "-",
        "AND",
        "",
        "   ",
        "OR OR NOT",
        '"unbalanced',
        "text:wal",
        "^",
        "(",
        ")",
        "{text tags}: wal",
        "wal*",
        "NEAR(wal mode, 2)",
        "\x00",
        "a" * 10_000,
        "'; DROP TABLE memories; --",
    ],
)
def test_hostile_queries_never_raise(ranked: MemoryStore, query: str) -> None:
    results = ranked.search(PROJECT, query, limit=5)
    assert isinstance(results, list)
    assert ranked.count(PROJECT) == 10


def test_words_inside_syntax_still_find_their_memory(ranked: MemoryStore) -> None:
    for query in ('"WAL', "NEAR(wal", "-wal", "wal*", "{text}: wal", "WAL-mode"):
        assert "r01" in [m.id for m, _ in ranked.search(PROJECT, query)], query


def test_porter_stemming_and_diacritics(ranked: MemoryStore) -> None:
    assert "r03" in [m.id for m, _ in ranked.search(PROJECT, "migrate")]
    ranked.add(PROJECT, "Ask Müller about the cafe menu", entities=["Jürgen Müller"])
    assert [m.text for m, _ in ranked.search(PROJECT, "café")] == ["Ask Müller about the cafe menu"]


def test_unicode_tags_and_entities_are_searchable(store: MemoryStore) -> None:
    memory = store.add(PROJECT, "plain text", tags=["日本語"], entities=["Zoë"])
    assert [m for m, _ in store.search(PROJECT, "zoë")] == [memory]
    assert [m for m, _ in store.search(PROJECT, "日本語")] == [memory]


def test_tags_and_entities_outweigh_running_text(store: MemoryStore) -> None:
    in_text = store.add(PROJECT, "notes about caching layers and other things")
    as_tag = store.add(PROJECT, "notes about layers and other things here", tags=["caching"])
    assert [m.id for m, _ in store.search(PROJECT, "caching")] == [as_tag.id, in_text.id]


def test_ranking_is_the_same_whatever_the_insertion_order(tmp_path: Path) -> None:
    lines = (DATA / "ranking.jsonl").read_text(encoding="utf-8").splitlines()
    queries = [
        "sqlite locked writes",
        "tie breaker identical",
        "migrations",
        "search budget unicode",
    ]
    outcomes = []
    for name, order in (("forward", lines), ("backward", lines[::-1])):
        with MemoryStore(tmp_path / f"{name}.sqlite3", clock=FakeClock()) as store:
            load(store, order)
            outcomes.append(
                [
                    [(m.id, round(score, 9)) for m, score in store.search(PROJECT, q)]
                    for q in queries
                ]
            )
            assert outcomes[-1] == [
                [(m.id, round(score, 9)) for m, score in store.search(PROJECT, q)] for q in queries
            ]
    assert outcomes[0] == outcomes[1]
    tie = [memory_id for memory_id, _ in outcomes[0][1]]
    assert tie[:2] == ["r07", "r08"]  # equal scores: the id decides


def test_results_are_best_first_with_positive_scores(ranked: MemoryStore) -> None:
    results = ranked.search(PROJECT, "sqlite database locked", limit=3)
    assert [m.id for m, _ in results][:2] == ["r02", "r01"]
    scores = [score for _, score in results]
    assert all(score > 0 for score in scores)
    assert scores == sorted(scores, reverse=True)
    assert len(ranked.search(PROJECT, "the", limit=2)) == 2


def test_location_filter_is_scope_or_file(ranked: MemoryStore) -> None:
    query = "decision migrations search sqlite wal"

    def ids(**filters: object) -> set[str]:
        return {m.id for m, _ in ranked.search(PROJECT, query, **filters)}  # type: ignore[arg-type]

    assert ids(scopes=["src/store"]) == {"r01", "r02", "r03"}
    assert ids(files=["./src/recall/search.py"]) == {"r09"}
    assert ids(scopes=["src/store"], files=["src/recall/search.py"]) == {"r01", "r02", "r03", "r09"}
    assert ids(scopes=[]) == set()
    assert ids(tags=["SQLITE"]) == {"r01", "r02"}
    assert ids(entities=["fts5"], tags=["search"]) == {"r09"}
    assert ids(entities=["fts5"], tags=["sqlite"]) == set()


def test_search_stays_inside_its_project(ranked: MemoryStore) -> None:
    ranked.add("elsewhere", "WAL mode everywhere")
    assert {m.project for m, _ in ranked.search(PROJECT, "wal mode")} == {PROJECT}
    assert [m.project for m, _ in ranked.search("elsewhere", "wal mode")] == ["elsewhere"]


def test_candidates_prefer_file_hits_then_deeper_scopes_then_newest(ranked: MemoryStore) -> None:
    found = ranked.candidates_by_scope(
        PROJECT, ["src/store", "src", ""], ["src/store/schema.py"], limit=10
    )
    assert [m.id for m in found] == ["r03", "r08", "r07", "r02", "r01", "r10", "r06"]
    newest_two = ranked.candidates_by_scope(PROJECT, ["src/store"], [], limit=2)
    assert [m.id for m in newest_two] == ["r08", "r07"]
    assert ranked.candidates_by_scope(PROJECT, [], []) == []


def test_ranking_fixture_is_what_the_tests_assume() -> None:
    rows = [json.loads(line) for line in (DATA / "ranking.jsonl").read_text("utf-8").splitlines()]
    assert [row["id"] for row in rows] == [f"r{i:02}" for i in range(1, 11)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("no_proxy is ignored", '"proxy" OR "ignored" OR "no proxy"'),
        ("see `os.environ`", '"see" OR "os" OR "environ" OR "os environ"'),
        ('a_"b NEAR(x_y)', '"b" OR "near" OR "x" OR "y" OR "near x y"'),  # no FTS syntax
        ("Fix it. Now", '"fix" OR "now"'),  # a sentence's dot joins no name
    ],
)
def test_a_name_of_code_is_matched_as_a_phrase_of_its_words(text: str, expected: str) -> None:
    assert match_expression(text) == expected


def test_a_name_in_the_query_outranks_a_short_memory_sharing_an_everyday_word(
    store: MemoryStore,
) -> None:
    # requests' history: the .gitignore chore "ignore it" (two words, so BM25 scores
    # "ignored" high) ranked above the commits about no_proxy (lane prompt20).
    load(store, [
        json.dumps({"id": "chore", "text": "ignore it", "files": [".gitignore"]}),
        json.dumps({"id": "about", "text": "Allow use of 'no_proxy' in the proxies argument:"
                    " a session does not need the environment to skip the proxy for a host."}),
        json.dumps({"id": "proxy", "text": "Use the full URL when contacting a proxy"}),
        *(json.dumps({"id": f"other-{n}", "text": f"Release {n}: cookies, redirects and"
                      " timeouts as the changelog says"}) for n in range(12)),
    ])  # fmt: skip
    found = [m.id for m, _ in store.search(PROJECT, "no_proxy is ignored", limit=3)]
    assert found == ["about", "chore", "proxy"]
    ranked = ranking.ranked(store._conn, PROJECT, "no_proxy is ignored", limit=3, names=True)
    assert [pk for pk, _ in ranked] == [
        store._conn.execute("SELECT pk FROM memories WHERE id = ?", (mid,)).fetchone()[0]
        for mid in found
    ]


def test_word_shares_count_each_prompt_word_up_to_just_over_a_third(
    store: MemoryStore, store_path: str
) -> None:
    # The floor's one count of the prompt's words (memhooks.recall.floor: over a third
    # says nothing, over 1 % is common): 300 memories, "widget" in all, "gadget" in 3.
    from memhooks.backends.embedded import FREQUENT_LEAST, EmbeddedBackend

    for n in range(300):
        store.add(PROJECT, f"tune the widget {n}" + (" gadget" if n % 100 == 0 else ""))
    shares = EmbeddedBackend(store).word_shares(PROJECT, "Widget gadget sprocket")
    assert shares == {"widget": 101 / 300, "gadget": 3 / 300, "sprocket": 0.0}
    with MemoryStore(str(Path(store_path).parent / "small.sqlite3")) as small:
        for n in range(FREQUENT_LEAST - 1):
            small.add(PROJECT, f"tune the widget {n}")
        assert EmbeddedBackend(small).word_shares(PROJECT, "widget") == {}  # too few to tell
