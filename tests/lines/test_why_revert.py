"""A revert puts back the lines of the version before the commit it reverts: the commit
told before it is the one that wrote those lines, not the change undone. ``memhooks why
ip/ipaddress.c:880`` named only iproute2's 2cd0578 "Revert 'ip address: Change
print_linkinfo_brief…'", whose message says nothing but the hash it reverts; the line
came from 5d295bb "add support for brief output" (newcomer24)."""

from __future__ import annotations

from pathlib import Path

from storyrepo import build, commit_files, story, why_owner

COMMITS = story("revert_story.json")


def test_a_revert_is_told_with_the_commit_whose_lines_it_put_back(tmp_path: Path) -> None:
    repo, home = tmp_path / "repo", tmp_path / "home"
    hashes = build(repo, COMMITS)
    message = f'Revert "retry: allow eight attempts"\n\nThis reverts commit {hashes["change"]}.\n'
    revert = commit_files(repo, {"f.py": "MAX = 4  # measured\nend = 1\n"}, message, 1772323200)
    owner = why_owner(repo, home, "f.py:1")
    assert owner["commit"] == revert
    assert owner["low_signal"] == "reverts"
    # not "change": the revert undid it; the line is the decision's again
    assert [b["commit"] for b in owner["before"]] == [hashes["decision"]]


def test_a_revert_of_a_commit_this_history_lacks_walks_back_as_usual(tmp_path: Path) -> None:
    # a revert cherry-picked from elsewhere names a commit git does not have here: the
    # version before the revert stands in for the one it put back
    repo, home = tmp_path / "repo", tmp_path / "home"
    hashes = build(repo, COMMITS)
    message = 'Revert "retry: something elsewhere"\n\nThis reverts commit 1234567890abcdef.\n'
    revert = commit_files(repo, {"f.py": "MAX = 4  # measured\nend = 1\n"}, message, 1772323200)
    owner = why_owner(repo, home, "f.py:1")
    assert owner["commit"] == revert
    assert [b["commit"] for b in owner["before"]] == [hashes["change"]]
