"""Helpers of the real-agent tests: the test project, the agents' paths, the fake model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
DATA = HERE / "data"
AGENTS = Path(os.environ.get("MEMHOOKS_E2E_AGENTS", "/tmp/memhooks-e2e-agents"))
#: Text of the memory recall must bring back; it appears nowhere else.
MARKER = "E2E-RECALL-7731"


def memhooks_cli() -> str:
    return str(Path(sys.executable).with_name("memhooks"))


def binary(name: str) -> str:
    path = AGENTS / ("hermes/bin/hermes" if name == "hermes" else f"npm/bin/{name}")
    if not path.exists():
        pytest.skip(f"{name} not installed in {AGENTS} (run tests/e2e/install_agents.sh)")
    return str(path)


ROOT_HOOK = """---
schema: memhooks/v2
recall_queries:
  - "What constraints apply to every change in this project?"
---
"""
AUTH_HOOK = """---
schema: memhooks/v2
recall_queries:
  - query: "How do refresh tokens rotate in the auth service?"
    priority: 0.9
---
"""


AUTH_TREE = {"MEMHOOKS.md": ROOT_HOOK, "backend/auth/MEMHOOKS.md": AUTH_HOOK, "backend/auth/tokens.py": "ROTATE_AFTER_S = 30\n"}
AUTH_MEMORIES = json.dumps({"id": "e2e-1", "scope": "backend/auth", "kind": "decision", "text": f"{MARKER}: refresh tokens rotate every 30 seconds; never log them."}) + "\n"


def sandbox_env(home: Path) -> dict[str, str]:
    """This process's environment with HOME and the XDG folders under ``home``, the
    installed agents first on PATH, and no memhooks or model-provider settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMHOOKS_", "ANTHROPIC", "OPENAI", "GEMINI", "COPILOT", "CLAUDE"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share"),
               XDG_CACHE_HOME=str(home / ".cache"), XDG_STATE_HOME=str(home / ".local/state"),
               GIT_CONFIG_NOSYSTEM="1", PATH=f"{AGENTS / 'npm/bin'}:{os.environ.get('PATH', '')}")  # fmt: skip
    return env


