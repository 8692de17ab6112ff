"""Fixtures for capture tests: a project folder, a store path, capture switched on, events."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memhooks.agents import NormalizedEvent, normalize
from memhooks.capture import settings


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project: a folder with an empty ``.git`` (so it is the root of its subfolders,
    and its id is its path) and a ``src`` folder."""
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / ".git").mkdir()
    return root.resolve()


@pytest.fixture
def store_path(tmp_path: Path) -> str:
    return str(tmp_path / "store" / "memories.sqlite3")


@pytest.fixture
def capture_on(project: Path) -> str:
    """Capture on for ``project`` in the sandboxed user config; returns the settings path."""
    return settings.switch(True, settings.PROJECT, str(project))


@pytest.fixture
def claude(project: Path) -> Callable[..., NormalizedEvent]:
    """``claude(native_event, **fields)``: a Claude Code payload in ``project``, normalized."""

    def make(native: str, session: str = "s1", **fields: Any) -> NormalizedEvent:
        payload = {"hook_event_name": native, "session_id": session, "cwd": str(project), **fields}
        return normalize(json.loads(json.dumps(payload)), host="claude-code")

    return make
