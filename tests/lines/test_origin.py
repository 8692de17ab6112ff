"""Where a line a commit wrote came from, by its text (:mod:`memhooks.lines.origin`): the
matching rules the previous owner past a formatter rests on, each held by a case of
``data/origin_cases.json`` (hunks as ``[old_start, new_start, old lines, new lines]``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memhooks.lines.blame import Hunk
from memhooks.lines.origin import origins

CASES = json.loads((Path(__file__).parent / "data" / "origin_cases.json").read_text("utf-8"))


def hunks_of(rows: list[list[object]]) -> list[Hunk]:
    out = []
    for old_start, new_start, old, new in rows:
        hunk = Hunk(int(old_start), int(new_start))  # type: ignore[call-overload]
        hunk.old, hunk.new = list(old), list(new)  # type: ignore[call-overload]
        out.append(hunk)
    return out


@pytest.mark.parametrize("case", CASES["cases"], ids=[c["name"] for c in CASES["cases"]])
def test_a_line_comes_from_the_removed_line_its_text_says(case: dict[str, object]) -> None:
    line = int(case["line"])  # type: ignore[call-overload]
    assert origins(hunks_of(case["hunks"]), [line]) == {line: case["expect"]}  # type: ignore[arg-type]
