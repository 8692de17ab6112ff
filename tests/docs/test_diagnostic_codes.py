"""The code list has one home, docs/diagnostics.md, and the pages that give the range of
codes give the range the catalogue defines (README said ``MH000``…``MH034`` when MH035
and MH036 existed)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memhooks.catalogue import CATALOGUE

ROOT = Path(__file__).resolve().parents[2]
RANGE = re.compile(r"`(MH\d{3})`…`(MH\d{3})`")
#: The pages that state the range: README (newcomers), the docs, the skill agents read.
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
         ROOT / "src/memhooks/skill/SKILL.md"]  # fmt: skip


def test_the_readme_gives_the_range_of_codes_defined() -> None:
    ranges = RANGE.findall((ROOT / "README.md").read_text(encoding="utf-8"))
    assert ranges == [(min(CATALOGUE), max(CATALOGUE))]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_range_of_codes_a_page_gives_is_the_catalogue_s(page: Path) -> None:
    for first, last in RANGE.findall(page.read_text(encoding="utf-8")):
        assert (first, last) == (min(CATALOGUE), max(CATALOGUE)), page.name


def test_docs_diagnostics_lists_every_code_with_its_severity_and_title() -> None:
    page = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (MH\d{3}) \| ([^|]+) \| ([^|]+) \|", page, flags=re.MULTILINE)
    assert [code for code, _, _ in rows] == sorted(CATALOGUE)
    for code, severity, title in rows:
        assert severity.split()[0] == CATALOGUE[code][0], code
        assert title.strip() == CATALOGUE[code][1], code


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_a_code_a_page_names_is_defined(page: Path) -> None:
    named = set(re.findall(r"\bMH\d{3}\b", page.read_text(encoding="utf-8")))
    assert named - set(CATALOGUE) <= {"MH023"}  # unused, as in the reference engine
