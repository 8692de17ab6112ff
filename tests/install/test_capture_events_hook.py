"""What ``--capture`` wires must reach capture: a Claude Code ``Bash`` outcome sent to the
hook handler arrives at ``capture.observe`` as a command, and a failure then a success of
the same command leaves a problem–solution memory; with capture off, nothing."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from memhooks.capture import settings
from memhooks.hook.handler import handle
from memhooks.store import MemoryStore


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    return root.resolve()


def payload(project: Path, native: str, **fields: Any) -> str:
    base = {"hook_event_name": native, "session_id": "s1", "cwd": str(project), "tool_name": "Bash"}
    return json.dumps({**base, **fields})


def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "MEMHOOKS_STORE": str(tmp_path / "store.sqlite3")}


def test_bash_post_tool_use_reaches_observe(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[Any] = []
    monkeypatch.setattr("memhooks.capture.observer.observe", lambda event, **kw: seen.append(event))
    settings.switch(True, settings.PROJECT, str(project))
    raw = payload(
        project,
        "PostToolUse",
        tool_input={"command": "pytest"},
        tool_response={"stdout": "8 passed"},
    )
    reply = handle(raw, agent="claude-code", env=env(tmp_path))
    assert reply.stdout == "" and reply.note is None
    [event] = seen
    assert (event.event, event.command, event.native_event) == (
        "post_command",
        "pytest",
        "PostToolUse",
    )


def test_failure_then_success_through_the_handler_is_remembered(
    project: Path, tmp_path: Path
) -> None:
    settings.switch(True, settings.PROJECT, str(project))
    failed = payload(
        project,
        "PostToolUseFailure",
        tool_input={"command": "pytest tests/test_limit.py"},
        error="Exit code 1\nFAILED tests/test_limit.py::test_burst - assert 200 == 429",
    )
    passed = payload(
        project,
        "PostToolUse",
        tool_input={"command": "pytest tests/test_limit.py"},
        tool_response={"stdout": "8 passed in 0.5s", "stderr": ""},
    )
    for raw in (failed, passed):
        assert handle(raw, agent="claude-code", env=env(tmp_path)).note is None
    with MemoryStore(str(tmp_path / "store.sqlite3")) as store:
        kinds = [m.kind for m in store.list(str(project), limit=None)]
    assert kinds == ["problem-solution"]


def test_capture_off_writes_nothing(project: Path, tmp_path: Path) -> None:
    raw = payload(
        project, "PostToolUseFailure", tool_input={"command": "pytest"}, error="Exit code 1"
    )
    handle(raw, agent="claude-code", env=env(tmp_path))
    assert not (tmp_path / "store.sqlite3").exists()
