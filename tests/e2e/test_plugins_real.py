"""memhooks' plugins and extensions in the real hosts, offline (opt-in: MEMHOOKS_E2E=1).

* each host validates them with its own command (``claude plugin validate --strict``,
  ``gemini extensions validate``; Codex has none: ``codex plugin marketplace add`` and
  ``codex plugin add`` read them);
* installed the way the host's users install plugins — Claude Code from this clone as a
  local marketplace (``claude plugin marketplace add <repo>``, ``claude plugin install
  memhooks``), Codex likewise (``codex plugin marketplace add``, ``codex plugin add
  memhooks@memhooks``), Gemini CLI from the extension folder (``gemini extensions
  install``) — the recalled memory reaches the model, in a session started in a
  subfolder, with ``memhooks agents install`` run after (it writes the launcher, wires
  nothing twice, and ``agents status`` names the plugin);
* with the memhooks the launcher names gone, Claude Code still answers and shows the
  user the one line that says how to repair.
"""

from __future__ import annotations

import json
import os
import subprocess
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
    start_fake_llm,
)

from memhooks.agents.claude_code import INSTALL as CLAUDE_CODE

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = ROOT / "src" / "memhooks" / "plugins"
PROMPT = "Create hello.txt"


def _host(p: Project, argv: list[str], answer: str = "") -> subprocess.CompletedProcess[str]:
    """Run a host's own command; ``answer``: what the user types at its prompt."""
    done = subprocess.run(argv, env=p.env, cwd=p.root, capture_output=True, text=True, timeout=120, input=answer, check=False)
    assert done.returncode == 0, f"{argv}: exit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done


def _delivered(requests: list[dict[str, object]]) -> bool:
    return any(MARKER in json.dumps(r["body"]) for r in requests)


def _status(p: Project, agent: str) -> dict[str, object]:
    out = json.loads(p.memhooks("agents", "status", "--agent", agent, "--format", "json"))
    (entry,) = [e for e in out["agents"] if e["level"] == "user"]
    return entry


def test_claude_code_validates_the_plugin_and_the_marketplace(tmp_path: Path) -> None:
    p = Project(tmp_path)
    claude = binary("claude")
    for target in (ROOT, PLUGINS, PLUGINS / "claude-code"):  # the marketplaces, the plugin
        done = _host(p, [claude, "plugin", "validate", "--strict", str(target)])
        assert "Validation passed" in done.stdout, done.stdout


def test_gemini_cli_validates_the_extension(tmp_path: Path) -> None:
    p = Project(tmp_path)
    done = _host(p, [binary("gemini"), "extensions", "validate", str(PLUGINS / "gemini-cli")])
    assert "successfully validated" in done.stdout + done.stderr


def _after_plugin(p: Project, agent: str, argv: list[str], extra: dict[str, str]) -> tuple[str, list[dict[str, object]]]:
    """``memhooks agents install`` after the plugin, then a run: (install output, requests)."""
    installed = p.memhooks("agents", "install", "--agent", agent, "--cwd", str(p.root))
    server = start_fake_llm(p)
    try:
        done = p.run(argv(server.base_url) if callable(argv) else argv, extra(server.base_url) if callable(extra) else extra)
        assert done.returncode == 0, done.stderr[-3000:]
    finally:
        server.stop()
    return installed, server.requests()


