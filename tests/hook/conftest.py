"""Fixtures of the hook tests: a project with hooks and memories, made the process's
working directory (payloads that name no folder fall back to it, as in a real host)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hook_support import make_project


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root, store = make_project(tmp_path)
    monkeypatch.setenv("MEMHOOKS_STORE", str(store))
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def env() -> dict[str, str]:
    """The environment for a hook subprocess: a deadline generous enough for a loaded
    2-core CI machine (tests of the deadline itself set their own)."""
    return {**os.environ, "MEMHOOKS_HOOK_TIMEOUT_MS": "30000"}
