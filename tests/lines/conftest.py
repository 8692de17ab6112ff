"""Fixtures for the line-ownership tests: the retry story as a real repository, built
once, and a private copy per test (tests edit and commit in it)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from storyrepo import build


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    repo = tmp_path_factory.mktemp("story") / "repo"
    return repo, build(repo)


@pytest.fixture
def repo(built: tuple[Path, dict[str, str]], tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    shutil.copytree(built[0], copy, symlinks=True)
    return copy.resolve()


@pytest.fixture
def hashes(built: tuple[Path, dict[str, str]]) -> dict[str, str]:
    return built[1]


@pytest.fixture
def state(tmp_path: Path) -> str:
    return str(tmp_path / "state")
