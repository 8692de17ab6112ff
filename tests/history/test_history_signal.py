"""The low-signal rule (memhooks.history.signal) on real commits of the shared bundles."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memhooks.history.reasons import REASONS
from memhooks.history.signal import low_signal, reshapes

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "data" / "signal.json").read_text(encoding="utf-8")
)["commits"]


@pytest.mark.parametrize("case", CASES, ids=lambda case: f"{case['repo']}-{case['commit'][:10]}")
def test_real_commits_get_their_reason(case: dict[str, Any]) -> None:
    found = low_signal(
        case["subject"],
        case["body"],
        author=case["author"],
        email=case["email"],
        parents=case["parents"],
        blame_ignored=case["blame_ignored"],
    )
    assert found == case["low_signal"]


def test_the_cases_cover_every_reason_and_decisions() -> None:
    assert {case["low_signal"] for case in CASES} == {*REASONS, None}
    assert sum(case["low_signal"] is None for case in CASES) >= 10


@pytest.mark.parametrize(
    ("subject", "body", "expected"),
    [
        # GitHub's web editor: the file name alone is the subject.
        ("Update README.md", "", "trivial"),
        ("Update src/requests/models.py (#6001)", "", "trivial"),
        ("Add files via upload", "", "trivial"),
        # ...but a body that says why makes it a change worth reading.
        ("Update README.md", "Explain that proxies are read from the environment.", None),
        ("Update README.md", "Signed-off-by: A <a@example.com>", "trivial"),
        # A one-word message says nothing; a short subject naming code may.
        ("cleanup", "", "trivial"),
        ("Use NLMSG_TAIL", "", None),
        ("Merge branch 'main' into feature", "", "merge"),
        ("Bump urllib3 from 1.26.4 to 1.26.5", "Bumps [urllib3](https://…)", "dependency"),
        ("chore(deps): update actions/checkout action to v4", "", "dependency"),
        ("style: run ruff format", "", "formatting"),
        ("Release 2.31.0", "", "version"),
        ("Bump version to 2.31.0", "", "version"),
        ("fix: cap Retrier at the measured attempt budget", "", None),
        ("perf: simplify retry", "", None),
        # A version-control tool's bookkeeping names no change (iproute2's BitKeeper
        # import), nor does a patch imported by its name alone.
        ("(Logical change 1.3)", "", "trivial"),
        ("Initial revision", "", "trivial"),
        ("Import patch iproute-typo.patch", "(Logical change 1.145)", "trivial"),
        ("Import patch X.diff", "", "trivial"),
        ("Import patch addr-del", "It deletes an address by its label.", None),
        ("Import the netlink patch from the kernel", "", None),
        ("Logical change handling for routes", "", None),
    ],
)
def test_rules_on_subjects(subject: str, body: str, expected: str | None) -> None:
    assert low_signal(subject, body) == expected


def test_a_bot_author_is_low_signal_whatever_it_says() -> None:
    assert low_signal("Update the changelog for 2.3", author="github-actions[bot]") == "bot"
    assert (
        low_signal("Fix the build", email="49699333+dependabot[bot]@users.noreply.github.com")
        == "bot"
    )
    assert low_signal("Fix the build", author="Dependabot") == "bot"


def test_a_second_parent_makes_a_merge_whatever_its_subject() -> None:
    assert low_signal("Land the retry budget", parents=2) == "merge"


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        ("perf: simplify retry", True),
        ("refactor: simplify strutils", True),
        ("Simplify tox.ini", True),
        ("ip: move print helpers to a new file", True),
        ("Rename delay to netsim", True),
        ("fix: cap Retrier at the measured attempt budget", False),
        ("ss: add AF_XDP support", False),
        # typing and lint passes (requests' history): the reason is behind them
        ("Add inline types to Requests (#7272)", True),
        ("Add type hints to sessions", True),
        ("Fix mypy errors", True),
        ("Apply ruff fixes", True),
        ("Annotate the adapters", True),
        ("Fix linting issues in utils", True),
        ("Add support for annotations in the JSON output", False),
        ("Add a type check for the timeout argument", False),
        ("Types of proxies: accept a str", False),
    ],
)
def test_reshaping_subjects(subject: str, expected: bool) -> None:
    assert reshapes(subject) is expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # iproute2's own words (90351722 owns 162 lines of misc/ss.c; 486ccd99; 869d889e)
        ("Optimal spacing.\n\nNo functional differences here, output not affected.\n", True),
        ("Just another refactoring for ss to use rtnl API from lib", True),
        ("Code move only; no functional change intended.", True),
        ("There is no functional change with this commit. It only prepares the next one.", True),
        ("No behavioural changes intended for the moment, this is a preparation for a", True),
        ("This is basically a cosmetic change. The SB index is not required", True),
        ("Tidy up the loop.\n\nNFC.", True),
        ("No changes in output expected here.", True),  # iproute2 59f46b7b
        ("The conversion was done purely mechanically with a perl script.", True),  # git 22f9b7f3
        ("This introduces no functional change, but refactors the print-out.", True),  # 40ef015a
        # a statement about something else, or one that excepts a part, says why
        ("Fixes the leak on error. No functional change otherwise.", False),
        # a condition, a part, a negation or a question (git's history, newcomer21)
        ("When no commit-graph exists, there is no change in behavior.", False),
        ("If 0 is given, then there is no functional change.", False),
        ("For most users there will be no change in behavior.", False),
        ("There is no functional change with the current implementation.", False),
        ("This is mostly just a cleanup to make it clear long strings work.", False),
        ("This is not just a cosmetic change: it fixes the race.", False),
        ("Is this a non-functional change? No, it fixes the race.", False),
        ("The word wrap is only cosmetic: keep it at 72.", False),
        ("No functional change for most users, but the timeout is now 4 s.", False),
        ("The 1.2 release brought a behaviour change: restore the old default.", False),
        ("Names are compared in NFC, as the kernel stores them.", False),
        ("Signed-off-by: A <a@example.com>", False),
        ("", False),
    ],
)
def test_a_body_that_says_nothing_the_code_does_changed_reshapes(body: str, expected: bool) -> None:
    # the subject alone says nothing of a reshape: the body decides (note13, newcomer20)
    assert reshapes("ss: Replace printf() calls for main output by calls to helper", body) is expected
