"""Test files: which paths are tests, and what a test file is about — one rule for every
place memhooks reads it (a conversation's piece ends at its last edit that is not a
test, :mod:`memhooks.transcripts.render`; a test and the file it tests share one topic,
:mod:`memhooks.transcripts.segment`).

A test file is in a ``test``, ``tests``, ``__tests__`` or ``spec`` folder, or its name
says so: ``test_x.py``, ``tests_x.py``, ``x_test.go``, ``x_tests.rs``, ``x_spec.rb``,
``x.test.ts``, ``x.spec.js`` (pytest's, Go's, Jest's and RSpec's conventions). Pure, no
I/O, no :mod:`re`.
"""

from __future__ import annotations

#: Folders whose files are tests.
FOLDERS = frozenset({"test", "tests", "__tests__", "spec"})
#: What starts or ends the first part of a test file's name (before its first dot).
PREFIXES = ("test_", "tests_")
SUFFIXES = ("_test", "_tests", "_spec")
#: A dotted part of a name between its stem and its extension (``x.test.ts``).
MIDDLES = frozenset({"test", "spec"})


def is_test(path: str) -> bool:
    """Whether ``path`` (``/``-separated, relative or absolute) is a test file."""
    *folders, name = path.split("/")
    stem, *dotted = name.split(".")
    return (
        any(folder in FOLDERS for folder in folders)
        or stem.startswith(PREFIXES)
        or stem.endswith(SUFFIXES)
        or any(part in MIDDLES for part in dotted[:-1])
    )


def subject(path: str) -> str:
    """What a file is about: the first part of its name without a test prefix or suffix,
    so a test file and the file it tests share one (``tests/test_sla.py`` and
    ``uptime/sla.py`` give ``sla``, ``web/sla.test.ts`` too); the path itself for a name
    without an extension."""
    name = path.rpartition("/")[2]
    stem, dot, _ext = name.partition(".")
    if not dot:
        return path
    for prefix in PREFIXES:
        stem = stem.removeprefix(prefix)
    for suffix in SUFFIXES:
        stem = stem.removesuffix(suffix)
    return stem
