"""Each line of an answer keeps its link to the commit before it, even when an earlier
line named that commit: ``memhooks why src/requests/sessions.py:154-184`` told line
154's typing pass with nothing before it, since 857e9b7 — before it for 154 — was named
for other lines above (newcomer24); asked alone, 154 named it. Named again by its id
alone: its subject and message are above."""

from __future__ import annotations

from pathlib import Path

from storyrepo import build, story, why

COMMITS = story("named_above_story.json")


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
