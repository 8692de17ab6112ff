"""Fixtures for the history tests: the recorded history built once as a real repository,
and a private copy of it for each test that imports from it or rewrites it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from gitrepo import build, recorded

ROOT_HOOK = "---\nschema: memhooks/v2\n---\n"


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    repo = tmp_path_factory.mktemp("history") / "repo"
    return repo, build(repo, recorded())


@pytest.fixture
def repo(built: tuple[Path, dict[str, str]], tmp_path: Path) -> Path:
    """A copy of the fixture repository (its own ``.git``), canonical path, enabled: its
    root hook is an untracked file, as ``memhooks init`` leaves it."""
    copy = tmp_path / "repo"
    shutil.copytree(built[0], copy, symlinks=True)
    (copy / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    return copy.resolve()


@pytest.fixture
def hashes(built: tuple[Path, dict[str, str]]) -> dict[str, str]:
    """``{label: commit hash}`` of the fixture history."""
    return built[1]


@pytest.fixture
def store_path(tmp_path: Path) -> str:
    return str(tmp_path / "store" / "memories.sqlite3")
