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
from e2e_support import MARKER, Project, binary, start_fake_llm

RUNS: dict[str, tuple[Project, list[dict[str, object]], str]] = {}


def _codex(p: Project, url: str) -> list[str]:
    codex_home = p.home / ".codex"
    codex_home.mkdir()
    (codex_home / "config.toml").write_text(
        'model = "gpt-5.5"\nmodel_provider = "fake"\n\n[model_providers.fake]\nname = "fake"\n'
        f'base_url = "{url}/v1"\nenv_key = "FAKE_API_KEY"\nwire_api = "responses"\n\n'
        f'[projects."{p.root}"]\ntrust_level = "trusted"\n'
    )
    return [binary("codex"), "exec", "--dangerously-bypass-hook-trust", "-m", "gpt-5.5", "--disable", "plugins", "--disable", "apps",
            "--disable", "remote_plugin", "--disable", "plugin_sharing", "-c", "analytics.enabled=false", "Create hello.txt"]  # fmt: skip


def _gemini(p: Project, url: str) -> list[str]:
    (p.home / ".gemini").mkdir()
    (p.home / ".gemini" / "settings.json").write_text(
        '{"security": {"auth": {"selectedType": "gemini-api-key"}},\n // the user\'s own comment\n'
        ' "privacy": {"usageStatisticsEnabled": false}, "telemetry": {"enabled": false},\n'
        ' "general": {"disableAutoUpdate": true, "disableUpdateNag": true}}\n'
    )
    return [binary("gemini"), "-p", "Create hello.txt", "--approval-mode", "auto_edit"]


def _opencode(p: Project, url: str) -> list[str]:
    config = {"$schema": "https://opencode.ai/config.json", "autoupdate": False, "share": "disabled", "model": "fake/fake-model", "small_model": "fake/fake-model",
              "provider": {"fake": {"npm": "@ai-sdk/openai-compatible", "name": "Fake LLM", "options": {"baseURL": f"{url}/v1", "apiKey": "dummy"},
                                    "models": {"fake-model": {"name": "Fake Model", "tool_call": True, "limit": {"context": 128000, "output": 8192}}}}},
              "permission": {"edit": "allow", "bash": "allow"}}  # fmt: skip
    (p.root / "opencode.json").write_text(json.dumps(config))  # before the agent starts; not committed
    return [binary("opencode"), "run", "Create hello.txt"]


def _hermes(p: Project, url: str) -> list[str]:
    (p.home / ".hermes").mkdir()
    (p.home / ".hermes" / "config.yaml").write_text(
        f"# the user's own comment\nmodel:\n  provider: custom\n  base_url: {url}/v1\n  default: fake-model\n  api_key: dummy\n"
    )
    return [binary("hermes"), "-z", "Create hello.txt", "--accept-hooks"]


#: agent -> (install arguments, command builder, extra environment)
AGENTS = {
    "claude-code": (["--agent", "claude-code", "--user"], lambda p, u: [binary("claude"), "-p", "Create hello.txt", "--permission-mode", "acceptEdits"],
                    lambda u: {"ANTHROPIC_BASE_URL": u, "ANTHROPIC_API_KEY": "dummy", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1"}),
    "codex": (["--agent", "codex", "--project"], _codex, lambda u: {"FAKE_API_KEY": "dummy"}),
    "gemini-cli": (["--agent", "gemini-cli", "--user"], _gemini,
                   lambda u: {"GEMINI_API_KEY": "dummy", "GOOGLE_GEMINI_BASE_URL": u, "GEMINI_CLI_TRUST_WORKSPACE": "true"}),
    "copilot-cli": (["--agent", "copilot-cli", "--project"], lambda p, u: [binary("copilot"), "-p", "Create hello.txt", "--allow-all-tools"],
                    lambda u: {"COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": f"{u}/v1", "COPILOT_PROVIDER_API_KEY": "dummy", "COPILOT_MODEL": "fake-model",
                               "COPILOT_AUTO_UPDATE": "false", "COPILOT_ALLOW_ALL": "true"}),
    "opencode": (["--agent", "opencode", "--project"], _opencode,
                 lambda u: {"OPENCODE_DISABLE_MODELS_FETCH": "1", "OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_SHARE": "1", "OPENCODE_DISABLE_LSP_DOWNLOAD": "1"}),
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
