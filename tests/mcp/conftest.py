"""A project with one hook for the MCP tests."""

from __future__ import annotations

from pathlib import Path

import pytest

HOOK = """---
schema: memhooks/v2
recall_queries:
  - "Why does the limiter keep its buckets in Redis?"
tags: [limiter]
---
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "MEMHOOKS.md").write_text(HOOK, encoding="utf-8")
    return root.resolve()


@pytest.fixture
def store_path(tmp_path: Path) -> str:
    return str(tmp_path / "store.sqlite3")
