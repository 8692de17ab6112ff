"""Each line of an answer keeps its link to the commit before it, even when an earlier
line named that commit: ``memhooks why src/requests/sessions.py:154-184`` told line
154's typing pass with nothing before it, since 857e9b7 — before it for 154 — was named
for other lines above (newcomer24); asked alone, 154 named it. Named again by its id
alone: its subject and message are above."""

from __future__ import annotations

from pathlib import Path

from storyrepo import build, why

COMMITS = [
    {"label": "decision", "message": "fix: compute from x then y, the gateway's order\n",
     "author_time": 1767225600, "files": {"f.py": "a = compute(x, y)\nb = other(x, y)\n"}},
    {"label": "format", "message": "style: format with black\n", "author_time": 1769904000,
     "files": {"f.py": "a = compute(x,  y)\nb = other(x, y)\n"}},
    {"label": "types", "message": "Add inline types\n", "author_time": 1772323200,
     "files": {"f.py": "a = compute(x,  y)\nb: int = other(x, y)\n"}},
]  # fmt: skip


def test_a_line_names_its_previous_owner_when_a_line_above_named_it(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    hashes = build(repo, COMMITS)
    said = why(repo, tmp_path / "home", "f.py:1-2")
    heads = [line for line in said.splitlines() if line.startswith("f.py ")]
    assert len(heads) == 2, said
    decision = hashes["decision"][:12]
    assert all(decision in head for head in heads), heads  # each line keeps its link
    assert sum(f'{decision} "' in head for head in heads) == 1  # named in full once
    assert heads[1].endswith(f"before it {decision} (named above)")
