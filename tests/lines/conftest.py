"""Fixtures for the line-ownership tests: the retry story as a real repository, built
once, and a private copy per test (tests edit and commit in it)."""

from __future__ import annotations

import os
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


@pytest.fixture
def project(repo: Path, tmp_path: Path) -> dict[str, object]:
    """The story as a project the hook runs in (a root hook file), with its own state
    folder and store (``{"root": Path, "env": dict}``)."""
    (repo / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    # a generous deadline: on a loaded machine a fresh interpreter and a blame can outlast
    # the default 3 s, and these tests are about what is told, not how fast
    env = {**os.environ, "MEMHOOKS_STATE_DIR": str(tmp_path / "state"),
           "MEMHOOKS_STORE": str(tmp_path / "store.sqlite3"),
           "MEMHOOKS_HOOK_TIMEOUT_MS": "30000"}  # fmt: skip
    return {"root": repo, "env": env}

