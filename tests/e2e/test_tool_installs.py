"""memhooks installed the way people install a Python CLI, and a change of install method
that keeps the hook command a host trusted (opt-in: MEMHOOKS_E2E=1, as the real agents).
pipx and uv are found next to this interpreter, in ``tests/e2e/install_agents.sh``'s
``tools`` folder, or on PATH; they fetch memhooks' dependencies from the package index
(pipx through pip's configured index, uv from its own), which is why this is not part of
the default suite. About a minute::

    bash tests/e2e/install_agents.sh        # once; or: pip install pipx uv
    MEMHOOKS_E2E=1 python -m pytest tests/e2e/test_tool_installs.py

From the wheel built off this checkout: ``pipx install`` gives a ``memhooks`` whose
version is the package's; ``memhooks agents install`` writes the launcher into the pipx
virtualenv and ``agents check`` passes. Then pipx's copy goes and ``uv tool install``
brings another (a new virtualenv): the hook keeps working before anything is re-run
(the launcher falls back to ``~/.local/bin/memhooks``), ``agents status`` says so with
the repair, and ``agents install`` re-points only the launcher — the host's settings,
and so what it trusted, are byte for byte what they were.

With the virtualenv deleted (``pipx uninstall``) and no memhooks left, the real Claude
Code, Codex and Gemini CLI each run their hook commands: exit 0, the host's no-op, the
session goes on, and Claude Code shows the one line naming the fix; ``uv tool install``
and ``agents install`` then leave their configs byte for byte as they were, and recall
reaches the model again.

From a clone (``git clone`` of this checkout): ``pipx install <clone>`` and ``uv tool
install <clone>`` each build and install it, with the plugins, their marketplaces and the
skill in the installed package, at memhooks' version; ``agents check`` passes through each.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from e2e_support import (
    AGENT_ENV,
    AGENTS,
    MARKER,
    Project,
    binary,
    codex_argv,
    gemini_argv,
    start_fake_llm,
)

import memhooks
from memhooks.install.command import sourced

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    tools = AGENTS / "tools" / "bin"
    found = shutil.which(name, path=f"{BIN}{os.pathsep}{tools}") or shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (bash tests/e2e/install_agents.sh, or pip install {name})")
    return found


@pytest.fixture
def sandbox(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    (home / "project").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(home / "project")], check=True)
    (home / "project" / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMHOOKS_", "XDG_", "PIPX_", "UV_", "VIRTUAL_ENV"))}
    env.update(HOME=str(home), PIPX_HOME=str(tmp_path / "pipx"), PIPX_BIN_DIR=str(home / ".local/bin"),
               UV_TOOL_DIR=str(tmp_path / "uv-tools"), UV_TOOL_BIN_DIR=str(home / ".local/bin"),
               UV_CACHE_DIR=str(tmp_path / "uv-cache"), PATH=f"{home / '.local/bin'}:/usr/bin:/bin")  # fmt: skip
    return env


def _run(env: dict[str, str] | None, *argv: str) -> str:
    """Run ``argv`` in the sandbox's project (``env`` None: this process's, in the checkout)."""
    cwd = ROOT if env is None else Path(env["HOME"]) / "project"
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"{argv}: exit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done.stdout


def test_pipx_then_uv_keep_the_command_the_host_trusted(sandbox: dict[str, str], tmp_path: Path) -> None:
    pipx, uv = _tool("pipx"), _tool("uv")
    _run(None, sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", str(tmp_path / "dist"), str(ROOT))
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    home = Path(sandbox["HOME"])
    _run(sandbox, pipx, "install", str(wheel))
    assert _run(sandbox, "memhooks", "--version").strip() == f"memhooks {memhooks.__version__}"
    _run(sandbox, "memhooks", "agents", "install", "--agent", "claude-code")
    launcher = home / ".local/share/memhooks/bin/memhooks"
    assert f"python={sandbox['PIPX_HOME']}/venvs/memhooks/bin/python" in launcher.read_text()
    assert "1 of 1 checks passed" in _run(sandbox, "memhooks", "agents", "check")
    trusted = (home / ".claude/settings.json").read_bytes()

    _run(sandbox, pipx, "uninstall", "memhooks")
    _run(sandbox, uv, "tool", "install", str(wheel))  # another install method, another virtualenv
    assert "1 of 1 checks passed" in _run(sandbox, "memhooks", "agents", "check")  # through ~/.local/bin
    state = json.loads(_run(sandbox, "memhooks", "agents", "status", "--agent", "claude-code", "--format", "json"))
    (entry,) = state["agents"]
    assert entry["repair"] == "memhooks agents install --agent claude-code"
    assert any("names a memhooks that is gone" in note for note in entry["notes"])
    changed = _run(sandbox, "memhooks", "agents", "install", "--agent", "claude-code")
    assert f"update {launcher}" in changed and "settings.json" not in changed.split("installed")[0]
    assert f"python={sandbox['UV_TOOL_DIR']}/memhooks/bin/python" in launcher.read_text()
    assert (home / ".claude/settings.json").read_bytes() == trusted  # the command the host trusted
    assert "1 of 1 checks passed" in _run(sandbox, "memhooks", "agents", "check")


def test_pipx_and_uv_install_from_a_clone_with_the_plugins(sandbox: dict[str, str], tmp_path: Path) -> None:
    pipx, uv = _tool("pipx"), _tool("uv")
    clone = tmp_path / "clone"
    _run(None, "git", "clone", "-q", str(ROOT), str(clone))
    for install, remove, venv in (
        ([pipx, "install", str(clone)], [pipx, "uninstall", "memhooks"], Path(sandbox["PIPX_HOME"]) / "venvs/memhooks"),
        ([uv, "tool", "install", str(clone)], [uv, "tool", "uninstall", "memhooks"], Path(sandbox["UV_TOOL_DIR"]) / "memhooks"),
    ):
        _run(sandbox, *install)
        assert _run(sandbox, "memhooks", "--version").strip() == f"memhooks {memhooks.__version__}"
        (package,) = venv.glob("lib/python*/site-packages/memhooks")
        for rel in ("plugins/claude-code/.claude-plugin/plugin.json", "plugins/codex/.codex-plugin/plugin.json",
                    "plugins/gemini-cli/gemini-extension.json", "plugins/copilot-cli/plugin.json",
                    "plugins/cursor/.cursor-plugin/plugin.json"):  # fmt: skip
            assert json.loads((package / rel).read_text())["version"] == memhooks.__version__, rel
        for market in (".claude-plugin", ".agents/plugins", ".github/plugin", ".cursor-plugin"):
            assert (package / "plugins" / market / "marketplace.json").is_file()
        assert (package / "skill/SKILL.md").is_file() and list((package / "schemas").glob("*.json"))
        _run(sandbox, "memhooks", "agents", "install", "--agent", "claude-code")
        assert f"python={venv}/bin/python" in (Path(sandbox["HOME"]) / ".local/share/memhooks/bin/memhooks").read_text()
        assert "1 of 1 checks passed" in _run(sandbox, "memhooks", "agents", "check")
        _run(sandbox, *remove)


#: host -> its user-level config holding the hook commands
CONFIGS = {"claude-code": ".claude/settings.json", "codex": ".codex/hooks.json", "gemini-cli": ".gemini/settings.json"}


def _commands(home: Path) -> dict[str, list[str]]:
    """Every hook command in each host's config."""
    found: dict[str, list[str]] = {}
    for agent, rel in CONFIGS.items():
        text = (home / rel).read_text()
        found[agent] = sorted(set(re.findall(r'"command": "([^"]*)"', text)))
    return found


