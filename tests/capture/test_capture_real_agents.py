"""Capture with real agents, offline against the fake model (opt-in: ``MEMHOOKS_E2E=1``,
agents from ``tests/e2e/install_agents.sh``).

Issue 7's "done": with capture on, a session in a real agent leaves useful memories that a
later prompt in the same folder recalls; with it off, nothing is written. Each agent runs
twice in ``backend/auth`` of the e2e test project (``tests/e2e/e2e_support.py``): first
with a prompt that states a decision, then with a prompt about installing things.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

E2E = Path(__file__).parent.parent / "e2e"
pytestmark = pytest.mark.skipif(
    os.environ.get("MEMHOOKS_E2E") != "1",
    reason="real-agent tests are opt-in: MEMHOOKS_E2E=1 (see tests/e2e/conftest.py)",
)
DECISION = "From now on we use uv instead of pip for every install."
FIRST = f"Create hello.txt. {DECISION}"
LATER = "Install the dev dependencies for the auth service."
REPLY = "Created backend/auth/hello.txt; installs in this project go through uv from now on."


def _agents() -> dict[str, Any]:
    sys.path.insert(0, str(E2E))
    try:
        import test_real_agents
    finally:
        sys.path.remove(str(E2E))
    return test_real_agents.AGENTS  # type: ignore[no-any-return]


def _session(name: str, base: Path, capture: bool) -> tuple[Any, list[list[dict[str, Any]]]]:
    sys.path.insert(0, str(E2E))
    try:
        from e2e_support import Project
        from fake_llm import FakeLLM
    finally:
        sys.path.remove(str(E2E))
    install, build, extra = _agents()[name]
    project = Project(base)
    requests: list[list[dict[str, Any]]] = []
    server = FakeLLM(
        scenario="write", write_path=str(project.sub / "hello.txt"), reply=REPLY
    ).start()
    try:
        argv = build(project, server.base_url)  # before install, as tests/e2e does
        project.memhooks("agents", "install", "--cwd", str(project.root), *install)
        if capture:
            project.memhooks("capture", "on", "--cwd", str(project.root))
        for prompt in (FIRST, LATER):
            seen = len(server.requests())
            done = project.run(
                [prompt if a == "Create hello.txt" else a for a in argv], extra(server.base_url)
            )
            assert done.returncode == 0, done.stderr[-2000:]
            requests.append(server.requests()[seen:])
    finally:
        server.stop()
    return project, requests


def _captured(project: Any) -> list[dict[str, Any]]:
    listed = json.loads(
        project.memhooks(
            "memories",
            "list",
            "--cwd",
            str(project.root),
            "--all",
            "--format",
            "json",
            "--limit",
            "0",
        )
    )
    return [m for m in listed if "captured" in m["tags"]]


@pytest.mark.parametrize("name", ["claude-code", "codex", "gemini-cli"])
def test_a_stated_decision_is_captured_and_recalled_later(name: str, tmp_path: Path) -> None:
    project, (_, later) = _session(name, tmp_path, capture=True)
    decisions = [m for m in _captured(project) if m["kind"] == "decision"]
    assert [(m["text"], m["scope"]) for m in decisions] == [(DECISION, "backend/auth")]
    assert decisions[0]["source"].startswith(f"capture:{name}:")
    assert any(DECISION in json.dumps(r["body"]) for r in later), (
        "the later prompt did not recall it"
    )


@pytest.mark.parametrize("name", ["claude-code"])
def test_nothing_is_written_with_capture_off(name: str, tmp_path: Path) -> None:
    project, _ = _session(name, tmp_path, capture=False)
    assert _captured(project) == []
    assert (
        len(
            json.loads(
                project.memhooks("memories", "list", "--cwd", str(project.root), "--format", "json")
            )
        )
        == 1
    )
