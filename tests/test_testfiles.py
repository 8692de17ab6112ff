"""One rule for test files: which paths are tests (a conversation's piece ends at its
last edit that is not a test) and what a test is about (a test and the file it tests are
one topic). Two rules disagreed before: ``tests_x`` and ``x_tests`` files were one topic
with ``x`` but not tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from memhooks.testfiles import is_test, subject
from memhooks.transcripts.anchors import Place
from memhooks.transcripts.model import Message, ToolUse, Transcript
from memhooks.transcripts.segment import segment

CASES = [
    # path, is a test, subject
    ("tests/test_sla.py", True, "sla"),
    ("uptime/sla.py", False, "sla"),
    ("uptime/tests_sla.py", True, "sla"),  # the rules disagreed here
    ("uptime/sla_tests.rs", True, "sla"),  # and here
    ("pkg/sla_test.go", True, "sla"),
    ("spec/models/sla_spec.rb", True, "sla"),
    ("web/sla.test.ts", True, "sla"),
    ("web/sla.spec.js", True, "sla"),
    ("web/__tests__/sla.tsx", True, "sla"),
    ("tests/conftest.py", True, "conftest"),
    ("src/contest.py", False, "contest"),
    ("src/testing.py", False, "testing"),
    ("src/latest.py", False, "latest"),
    ("Makefile", False, "Makefile"),
    ("docs/test", False, "docs/test"),
]


@pytest.mark.parametrize(("path", "test", "topic"), CASES)
def test_a_test_file_and_its_subject(path: str, test: bool, topic: str) -> None:
    assert (is_test(path), subject(path)) == (test, topic)


@pytest.mark.parametrize("test", [p for p, test, topic in CASES if test and topic == "sla"])
def test_editing_a_test_stays_on_the_topic_of_the_file_it_tests(tmp_path: Path, test: str) -> None:
    # what the importer relies on (transcripts.segment): after an edit of uptime/sla.py, an
    # edit of its test is the same piece, though nothing said shares a word with before
    session = Transcript("claude-code", "s", "s.jsonl", str(tmp_path))
    turns = [
        ("The SLA report rounds availability down; round half up instead.", "uptime/sla.py"),
        ("Cover the boundary where three nines meet the monthly window exactly.", test),
    ]
    for n, (said, path) in enumerate(turns):
        session.messages.append(Message("user", said, f"2026-01-01T00:00:0{n}Z"))
        edit = ToolUse("Edit", "edit", [str(tmp_path / path)])
        session.messages.append(Message("assistant", "Done.", None, [edit]))
    pieces = segment(session, Place(str(tmp_path), str(tmp_path), str(tmp_path)))
    assert [[e.index for e in p.exchanges] for p in pieces] == [[0, 1]]
    assert pieces[0].exchanges[1].edited == [test]
