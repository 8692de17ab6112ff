"""An owner whose subject reads like a decision but whose message says it changes nothing
the code does ("No functional change intended") is walked back like "perf: simplify":
the decision it reshaped is told before it (note13: iproute2's 90351722 "ss: Replace
printf() calls for "main" output by calls to helper" was told alone for 162 lines of
``misc/ss.c`` — "No functional differences here, output not affected")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from storyrepo import build, story

DECISION = "fix: cap Retrier at the measured attempt budget"


def told(tmp_path: Path, message: str) -> str:
    commits = story()
    commits[-1] = {**commits[-1], "message": message}
    repo = tmp_path / "repo"
    hashes = build(repo, commits)
    done = subprocess.run(
        [sys.executable, "-m", "memhooks", "why", "retryx/retry.py:9-10"],
        cwd=repo, capture_output=True, text=True, check=False,
        env={"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.replace(hashes["decision"][:12], "DECISION")


def test_a_body_saying_no_functional_change_brings_the_decision_before_it(
    tmp_path: Path,
) -> None:
    out = told(
        tmp_path,
        "retryx: replace the attempt loop with a helper\n\n"
        "Prepares the next change. No functional change intended.\n",
    )
    assert f'before it DECISION "{DECISION}"' in out


def test_a_body_that_excepts_a_change_is_told_as_itself(tmp_path: Path) -> None:
    out = told(
        tmp_path,
        "retryx: replace the attempt loop with a helper\n\n"
        "Retries now stop at the caller's count. No functional change otherwise.\n",
    )
    assert "before it" not in out
