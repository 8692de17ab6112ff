"""Any set of test folders collects together (``pytest tests/transcripts tests/lines``).

tests/ is no package: pytest puts each test folder on ``sys.path`` and imports its
modules by their bare names, so two helper modules of one name, or a test importing
``conftest`` (every folder has one: which answers depends on what was collected first),
break a run of some folders together while each folder alone passes. Helpers shared by a
folder's tests live in a module named for it (``hook_support.py``, ``storyrepo.py``)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

TESTS = Path(__file__).parent
IMPORTS_CONFTEST = re.compile(r"^\s*(from\s+conftest\s+import|import\s+conftest\b)", re.MULTILINE)


def _modules() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if "data" not in p.relative_to(TESTS).parts)


def test_no_test_imports_a_conftest() -> None:
    found = [
        str(p.relative_to(TESTS)) for p in _modules() if IMPORTS_CONFTEST.search(p.read_text())
    ]
    assert found == []


def test_every_test_module_name_is_used_once() -> None:
    names = Counter(p.name for p in _modules() if p.name != "conftest.py")
    assert sorted(name for name, count in names.items() if count > 1) == []