class Project:
    """A git project (files ``tree``: root-relative path -> text; ``memories``: JSONL for
    ``memories import``), with its own HOME, memory store and memhooks state directory.
    ``sub`` is the folder ``start`` in it. By default: a root hook, a hook in
    ``backend/auth`` and one memory scoped there."""

    def __init__(self, base: Path, tree: dict[str, str] | None = None, memories: str = AUTH_MEMORIES, start: str = "backend/auth") -> None:
        self.root = base / "proj"
        self.sub = self.root / start
        self.home = base / "home"
        self.store = base / "store.sqlite3"
        self.state = base / "state"
        self.home.mkdir()
        for name, text in (AUTH_TREE if tree is None else tree).items():
            (self.root / name).parent.mkdir(parents=True, exist_ok=True)
            (self.root / name).write_text(text)
        self.sub.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "init", "-q", str(self.root)], check=True)
        (base / "memories.jsonl").write_text(memories)
        self.memhooks("memories", "import", "--cwd", str(self.root), str(base / "memories.jsonl"))
        # A first commit: OpenCode finds its project (and opencode.json) through it.
        git = ["git", "-C", str(self.root), "-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid"]
        subprocess.run([*git, "add", "-A"], check=True, env=self.env)
        subprocess.run([*git, "commit", "-qm", "test project"], check=True, env=self.env)

    @property
    def env(self) -> dict[str, str]:
        return {**sandbox_env(self.home), "MEMHOOKS_STORE": str(self.store), "MEMHOOKS_STATE_DIR": str(self.state)}

    def memhooks(self, *args: str) -> str:
        done = subprocess.run([memhooks_cli(), *args], env=self.env, cwd=self.root, capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def run(self, argv: list[str], extra_env: dict[str, str] | None = None, timeout: int = 240, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        """Run an agent in ``cwd`` (default ``sub``: for the default project, a subfolder
        recall must follow)."""
        cwd = self.sub if cwd is None else cwd
        # PWD as a shell would set it: OpenCode takes its directory from it, not from getcwd().
        env = {**self.env, **(extra_env or {}), "PWD": str(cwd)}
        return subprocess.run(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout, check=False)

    def hooks_text(self) -> str:
        return "".join(p.read_text() for p in sorted(self.root.rglob("MEMHOOKS.md")))


def routing_project(base: Path, start: str = "") -> Project:
    """The project of the session-routing tests (``data/routing``): 30 root memories about
    totals written to match the prompt "Make the totals use two decimals", one memory
    anchored to ``billing/`` (scope and ``billing/invoice.py``) and one to ``shipping/``
    that share no word with it: only routing by the files the agent touches brings them."""
    tree = json.loads((DATA / "routing" / "tree.json").read_text())
    return Project(base, tree, (DATA / "routing" / "memories.jsonl").read_text(), start=start)


class Story:
    """The retry story (``tests/lines/data/retry_story.json``: decision commit →
    unrelated commit → a misleading "perf: simplify retry" on the same lines) built as a
    real repository at ``base/proj`` (``root``; ``hashes``: ``{label: commit}``), with
    Claude Code's default install (``memhooks init``, ``memhooks agents install --agent
    claude-code``; no history import, no store) and its own HOME and state folder
    (``env``)."""

    def __init__(self, base: Path) -> None:
        sys.path.insert(0, str(HERE.parent / "lines"))
        try:
            from storyrepo import build
        finally:
            sys.path.remove(str(HERE.parent / "lines"))
        self.root, home = base / "proj", base / "home"
        home.mkdir()
        self.hashes = build(self.root)
        self.env = {**sandbox_env(home), "MEMHOOKS_STATE_DIR": str(base / "state"),
                    "MEMHOOKS_STORE": str(base / "store.sqlite3")}  # fmt: skip
        for args in (["init"], ["agents", "install", "--agent", "claude-code"]):
            done = subprocess.run([memhooks_cli(), *args], cwd=self.root, env=self.env,
                                  capture_output=True, text=True, check=False)  # fmt: skip
            assert done.returncode == 0, done.stderr

    def claude(self, server_url: str, *args: str) -> subprocess.CompletedProcess[str]:
        """Claude Code run at the root in print mode (``claude -p ARGS``, edits accepted)
        against the fake model at ``server_url``."""
        return subprocess.run(
            [binary("claude"), "-p", *args, "--permission-mode", "acceptEdits"],
            cwd=self.root, env={**self.env, **AGENT_ENV["claude-code"](server_url), "PWD": str(self.root)},
            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=240, check=False,
        )  # fmt: skip


def start_fake_llm(project: Project, **kwargs: object):  # type: ignore[no-untyped-def]
    """A running fake model server; by default it makes the agent write ``backend/auth/hello.txt``."""
    kwargs = kwargs or {"scenario": "write", "write_path": str(project.sub / "hello.txt")}
    return fake_llm(project.root.parent / "requests.jsonl", **kwargs)


def fake_llm(log: Path, **kwargs: object):  # type: ignore[no-untyped-def]
    """A running ``fake_llm.FakeLLM(**kwargs)`` logging every request to ``log`` (JSONL)."""
    sys.path.insert(0, str(HERE))
    try:
        from fake_llm import FakeLLM
    finally:
        sys.path.remove(str(HERE))
    return FakeLLM(log_path=str(log), **kwargs).start()


# -- launching each agent offline against the fake model (shared/spec/real-agents.md) --


def codex_argv(p: Project, url: str, prompt: str) -> list[str]:
    """Codex with a provider pointing at the fake model and the project trusted."""
    (p.home / ".codex").mkdir(exist_ok=True)
    (p.home / ".codex" / "config.toml").write_text(
        'model = "gpt-5.5"\nmodel_provider = "fake"\n\n[model_providers.fake]\nname = "fake"\n'
        f'base_url = "{url}/v1"\nenv_key = "FAKE_API_KEY"\nwire_api = "responses"\n\n'
        f'[projects."{p.root}"]\ntrust_level = "trusted"\n'
    )
    return [binary("codex"), "exec", "--dangerously-bypass-hook-trust", "-m", "gpt-5.5", "--disable", "plugins", "--disable", "apps",
            "--disable", "remote_plugin", "--disable", "plugin_sharing", "-c", "analytics.enabled=false", prompt]  # fmt: skip


def gemini_argv(p: Project, url: str, prompt: str) -> list[str]:
    """Gemini CLI with user settings that hold a comment of the user's (the install must keep it)."""
    (p.home / ".gemini").mkdir(exist_ok=True)
    (p.home / ".gemini" / "settings.json").write_text(
        '{"security": {"auth": {"selectedType": "gemini-api-key"}},\n // the user\'s own comment\n'
        ' "privacy": {"usageStatisticsEnabled": false}, "telemetry": {"enabled": false},\n'
        ' "general": {"disableAutoUpdate": true, "disableUpdateNag": true}}\n'
    )
    return [binary("gemini"), "-p", prompt, "--approval-mode", "auto_edit"]


def opencode_argv(p: Project, url: str, prompt: str) -> list[str]:
    """OpenCode with the fake model as an OpenAI-compatible provider (``opencode.json``, not committed)."""
    config = {"$schema": "https://opencode.ai/config.json", "autoupdate": False, "share": "disabled", "model": "fake/fake-model", "small_model": "fake/fake-model",
              "provider": {"fake": {"npm": "@ai-sdk/openai-compatible", "name": "Fake LLM", "options": {"baseURL": f"{url}/v1", "apiKey": "dummy"},
                                    "models": {"fake-model": {"name": "Fake Model", "tool_call": True, "limit": {"context": 128000, "output": 8192}}}}},
              "permission": {"edit": "allow", "bash": "allow"}}  # fmt: skip
    (p.root / "opencode.json").write_text(json.dumps(config))  # before the agent starts
    return [binary("opencode"), "run", prompt]


def copilot_argv(p: Project, url: str, prompt: str) -> list[str]:
    return [binary("copilot"), "-p", prompt, "--allow-all-tools"]


#: The environment each agent needs to talk to the fake model at ``url``, and nothing else.
AGENT_ENV = {
    "claude-code": lambda u: {"ANTHROPIC_BASE_URL": u, "ANTHROPIC_API_KEY": "dummy", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
                              "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1"},
    "codex": lambda u: {"FAKE_API_KEY": "dummy"},
    "gemini-cli": lambda u: {"GEMINI_API_KEY": "dummy", "GOOGLE_GEMINI_BASE_URL": u, "GEMINI_CLI_TRUST_WORKSPACE": "true"},
    "copilot-cli": lambda u: {"COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": f"{u}/v1", "COPILOT_PROVIDER_API_KEY": "dummy",
                              "COPILOT_MODEL": "fake-model", "COPILOT_AUTO_UPDATE": "false", "COPILOT_ALLOW_ALL": "true"},
    "opencode": lambda u: {"OPENCODE_DISABLE_MODELS_FETCH": "1", "OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_SHARE": "1",
                           "OPENCODE_DISABLE_LSP_DOWNLOAD": "1"},
}  # fmt: skip
