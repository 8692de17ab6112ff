"""Opt-in (MEMHOOKS_E2E=1): each real agent, installed with `memhooks agents install`,
offers the memhooks skill to its model.

Same set-up as tests/e2e (agents from tests/e2e/install_agents.sh, offline against the
fake model, a sandboxed HOME, the agent started in a subfolder of the project); the
check is that the skill's description is in a request the model received — that is how
agents list the skills they can load. This is the evidence behind the "run" rows of the
skill table in docs/agents.md.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

E2E = Path(__file__).resolve().parents[1] / "e2e"

pytestmark = pytest.mark.skipif(
    os.environ.get("MEMHOOKS_E2E") != "1",
    reason="real-agent tests are opt-in: MEMHOOKS_E2E=1 (see tests/e2e/conftest.py)",
)

#: a phrase of the skill's description (YAML folds it onto one line)
PHRASE = "Folder-scoped memory recall with the memhooks CLI"
AGENTS = ["claude-code", "codex", "gemini-cli", "copilot-cli", "opencode", "hermes-plugin"]


@pytest.mark.parametrize("name", AGENTS)
def test_the_agent_offers_the_skill(name: str, tmp_path: Path) -> None:
    sys.path.insert(0, str(E2E))
    try:
        import test_real_agents as e2e
        from e2e_support import Project, start_fake_llm
    finally:
        sys.path.remove(str(E2E))
    install, build, extra = e2e.AGENTS[name]
    project = Project(tmp_path)
    server = start_fake_llm(project)
    try:
        argv = build(project, server.base_url)
        project.memhooks("agents", "install", "--cwd", str(project.root), *install)
        done = project.run(argv, extra(server.base_url))
    finally:
        server.stop()
    bodies = json.dumps([request["body"] for request in server.requests()])
    assert PHRASE in bodies, (
        f"{name}: the skill was not offered\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    )


def test_gemini_cli_sees_one_skill_when_codex_shares_it(tmp_path: Path) -> None:
    """Installed for Codex and Gemini CLI (the default install where both are found),
    Gemini CLI gets the skill without its "Skill conflict detected" warning (it reads
    ~/.agents/skills as well as ~/.gemini/skills), and keeps it when Codex is uninstalled."""
    sys.path.insert(0, str(E2E))
    try:
        import test_real_agents as e2e
        from e2e_support import Project, start_fake_llm
    finally:
        sys.path.remove(str(E2E))
    _, build, extra = e2e.AGENTS["gemini-cli"]
    project = Project(tmp_path)
    server = start_fake_llm(project)
    try:
        argv = build(project, server.base_url)
        project.memhooks("agents", "install", "--cwd", str(project.root), "--agent", "codex", "--agent", "gemini-cli")
        runs = [project.run(argv, extra(server.base_url))]
        offered = [PHRASE in json.dumps([r["body"] for r in server.requests()])]
        project.memhooks("agents", "uninstall", "--cwd", str(project.root), "--agent", "codex")
        seen = len(server.requests())
        runs.append(project.run(argv, extra(server.base_url)))
        offered.append(PHRASE in json.dumps([r["body"] for r in server.requests()[seen:]]))
    finally:
        server.stop()
    for done in runs:
        assert "Skill conflict" not in done.stdout + done.stderr, done.stderr[-2000:]
    assert offered == [True, True]
