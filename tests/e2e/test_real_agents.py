"""Each real agent, offline, with memhooks installed by ``memhooks agents install``.

One run per agent (cached for the module): the agent starts in ``backend/auth`` of a test
project and is asked to create ``hello.txt``; the fake model answers with one
file-writing tool call. Then:

* the recalled memory (``MARKER``, scoped to ``backend/auth``) is in a request body the
  model received: recall followed the host's working folder and its channel reached the
  model;
* the file was written, and hook maintenance recorded it in a ``MEMHOOKS.md`` (skipped
  while ``memhooks.maintain.events`` is not installed).

Setup per agent follows ``shared/spec/real-agents.md``. Claude Code and Gemini CLI read
project settings only from the folder they start in, so they are installed ``--user``
(the sandboxed HOME); the others at project level.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from e2e_support import (
    AGENT_ENV,
    MARKER,
    Project,
    binary,
    codex_argv,
    copilot_argv,
    gemini_argv,
    opencode_argv,
    start_fake_llm,
)

PROMPT = "Create hello.txt"
RUNS: dict[str, tuple[Project, list[dict[str, object]], str]] = {}


def _hermes(p: Project, url: str) -> list[str]:
    (p.home / ".hermes").mkdir()
    (p.home / ".hermes" / "config.yaml").write_text(
        f"# the user's own comment\nmodel:\n  provider: custom\n  base_url: {url}/v1\n  default: fake-model\n  api_key: dummy\n"
    )
    return [binary("hermes"), "-z", PROMPT, "--accept-hooks"]


#: agent -> (install arguments, command builder, extra environment)
AGENTS = {
    "claude-code": (["--agent", "claude-code", "--user"], lambda p, u: [binary("claude"), "-p", PROMPT, "--permission-mode", "acceptEdits"],
                    AGENT_ENV["claude-code"]),
    "codex": (["--agent", "codex", "--project"], lambda p, u: codex_argv(p, u, PROMPT), AGENT_ENV["codex"]),
    "gemini-cli": (["--agent", "gemini-cli", "--user"], lambda p, u: gemini_argv(p, u, PROMPT), AGENT_ENV["gemini-cli"]),
    "copilot-cli": (["--agent", "copilot-cli", "--project"], lambda p, u: copilot_argv(p, u, PROMPT), AGENT_ENV["copilot-cli"]),
    "opencode": (["--agent", "opencode", "--project"], lambda p, u: opencode_argv(p, u, PROMPT), AGENT_ENV["opencode"]),
    "hermes-plugin": (["--agent", "hermes", "--user", "--via", "plugin"], _hermes, lambda u: {}),
    "hermes-shell": (["--agent", "hermes", "--user", "--via", "shell"], _hermes, lambda u: {}),
}  # fmt: skip


def run(name: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Project, list[dict[str, object]], str]:
    if name not in RUNS:
        install, build, extra = AGENTS[name]
        project = Project(tmp_path_factory.mktemp(name))
        server = start_fake_llm(project)
        try:
            argv = build(project, server.base_url)
            project.memhooks("agents", "install", "--cwd", str(project.root), *install)
            done = project.run(argv, extra(server.base_url))
            output = f"exit {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        finally:
            server.stop()
        RUNS[name] = (project, server.requests(), output)
    return RUNS[name]


@pytest.mark.parametrize("name", list(AGENTS))
def test_recalled_memory_reaches_the_model(name: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    project, requests, output = run(name, tmp_path_factory)
    hits = [r["seq"] for r in requests if MARKER in json.dumps(r["body"])]
    assert hits, f"{name}: the recalled memory never reached the model\n{output}"
    assert (project.sub / "hello.txt").exists(), f"{name}: the scripted write did not happen\n{output}"


@pytest.mark.parametrize("name", list(AGENTS))
def test_file_write_updates_the_folder_hook(name: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    if importlib.util.find_spec("memhooks.maintain.events") is None:
        pytest.skip("hook maintenance (memhooks.maintain.events) is not installed yet")
    project, _, output = run(name, tmp_path_factory)
    assert (project.sub / "hello.txt").exists(), output
    assert "hello.txt" in project.hooks_text(), f"{name}: no hook records the written file\n{output}"


def test_status_reports_every_installed_agent(tmp_path: Path) -> None:
    project = Project(tmp_path)
    project.memhooks("agents", "install", "--all")  # project level: Hermes is skipped
    project.memhooks("agents", "install", "--agent", "hermes", "--user")
    status = json.loads(project.memhooks("agents", "status", "--format", "json"))
    assert {a["agent"] for a in status["agents"] if a.get("installed")} >= {"claude-code", "codex", "gemini-cli", "copilot-cli", "opencode", "hermes"}