def _sessions(p: Project, env: dict[str, str], argv: dict[str, list[str]]) -> dict[str, tuple[subprocess.CompletedProcess[str], bool]]:
    """Each host's session against the fake model: (its run, whether the memory reached the model)."""
    out = {}
    for agent, words in argv.items():
        (p.sub / "hello.txt").unlink(missing_ok=True)
        server = start_fake_llm(p)
        try:
            done = subprocess.run(words(server.base_url), env={**env, **AGENT_ENV[agent](server.base_url)}, cwd=p.sub,
                                  stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=240, check=False)  # fmt: skip
        finally:
            server.stop()
        assert done.returncode == 0 and (p.sub / "hello.txt").exists(), f"{agent}: {done.stdout[-2000:]}{done.stderr[-2000:]}"
        out[agent] = (done, any(MARKER in json.dumps(r["body"]) for r in server.requests()))
    return out


def test_a_deleted_virtualenv_fails_open_in_the_real_hosts_and_the_next_keeps_their_commands(tmp_path: Path) -> None:
    pipx, uv = _tool("pipx"), _tool("uv")
    _run(None, sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", str(tmp_path / "dist"), str(ROOT))
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    (tmp_path / "p").mkdir()
    p = Project(tmp_path / "p")
    npm = binary("claude").rsplit("/", 1)[0]
    env = {**p.env, "PIPX_HOME": str(tmp_path / "pipx"), "PIPX_BIN_DIR": str(p.home / ".local/bin"), "UV_TOOL_DIR": str(tmp_path / "uv-tools"),
           "UV_TOOL_BIN_DIR": str(p.home / ".local/bin"), "UV_CACHE_DIR": str(tmp_path / "uv-cache"),
           "PATH": f"{p.home / '.local/bin'}:{npm}:/usr/bin:/bin"}  # fmt: skip
    claude = [binary("claude"), "-p", "Create hello.txt", "--permission-mode", "acceptEdits", "--output-format", "stream-json", "--verbose", "--include-hook-events"]
    gemini = gemini_argv(p, "", "Create hello.txt")  # writes its settings whole: before memhooks is installed
    # Codex's helper writes config.toml (the model's URL) whole, not the hooks.json memhooks writes
    argv = {"claude-code": lambda u: claude, "codex": lambda u: codex_argv(p, u, "Create hello.txt"), "gemini-cli": lambda u: gemini}

    def memhooks_(*args: str) -> str:
        done = subprocess.run(["memhooks", *args], env=env, cwd=p.root, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    subprocess.run([pipx, "install", str(wheel)], env=env, capture_output=True, check=True, timeout=600)
    for agent in argv:
        memhooks_("agents", "install", "--agent", agent, "--user")
    launcher = p.home / ".local/share/memhooks/bin/memhooks"
    written = _commands(p.home)
    first = _sessions(p, env, argv)
    assert all(delivered for _, delivered in first.values())
    assert _commands(p.home) == written  # the hosts' own writes kept them
    for agent, commands in written.items():  # each runs in a shell: it sources the launcher
        assert commands and all(sourced(c) == str(launcher) for c in commands), (agent, commands)

    subprocess.run([pipx, "uninstall", "memhooks"], env=env, capture_output=True, check=True, timeout=600)
    assert not (tmp_path / "pipx/venvs/memhooks").exists() and shutil.which("memhooks", path=env["PATH"]) is None
    gone = _sessions(p, env, argv)
    events = [json.loads(line) for line in gone["claude-code"][0].stdout.splitlines() if line.startswith("{")]
    (reply, *_) = [e for e in events if e.get("subtype") == "hook_response" and e.get("hook_event") == "UserPromptSubmit"]
    assert (reply["exit_code"], reply["outcome"]) == (0, "success")  # the host's no-op
    shown = json.loads(reply["stdout"])["systemMessage"]  # shown to the user, under the prompt
    assert "is gone" in shown and "`memhooks agents install`" in shown and reply["stderr"].strip() == shown
    for agent, (done, delivered) in gone.items():
        assert not delivered and "blocked" not in done.stderr.lower() and "hook returned invalid" not in done.stderr, (agent, done.stderr[-2000:])

    subprocess.run([uv, "tool", "install", str(wheel)], env=env, capture_output=True, check=True, timeout=600)
    before = {agent: (p.home / rel).read_bytes() for agent, rel in CONFIGS.items()}
    for agent in argv:
        memhooks_("agents", "install", "--agent", agent, "--user")
    assert f"python={tmp_path / 'uv-tools'}/memhooks/bin/python" in launcher.read_text()
    assert {agent: (p.home / rel).read_bytes() for agent, rel in CONFIGS.items()} == before  # what they trusted
    assert _commands(p.home) == written
    back = _sessions(p, env, argv)
    assert all(delivered for _, delivered in back.values()), {a: d.stderr[-1000:] for a, (d, ok) in back.items() if not ok}
