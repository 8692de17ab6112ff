"""Relative links in the README, docs/*.md and the skill point at files that exist, and
docs/index.md links every page."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [
    ROOT / "README.md",
    *sorted(ROOT.glob("docs/*.md")),
    *sorted((ROOT / "src/memhooks/skill").rglob("*.md")),
]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
#: pages linked before they land (being written in parallel); harmless once they exist
PENDING = {"docs/maintenance.md"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_resolve(page: Path) -> None:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = target.split("#", 1)[0]
        resolved = (page.parent / path).resolve()
        if (
            not resolved.exists()
            and Path(os.path.relpath(resolved, ROOT)).as_posix() not in PENDING
        ):
            broken.append(target)
    assert not broken, f"{page.relative_to(ROOT)}: broken links {broken}"


def test_the_index_links_every_page() -> None:
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    linked = set(LINK.findall(index))
    missing = [
        p.name
        for p in sorted(ROOT.glob("docs/*.md"))
        if p.name != "index.md" and p.name not in linked
    ]
    assert not missing, f"docs/index.md does not link {missing}"
