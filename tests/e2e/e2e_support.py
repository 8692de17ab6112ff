"""Helpers of the real-agent tests: the test project, the agents' paths, the fake model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
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


class Project:
    """A git project with a root hook, a hook in ``backend/auth`` and one memory scoped there."""

    def __init__(self, base: Path) -> None:
        self.root = base / "proj"
        self.sub = self.root / "backend" / "auth"
        self.home = base / "home"
        self.store = base / "store.sqlite3"
        self.sub.mkdir(parents=True)
        self.home.mkdir()
        (self.root / "MEMHOOKS.md").write_text(ROOT_HOOK)
        (self.sub / "MEMHOOKS.md").write_text(AUTH_HOOK)
        (self.sub / "tokens.py").write_text("ROTATE_AFTER_S = 30\n")
        subprocess.run(["git", "init", "-q", str(self.root)], check=True)
        memories = base / "memories.jsonl"
        memories.write_text(json.dumps({"id": "e2e-1", "scope": "backend/auth", "kind": "decision", "text": f"{MARKER}: refresh tokens rotate every 30 seconds; never log them."}) + "\n")
        self.memhooks("memories", "import", "--cwd", str(self.root), str(memories))
        # A first commit: OpenCode finds its project (and opencode.json) through it.
        git = ["git", "-C", str(self.root), "-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid"]
        subprocess.run([*git, "add", "-A"], check=True, env=self.env)
        subprocess.run([*git, "commit", "-qm", "test project"], check=True, env=self.env)

    @property
    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMHOOKS_", "ANTHROPIC", "OPENAI", "GEMINI", "COPILOT", "CLAUDE"))}
        env.update(HOME=str(self.home), XDG_CONFIG_HOME=str(self.home / ".config"), XDG_DATA_HOME=str(self.home / ".local/share"),
                   XDG_CACHE_HOME=str(self.home / ".cache"), XDG_STATE_HOME=str(self.home / ".local/state"), MEMHOOKS_STORE=str(self.store),
                   GIT_CONFIG_NOSYSTEM="1", PATH=f"{AGENTS / 'npm/bin'}:{os.environ.get('PATH', '')}")  # fmt: skip
        return env

    def memhooks(self, *args: str) -> str:
        done = subprocess.run([memhooks_cli(), *args], env=self.env, cwd=self.root, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def run(self, argv: list[str], extra_env: dict[str, str] | None = None, timeout: int = 240) -> subprocess.CompletedProcess[str]:
        """Run an agent in ``backend/auth`` (a subfolder: recall must follow it)."""
        # PWD as a shell would set it: OpenCode takes its directory from it, not from getcwd().
        env = {**self.env, **(extra_env or {}), "PWD": str(self.sub)}
        return subprocess.run(argv, env=env, cwd=self.sub, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)

    def hooks_text(self) -> str:
        return "".join(p.read_text() for p in sorted(self.root.rglob("MEMHOOKS.md")))


def start_fake_llm(project: Project):  # type: ignore[no-untyped-def]
    """A running fake model server that makes the agent write ``backend/auth/hello.txt``."""
    sys.path.insert(0, str(HERE))
    try:
        from fake_llm import FakeLLM
    finally:
        sys.path.remove(str(HERE))
    log = project.root.parent / "requests.jsonl"
    return FakeLLM(scenario="write", write_path=str(project.sub / "hello.txt"), log_path=str(log)).start()
