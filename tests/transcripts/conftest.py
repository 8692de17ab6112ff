"""Fixtures of the transcript tests (what they share: ``transcript_support.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from transcript_support import git_project, plant


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return git_project(tmp_path / "proj")


@pytest.fixture(scope="session")
def devset(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The development set planted once: ``(project, home)``; copy before changing it."""
    return plant(tmp_path_factory.mktemp("devset"))


@pytest.fixture
def store_path(tmp_path: Path) -> str:
    return str(tmp_path / "store" / "memories.sqlite3")
