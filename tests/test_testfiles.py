"""One rule for test files: which paths are tests (a conversation's piece ends at its
last edit that is not a test) and what a test is about (a test and the file it tests are
one topic). Two rules disagreed before: ``tests_x`` and ``x_tests`` files were one topic
with ``x`` but not tests."""

from __future__ import annotations

import pytest

from memhooks.testfiles import is_test, subject

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


def test_a_test_is_tested_by_what_it_tests() -> None:
    # what the importer relies on: every test named after a file shares its topic
    tests = [p for p, test, _ in CASES if test and subject(p) == "sla"]
    assert len(tests) == 8 and {subject(p) for p in tests} == {subject("uptime/sla.py")}
