"""Fixtures for the maintenance tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from maintain_support import sample


@pytest.fixture
def hook(tmp_path: Path) -> Path:
    """A fresh ``MEMHOOKS.md`` (the commented sample) in its own directory."""
    path = tmp_path / "proj" / "MEMHOOKS.md"
    path.parent.mkdir()
    path.write_text(sample("commented.md"), encoding="utf-8")
    return path
