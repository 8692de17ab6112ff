"""A line without a word (blank, or punctuation alone) has no text to follow to the line
it came from: it brings no previous owner "before" a reshaping owner. Seven blank lines
of requests' "Cleanup #800" named 5017aeb before it at a whole-file Read of ``auth.py``;
the one line with words there came from 53d454c8 (newcomer22)."""

from __future__ import annotations

from pathlib import Path

from storyrepo import build, story, why_owner

COMMITS = story("blank_lines_story.json")


def test_a_blank_line_brings_no_commit_before_its_owner(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    hashes = build(repo, COMMITS)
    owner = why_owner(repo, tmp_path / "home", "f.py:1-2")
    assert owner["commit"] == hashes["cleanup"]
    assert [b["commit"] for b in owner["before"]] == [hashes["cap"]]
