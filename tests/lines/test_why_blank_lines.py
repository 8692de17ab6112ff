"""A line without a word (blank, or punctuation alone) has no text to follow to the line
it came from: it brings no previous owner "before" a reshaping owner. Seven blank lines
of requests' "Cleanup #800" named 5017aeb before it at a whole-file Read of ``auth.py``;
the one line with words there came from 53d454c8 (newcomer22)."""

from __future__ import annotations

from pathlib import Path

from storyrepo import build, why_owner

COMMITS = [
    {"label": "first", "message": "retryx: add the loop\n", "author_time": 1767225600,
     "files": {"f.py": "# first\nb = 2\nend = 1\n"}},
    {"label": "cap", "message": "fix: cap at four, the gateway charges a fifth\n",
     "author_time": 1769904000, "files": {"f.py": "# first\nb = 4  # cap\nend = 1\n"}},
    {"label": "cleanup", "message": "Cleanup\n", "author_time": 1772323200,
     "files": {"f.py": "\nb = 4  # the cap\nend = 1\n"}},
]  # fmt: skip


def test_a_blank_line_brings_no_commit_before_its_owner(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    hashes = build(repo, COMMITS)
    owner = why_owner(repo, tmp_path / "home", "f.py:1-2")
    assert owner["commit"] == hashes["cleanup"]
    assert [b["commit"] for b in owner["before"]] == [hashes["cap"]]