def test_claude_code_plugin_from_a_local_marketplace_delivers_recall(tmp_path: Path) -> None:
    p = Project(tmp_path)
    claude = binary("claude")
    _host(p, [claude, "plugin", "marketplace", "add", str(ROOT)])
    _host(p, [claude, "plugin", "install", "memhooks"])  # as the issue has it: no @marketplace
    installed, requests = _after_plugin(p, "claude-code", lambda u: [claude, "-p", PROMPT, "--permission-mode", "acceptEdits"], AGENT_ENV["claude-code"])
    assert "carries it" not in installed and "create" in installed  # only the launcher was written
    settings = json.loads((p.home / ".claude/settings.json").read_text())
    assert "hooks" not in settings and settings["enabledPlugins"] == {"memhooks@memhooks": True}
    assert _delivered(requests), "the plugin's recall never reached the model"
    entry = _status(p, "claude-code")
    assert entry["plugin"]["ref"] == "memhooks@memhooks" and entry["fires"] is True  # type: ignore[index]
    assert set(entry["events"]) == {event for event, _ in CLAUDE_CODE["events"]}  # type: ignore[arg-type]
    checked = p.memhooks("agents", "check", "--agent", "claude-code")  # exit 0, or memhooks() fails
    assert 'command . "' + str(p.home / ".claude/plugins/cache/memhooks/memhooks") in checked  # read into Claude Code's shell


def test_claude_code_plugin_takes_over_from_settings_hooks(tmp_path: Path) -> None:
    p = Project(tmp_path)
    claude = binary("claude")
    p.memhooks("agents", "install", "--agent", "claude-code")
    _host(p, [claude, "plugin", "marketplace", "add", str(ROOT)])
    _host(p, [claude, "plugin", "install", "memhooks@memhooks"])
    assert any("wired twice" in n for n in _status(p, "claude-code")["notes"])  # type: ignore[union-attr]
    out = p.memhooks("agents", "install", "--agent", "claude-code")
    assert "carries it" in out  # the settings entries and the skill copy go
    entry = _status(p, "claude-code")
    assert entry["plugin"] and not any("wired twice" in n for n in entry["notes"])  # type: ignore[union-attr]
    assert "hooks" not in json.loads((p.home / ".claude/settings.json").read_text())


def test_codex_plugin_from_a_local_marketplace_delivers_recall(tmp_path: Path) -> None:
    p = Project(tmp_path)
    codex = binary("codex")
    _host(p, [codex, "plugin", "marketplace", "add", str(ROOT)])
    _host(p, [codex, "plugin", "add", "memhooks@memhooks"])

    def argv(url: str) -> list[str]:
        config = (p.home / ".codex" / "config.toml").read_text() if (p.home / ".codex" / "config.toml").exists() else ""
        words = codex_argv(p, url, PROMPT)  # writes its own config.toml: keep the plugin's tables
        (p.home / ".codex" / "config.toml").write_text((p.home / ".codex" / "config.toml").read_text() + "\n" + config)
        plugins_off = words.index("plugins")  # this run needs plugins; the other DNS-free flags stay
        return words[: plugins_off - 1] + words[plugins_off + 1 :]

    installed, requests = _after_plugin(p, "codex", argv, AGENT_ENV["codex"])
    assert not (p.home / ".codex" / "hooks.json").exists(), installed
    assert _delivered(requests), "the plugin's recall never reached the model"
    assert _status(p, "codex")["plugin"]["ref"] == "memhooks@memhooks"  # type: ignore[index]


def test_gemini_cli_extension_delivers_recall(tmp_path: Path) -> None:
    p = Project(tmp_path)
    gemini = binary("gemini")
    # it asks whether to trust the extension's folder even with --consent
    _host(p, [gemini, "extensions", "install", str(PLUGINS / "gemini-cli"), "--consent"], answer="y\n")
    installed, requests = _after_plugin(p, "gemini-cli", lambda u: gemini_argv(p, u, PROMPT), AGENT_ENV["gemini-cli"])
    settings = p.home / ".gemini" / "settings.json"
    assert "hook --agent" not in settings.read_text(), installed
    assert _delivered(requests), "the extension's recall never reached the model"
    assert _status(p, "gemini-cli")["plugin"]["path"].endswith("extensions/memhooks")  # type: ignore[index]
    assert "1 of 1 checks passed" in p.memhooks("agents", "check", "--agent", "gemini-cli")


