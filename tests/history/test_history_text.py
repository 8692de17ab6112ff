"""Commit message -> memory text, kind and tags, and the commits a revert names."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memhooks.history.conventions import classify, may_revert
from memhooks.history.mapping import common_folder
from memhooks.history.message import MAX_TEXT_CHARS, bound, memory_text, reverted

CASES = json.loads((Path(__file__).parent / "data" / "conventions.json").read_text("utf-8"))[
    "cases"
]


@pytest.mark.parametrize("case", CASES, ids=[c["subject"][:40] for c in CASES])
def test_kind_and_tags_come_only_from_a_clear_convention(case: dict[str, Any]) -> None:
    assert classify(case["subject"], case.get("message", "")) == (case["kind"], case["tags"])


def test_trailers_that_name_people_go_and_the_rest_stays() -> None:
    message = (
        "Use complexjson everywhere\n\n"
        "Co-authored-by: A <a@example.com>\n"
        "The stdlib json is slow on big bodies.\n\n\n\n"
        "(cherry picked from commit 0123456789abcdef0123456789abcdef01234567)\n"
        "Fixes: #2593\n"
        "Reported-by: B <b@example.com>\n"
        "Signed-off-by: C <c@example.com>\n"
        "Cc: d@example.com\n"
        "git-svn-id: svn://svn.example.com/trunk@42 0000\n"
    )
    assert memory_text(message) == (
        "Use complexjson everywhere\n\nThe stdlib json is slow on big bodies.\n\nFixes: #2593"
    )


def test_trailers_spelled_as_real_histories_spell_them_go_too() -> None:
    # psf/requests 5296b8be: "Co-Authored By:" (a blank for the hyphen) kept three names.
    message = (
        "Fix infinite loop on wrong Digest Authentication (Issue #547)\n\n"
        "Modified code to use the current fix versus the old fix, which was broken.\n\n"
        "Co-Authored By: Timnit Gebru <tgebru@gmail.com>\n"
        "co-authored-by: Sarah Gonzalez\n"
        "SIGNED OFF BY: Leila Muhtasib\n"
        "Acked-by: E\n"
        "Tested-By : F\n"
        "Suggested by: G\n"
        "CC: h@example.com\n"
        "Refs: #548\n"
    )
    assert memory_text(message) == (
        "Fix infinite loop on wrong Digest Authentication (Issue #547)\n\n"
        "Modified code to use the current fix versus the old fix, which was broken.\n\n"
        "Refs: #548"
    )


def test_a_by_line_in_prose_stays_unless_it_names_an_address() -> None:
    message = (
        "Retry the upload\n\n"
        "Fixed by: waiting for the lock first.\n"
        "Original author: Ann <ann@example.com>\n\n"
        "More prose."
    )
    assert memory_text(message) == (
        "Retry the upload\n\nFixed by: waiting for the lock first.\n\nMore prose."
    )
    assert memory_text("Fixed by: waiting") == "Fixed by: waiting"
    assert memory_text("docs: ask Ann <ann@example.com>\n\nOwner: Ann <ann@example.com>") == (
        "docs: ask Ann <email>"
    )


def test_prose_keeps_its_words_and_loses_addresses_and_secrets() -> None:
    text = memory_text(
        "Mail ops@example.com, not <root@example.org>.\n"
        "Set GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 in CI.\n"
    )
    assert text == "Mail <email>, not <email>.\nSet GITHUB_TOKEN=[REDACTED:github-token] in CI."


def test_a_message_of_trailers_only_is_empty() -> None:
    assert memory_text("Signed-off-by: C <c@example.com>\n") == ""


def test_long_text_is_cut_at_a_line_end_with_a_mark() -> None:
    body = "\n".join(f"line {n} of a very long release note" for n in range(200))
    cut = bound(body)
    assert len(cut) <= MAX_TEXT_CHARS and cut.endswith("note…")
    assert bound("x" * 3000).endswith("…") and len(bound("x" * 3000)) == MAX_TEXT_CHARS


def test_reverted_hashes_from_git_and_from_conventional_refs() -> None:
    assert reverted('Revert "x"', 'Revert "x"\n\nThis reverts commit 805C4DB55413.\n') == [
        "805c4db55413"
    ]
    assert reverted("revert: x", "revert: x\n\nRefs: 676104e, a215868\n") == ["676104e", "a215868"]
    assert reverted("docs: x", "docs: x\n\nRefs: 676104e\n") == []  # not a revert


def test_which_subjects_may_name_a_reverted_commit() -> None:
    assert [
        may_revert(s) for s in ('Revert "x"', "reverted hooks", "revert(ci): x", 'Reapply "x"')
    ] == [True] * 4
    assert [may_revert(s) for s in ("Reverse the order", "Don't revert", "fix: x")] == [False] * 3


def test_common_folder() -> None:
    assert common_folder(["a/b/c.py", "a/b/d/e.py"]) == "a/b"
    assert common_folder(["a/b/c.py", "a/x.py"]) == "a"
    assert common_folder(["a/b.py", "ab/c.py"]) == ""
    assert common_folder(["README"]) == ""
    assert common_folder([]) == ""
