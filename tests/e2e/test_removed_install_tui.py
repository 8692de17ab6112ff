"""A removed memhooks installation, as the user sees it in the hosts' own terminal UIs
(opt-in: MEMHOOKS_E2E=1; needs tmux).

The launcher names a memhooks that is gone and none is on ``PATH``: Claude Code 2.1.197
and Gemini CLI 0.61.0, started interactively in tmux, show the launcher's one line (its
``systemMessage``) under the prompt, and the prompt still goes on to the model. (Codex's
TUI runs no hook before it is approved in ``/hooks``, which only a person can do.)
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from e2e_support import AGENTS, Project, binary, fake_llm

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


def _screen(session: str) -> str:
    done = subprocess.run(["tmux", "capture-pane", "-t", session, "-p", "-J"], capture_output=True, text=True, check=False)
    return done.stdout


def _wait(session: str, text: str, seconds: float = 60) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        screen = _screen(session)
        if text in screen:
            return screen
        time.sleep(0.5)
    return _screen(session)


@pytest.mark.parametrize("agent", ["claude-code", "gemini-cli"])
def test_the_user_sees_how_to_repair(agent: str, tmp_path: Path) -> None:
    program = binary("claude" if agent == "claude-code" else "gemini")
    p = Project(tmp_path, start="")
    p.memhooks("agents", "install", "--agent", agent)
    launcher = p.home / ".local/share/memhooks/bin/memhooks"
    launcher.write_text(launcher.read_text().replace("python=", "python=/gone", 1))
    if agent == "claude-code":  # a first start without its questions: onboarding, API key, folder trust
        (p.home / ".claude.json").write_text(json.dumps({
            "hasCompletedOnboarding": True, "theme": "dark", "customApiKeyResponses": {"approved": ["dummy"], "rejected": []},
            "projects": {str(p.root): {"hasTrustDialogAccepted": True, "hasCompletedProjectOnboarding": True}}}))  # fmt: skip
    else:
        settings = p.home / ".gemini/settings.json"
        data = json.loads(settings.read_text())
        data.update(security={"auth": {"selectedType": "gemini-api-key"}}, privacy={"usageStatisticsEnabled": False},
                    telemetry={"enabled": False}, general={"disableAutoUpdate": True, "disableUpdateNag": True})  # fmt: skip
        settings.write_text(json.dumps(data))
    server = fake_llm(tmp_path / "requests.jsonl", scenario="text")
    session = f"memhooks-{agent}-{tmp_path.name}"
    env = {"HOME": str(p.home), "XDG_DATA_HOME": str(p.home / ".local/share"), "PATH": f"{AGENTS / 'npm/bin'}:/usr/bin:/bin"}
    if agent == "claude-code":
        env.update(ANTHROPIC_BASE_URL=server.base_url, ANTHROPIC_API_KEY="dummy", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_AUTOUPDATER="1")
    else:
        env.update(GEMINI_API_KEY="dummy", GOOGLE_GEMINI_BASE_URL=server.base_url, GEMINI_CLI_TRUST_WORKSPACE="true")
    command = ["env", *(f"{k}={v}" for k, v in env.items()), program]
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "200", "-y", "50", "-c", str(p.root), *command], check=True)
    try:
        _wait(session, "/auth" if agent == "gemini-cli" else "for shortcuts")
        subprocess.run(["tmux", "send-keys", "-t", session, "Say hello"], check=True)
        time.sleep(1)
        subprocess.run(["tmux", "send-keys", "-t", session, "Enter"], check=True)
        screen = _wait(session, "FAKE-LLM-OK")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False)
        server.stop()
    assert "memhooks agents install" in screen and "is gone" in screen, screen
    assert "FAKE-LLM-OK" in screen, screen  # the prompt went on
