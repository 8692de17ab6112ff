"""Fixtures of the session tests (see session_support.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from session_support import Agent, build


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    root, store = build(tmp_path)
    env = dict(os.environ, MEMHOOKS_STORE=str(store), MEMHOOKS_STATE_DIR=str(tmp_path / "state"))
    return root, env


@pytest.fixture
def agent(project: tuple[Path, dict[str, str]]) -> Agent:
    return Agent(*project)
