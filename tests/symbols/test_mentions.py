"""Whether a text names a symbol: whole identifiers only; a name that is an everyday word
only where the text writes it as code."""

from __future__ import annotations

import pytest

from memhooks.symbols.mentions import code_shaped, mentions


@pytest.mark.parametrize(
    ("name", "shaped"),
    [("downtime_minutes", True), ("MAX_ATTEMPTS", True), ("parseArgs", True), ("get_u32", True),
     ("ipv6", True), ("merge", False), ("Retrier", False), ("usage", False), ("_private", False)],
)  # fmt: skip
def test_code_shaped_names_are_not_everyday_words(name: str, shaped: bool) -> None:
    assert code_shaped(name) is shaped


@pytest.mark.parametrize(
    "text",
    ["downtime_minutes sums every window", "see `downtime_minutes`.", "(downtime_minutes)",
     "report.downtime_minutes(x)"],
)  # fmt: skip
def test_a_code_shaped_name_counts_wherever_it_is_said(text: str) -> None:
    assert mentions(text, "downtime_minutes")


@pytest.mark.parametrize(
    "text",
    ["downtime_minutes_total is new", "old_downtime_minutes", "DOWNTIME_MINUTES", "downtime minutes"],
)  # fmt: skip
def test_a_name_counts_as_a_whole_identifier_only(text: str) -> None:
    assert not mentions(text, "downtime_minutes")


@pytest.mark.parametrize(
    ("text", "named"),
    [("We decided to merge overlapping windows.", False), ("Merge first, then sum.", False),
     ("so we merge.", False), ("call merge() first", True), ("`merge` sorts by start", True),
     ("incidents.merge sorts by start", True), ("merge.cache holds them", True)],
)  # fmt: skip
def test_an_everyday_word_counts_only_written_as_code(text: str, named: bool) -> None:
    assert mentions(text, "merge") is named
