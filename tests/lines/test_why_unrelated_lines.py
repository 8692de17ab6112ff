"""A hunk that removed lines and wrote unrelated ones in their place did not rewrite
them: a line it wrote afresh has no previous owner. iproute2 0b4b35e ("json: move json
printer to common library … No functional changes") removed the JSON printer's
declarations from ``ip/ip_common.h`` and closed an include guard where they were:
``memhooks why ip/ip_common.h:231`` (the ``#endif``) named 6377572 "add new API to print
JSON" before it. A hunk that rewrote its lines still names theirs."""

from __future__ import annotations

from pathlib import Path

from storyrepo import build, story, why_owner

COMMITS = story("unrelated_lines_story.json")


def test_a_line_written_beside_removed_ones_has_no_previous_owner(tmp_path: Path) -> None:
    repo, home = tmp_path / "repo", tmp_path / "home"
    hashes = build(repo, COMMITS)
    endif = why_owner(repo, home, "f.h:6")
    assert endif["commit"] == hashes["move"]
    assert endif["before"] == []  # not "api": its declaration is gone, not rewritten
    rewritten = why_owner(repo, home, "f.h:4")  # `int x;` -> `int y;`: the hunk rewrote it
    assert rewritten["commit"] == hashes["move"]
    assert [b["commit"] for b in rewritten["before"]] == [hashes["first"]]
