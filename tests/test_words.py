"""memhooks.words finds words without ``re`` (the prompt hook must not load it) and must
find exactly what the patterns find: the relevance floor and conversations' topics read
words through it."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from memhooks import words

#: Characters where the patterns' edges are: letters, digits, ``_``, ``.``, a space, and
#: others (a non-ASCII letter, an Arabic-Indic and a full-width digit, a lone surrogate).
EDGES = "aZq_09.5 -:/`é中٣３\ud800”"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=EDGES, max_size=40) | st.text(max_size=40))
def test_words_and_identifiers_are_what_the_patterns_find(text: str) -> None:
    assert words.words(text) == re.findall(words.WORD, text)
    assert words.identifiers(text) == re.findall(words.IDENTIFIER, text)


def test_words_of_prose_code_and_numbers() -> None:
    text = "Fix `MAX_TOTAL_2` in tests/test_x.py::test_y — v1.5 rounds 3.14.15 half-even, ab1.5."
    assert words.words(text) == re.findall(words.WORD, text) == [
        "Fix", "MAX_TOTAL_2", "tests", "test_x", "test_y", "1.5", "rounds", "3.14", "15",
        "half", "even", "ab1", "5",
    ]  # fmt: skip
    assert words.identifiers(text)[:6] == ["Fix", "MAX_TOTAL_2", "in", "tests", "test_x", "py"]


def test_a_digit_of_another_script_counts_as_the_pattern_counts_it() -> None:
    assert words.words("total ٣٤ and ３") == ["total", "٣٤", "and", "３"]


def test_content_words_are_unchanged() -> None:
    text = "Merging the staging windows: retries overlapping MERGE_GAP_S at 10.5 s"
    assert words.content_words(text) == frozenset(
        {"merg", "stag", "window", "retri", "overlap", "merge_gap_s", "10.5"}  # as with re
    )


def test_a_remembered_stem_is_the_stem_and_the_memory_stays_bounded() -> None:
    calls: list[str] = []

    def stemmer(word: str) -> str:
        calls.append(word)
        return words.stem(word)

    stemmed = words.memo(stemmer, most=2)
    assert [stemmed(w) for w in ("merging", "merging", "windows")] == ["merg", "merg", "window"]
    assert calls == ["merging", "windows"]  # asked once per word
    stemmed("retries")  # a third word: the memory starts afresh
    stemmed("merging")
    assert calls == ["merging", "windows", "retries", "merging"]
