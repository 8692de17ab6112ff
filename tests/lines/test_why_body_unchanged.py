"""An owner whose subject reads like a decision but whose message says it changes nothing
the code does ("No functional change intended") is walked back like "perf: simplify":
the decision it reshaped is told before it (note13: iproute2's 90351722 "ss: Replace
printf() calls for "main" output by calls to helper" was told alone for 162 lines of
``misc/ss.c`` — "No functional differences here, output not affected")."""

from __future__ import annotations

from pathlib import Path

import pytest
from storyrepo import build, story, why

DECISION = "fix: cap Retrier at the measured attempt budget"


def told(tmp_path: Path, message: str, first: str | None = None) -> str:
    commits = story()
    commits[-1] = {**commits[-1], "message": message}
    if first is not None:  # the lines before it made by commits that say nothing
        for at in (0, 1):
            commits[at] = {**commits[at], "message": first.format(at + 1)}
    repo = tmp_path / "repo"
    hashes = build(repo, commits)
    said = why(repo, tmp_path / "home", "retryx/retry.py:9-10")
    return said.replace(hashes["decision"][:12], "DECISION")


@pytest.mark.parametrize(
    ("body", "walked"),
    [
        ("Prepares the next change. No functional change intended.", True),
        # a change is excepted: told as itself
        ("Retries now stop at the caller's count. No functional change otherwise.", False),
        # a condition (git 04bc8d1ecc30's words): a change, not a refactor
        ("When no count is given, there is no change in behavior.", False),
    ],
)
def test_what_the_body_says_decides_whether_the_decision_comes_before_it(
    tmp_path: Path, body: str, walked: bool
) -> None:
    out = told(tmp_path, f"retryx: replace the attempt loop with a helper\n\n{body}\n")
    assert (f'before it DECISION "{DECISION}"' in out) is walked
    assert ("before it" in out) is walked


def test_a_commit_that_says_nothing_is_not_told_before_a_reshaping_owner(
    tmp_path: Path,
) -> None:
    # newcomer21: ip/ipxfrm.c:36 told "before it … Import patch ipxfrm-20040707_2.diff",
    # 166 characters of nothing at an edit
    out = told(
        tmp_path,
        "retryx: replace the attempt loop with a helper\n\nNo functional change intended.\n",
        first="Import patch retry-2026020{}.diff\n\n(Logical change 1.53)\n",
    )
    assert "retryx/retry.py 9–10: " in out
    assert "replace the attempt loop with a helper" in out
    assert "before it" not in out
    assert "Import patch" not in out
