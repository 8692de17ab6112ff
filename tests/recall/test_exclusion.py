"""Exclusion phrases match whole words however they are written (recall/exclusion.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memhooks.backends.base import Hit
from memhooks.recall.exclusion import Exclusions, words

CASES = json.loads((Path(__file__).parent / "data" / "exclusions.json").read_text("utf-8"))["cases"]


def hit(field: str, value: str) -> Hit:
    return Hit(
        "m1",
        value if field == "text" else "unrelated text",
        1.0,
        tags=[value] if field == "tag" else [],
        entities=[value] if field == "entity" else [],
        scope=value if field == "scope" else "",
        files=[value] if field == "file" else [],
    )


@pytest.mark.parametrize(("phrase", "field", "value", "excluded"), CASES)
def test_a_phrase_excludes_whole_words_however_written(
    phrase: str, field: str, value: str, excluded: bool
) -> None:
    found = Exclusions([phrase]).matches(hit(field, value))
    assert found == (phrase if excluded else None)


def test_words_are_normalized_case_folded_and_split_at_non_letters() -> None:
    assert words("Legacy-PayPal's\u00a0SECRETS_v2") == ["legacy", "paypal", "s", "secrets", "v2"]
    assert words("se\u00adcret") == ["secret"] and words("") == [] and words("---") == []


def test_obsolete_marks_exclude_and_blank_phrases_do_not() -> None:
    gone = Hit("m2", "anything", 1.0, obsolete=True)
    assert Exclusions([]).matches(gone) == "obsolete"
    blank = Exclusions(["  ", ""])
    assert not blank and blank.matches(hit("text", "anything")) is None


def test_possessives_are_dropped_as_the_regular_expression_drops_them() -> None:
    """The hook path strips possessives without re: the result is re.sub's, exactly."""
    import random
    import re

    from memhooks.recall.exclusion import _without_possessives

    pattern = re.compile(r"(?<=\w)['\u2019][sS]\b")
    rnd = random.Random(7)
    samples = ["PayPal's", "PayPal\u2019s API", "it's", "'s", "x'sy", "a's b'S c's!", "Bob's's", "_'s", "\u00e4's"]
    samples += ["".join(rnd.choice("ab'\u2019sS_ !.\u00e41") for _ in range(rnd.randint(0, 8))) for _ in range(5000)]
    assert [_without_possessives(s) for s in samples] == [pattern.sub("", s) for s in samples]