def test_copilot_cli_plugin_from_a_local_marketplace_delivers_recall(tmp_path: Path) -> None:
    p = Project(tmp_path)
    copilot = binary("copilot")
    _host(p, [copilot, "plugin", "marketplace", "add", str(ROOT)])  # reads .github/plugin/marketplace.json
    _host(p, [copilot, "plugin", "install", "memhooks@memhooks"])
    installed, requests = _after_plugin(p, "copilot-cli", lambda u: copilot_argv(p, u, PROMPT), AGENT_ENV["copilot-cli"])
    assert not (p.home / ".copilot/hooks/memhooks.json").exists(), installed
    assert _delivered(requests), "the plugin's recall never reached the model"
    entry = _status(p, "copilot-cli")
    assert entry["plugin"]["ref"] == "memhooks@memhooks" and entry["fires"] is True  # type: ignore[index]
    assert "1 of 1 checks passed" in p.memhooks("agents", "check", "--agent", "copilot-cli")


def test_a_removed_installation_is_shown_to_the_claude_code_user(tmp_path: Path) -> None:
    p = Project(tmp_path)
    p.memhooks("agents", "install", "--agent", "claude-code")
    launcher = p.home / ".local/share/memhooks/bin/memhooks"
    text = launcher.read_text().splitlines()
    gone = [line if not line.startswith("python=") else "python=/gone/venv/bin/python3" for line in text]
    launcher.write_text("\n".join(gone) + "\n")
    env = {**AGENT_ENV["claude-code"]("http://127.0.0.1:9"), "PATH": "/usr/bin:/bin"}  # no memhooks to fall back to
    server = start_fake_llm(p)
    try:
        argv = [binary("claude"), "-p", PROMPT, "--permission-mode", "acceptEdits", "--output-format", "stream-json", "--verbose", "--include-hook-events"]
        done = p.run(argv, {**env, **AGENT_ENV["claude-code"](server.base_url), "PATH": f"{binary('claude').rsplit('/', 1)[0]}:/usr/bin:/bin"})
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr[-2000:]
    events = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    replies = [e for e in events if e.get("subtype") == "hook_response" and e.get("hook_event") == "UserPromptSubmit"]
    assert replies, done.stdout[-3000:]
    reply = replies[0]
    assert (reply["exit_code"], reply["outcome"]) == (0, "success")  # fails open
    shown = json.loads(reply["stdout"])["systemMessage"]  # what Claude Code shows the user
    assert "`memhooks agents install`" in shown and reply["stderr"].strip() == shown
    assert server.requests(), "the prompt went on to the model"
    assert os.access(launcher, os.X_OK)


@pytest.mark.parametrize("agent", ["codex", "gemini-cli"])
def test_a_removed_installation_fails_open_in_codex_and_gemini(agent: str, tmp_path: Path) -> None:
    # Their headless modes (codex exec --json, gemini -p --output-format stream-json) show
    # no hook systemMessage, which their TUIs display: what is proven here is that the
    # reply is accepted and the session goes on.
    p = Project(tmp_path)
    p.memhooks("agents", "install", "--agent", agent)
    launcher = p.home / ".local/share/memhooks/bin/memhooks"
    launcher.write_text(launcher.read_text().replace("python=", "python=/gone", 1))
    server = start_fake_llm(p)
    try:
        argv = (codex_argv if agent == "codex" else gemini_argv)(p, server.base_url, PROMPT)
        path = f"{binary('codex' if agent == 'codex' else 'gemini').rsplit('/', 1)[0]}:/usr/bin:/bin"
        done = p.run(argv, {**AGENT_ENV[agent](server.base_url), "PATH": path})  # no memhooks to fall back to
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr[-2000:]
    assert "hook returned invalid" not in done.stderr and "blocked" not in done.stderr.lower(), done.stderr[-2000:]
    assert (p.sub / "hello.txt").exists() and not _delivered(server.requests()), done.stderr[-2000:]
