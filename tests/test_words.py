"""memhooks.words finds words without ``re`` (the prompt hook must not load it) and must
find exactly what the patterns find: the relevance floor and conversations' topics read
words through it."""

from __future__ import annotations

import re

import pytest
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


def _stem(word: str) -> str:
    """The light stemmer as first written (memhooks.words.stem skips words whose last
    letter no ending has)."""
    if len(word) <= 4 or "_" in word or not word.isalpha():
        return word
    for ending in ("ing", "ed", "es", "s"):
        if word.endswith(ending) and len(word) - len(ending) >= 4:
            word = word[: -len(ending)]
            if ending in ("ing", "ed") and word[-1] == word[-2] and word[-1] not in "aeiouls":
                word = word[:-1]
            break
    return word[:-1] if word.endswith("e") and len(word) > 4 else word


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=EDGES + "AbCdeEgGinsSxYz", max_size=60) | st.text(max_size=60))
def test_content_words_are_the_patterns_words_lowered_stemmed_without_common_ones(
    text: str,
) -> None:
    # each distinct run read once, lower-cased by a table, each word stemmed once
    found = {w.lower() for w in re.findall(words.WORD, text)}
    assert words.content_words(text) == {_stem(w) for w in found if w not in words._STOP}


@given(st.text(alphabet="abdegilnorsu_E1", max_size=12))
def test_the_stemmer_is_the_rule_as_written(word: str) -> None:
    assert words.stem(word) == _stem(word)


def test_each_word_is_stemmed_once_and_the_memory_stays_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[str] = []
    monkeypatch.setattr(words, "_STEMS", {})
    monkeypatch.setattr(words, "_TEXTS", {})
    monkeypatch.setattr(words, "MOST_STEMS", 3)
    monkeypatch.setattr(words, "stem", lambda w: calls.append(w) or _stem(w))
    assert words.content_words("merging windows") == {"merg", "window"}
    assert words.content_words("Merging windows, merging!") == {"merg", "window"}
    assert sorted(calls) == ["merging", "windows"]  # asked once per word
    assert words.content_words("merging windows") == {"merg", "window"}  # the text: once
    assert list(words._TEXTS) == ["merging windows", "Merging windows, merging!"]
    words.content_words("retries overlapping")  # past the bound: the memory starts afresh
    assert len(words._STEMS) == 2


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("no_proxy is ignored when using sessions.", ["no_proxy"]),
        ("use os.environ in requests.Session.send, e.g. here", ["os.environ", "requests.Session.send"]),
        ("see src/requests/utils.py: `proxies` and NoProxy", ["proxies", "src/requests/utils.py", "NoProxy"]),
        ("\"mergeWindows\" (MAX_ATTEMPTS)", ["mergeWindows", "MAX_ATTEMPTS"]),
        # newcomer 13:48: a CamelCase name that begins with an acronym is code
        ("make the HTTPAdapter retry behaviour configurable, on URLError", ["HTTPAdapter", "URLError"]),
        # prose: acronyms, versions, numbers, "and/or", a clause's end, a one-letter part
        ("API and README at 2.31.0, and/or TCP/IP. Then e.g. i.e. it fails", []),
        ("APIs and URLs over IPv4 with OAuth at 10 MBps", []),
    ],
)
def test_code_names_are_what_prose_says_of_code(text: str, names: list[str]) -> None:
    assert words.code_names(text) == names
