"""``memhooks agents install`` without ``--agent`` (seed 004's one-step install): it wires
the hosts on this machine — programs on a PATH we control, config folders in the
sandboxed HOME — says which it found and which it skipped, changes nothing the second
time, and ``uninstall`` without ``--agent`` takes out only what is ours."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.fixture
def machine(tmp_path: Path) -> dict[str, str]:
    """A PATH with fake ``claude`` and ``copilot`` programs (and a non-executable
    ``gemini``), a HOME with Cursor's and VS Code Copilot's folders, a git project."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("claude", "copilot"):
        (bin_dir / name).write_text("#!/bin/sh\nexit 0\n")
        (bin_dir / name).chmod(0o755)
    (bin_dir / "gemini").write_text("not a program\n")  # not executable: not found
    home = Path(os.environ["HOME"])
    (home / ".cursor").mkdir()
    (home / ".vscode/extensions/github.copilot-chat-0.31.2").mkdir(parents=True)
    # someone else's Claude Code hook, to be kept
    (home / ".claude").mkdir()
    (home / ".claude/settings.json").write_text(
        '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}}\n'
    )
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n")
    return {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{Path(sys.executable).parent}",
        "PROJ": str(project),
    }


def agents(env: dict[str, str], *args: str, code: int = 0) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "memhooks", "agents", *args, "--cwd", env["PROJ"]],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == code, done.stderr
    return done.stdout


def test_it_wires_the_hosts_it_finds_and_says_which_it_skipped(machine: dict[str, str]) -> None:
    home = Path(machine["HOME"])
    out = agents(machine, "install")
    lines = out.splitlines()
    assert lines[0] == (
        "found: claude-code (claude on PATH, ~/.claude), copilot-cli (copilot on PATH), "
        "copilot-vscode (~/.vscode/extensions/github.copilot-chat-*), cursor (~/.cursor)"
    )
    assert "gemini-cli: skipped: not found (looked for gemini on PATH, ~/.gemini)" in lines
    assert "codex: skipped: not found (looked for codex on PATH, ~/.codex)" in lines
    # user level: fires wherever the host starts
    assert (
        f"claude-code: installed (user) in {home}/.claude/settings.json; events: UserPromptSubmit, PostToolUse, PreToolUse, SessionStart; fires: yes"
        in lines
    )
    assert (home / ".copilot/hooks/memhooks.json").exists()
    assert (home / ".copilot/hooks/memhooks-vscode.json").exists()
    assert (home / ".cursor/hooks.json").exists()
    assert not (home / ".gemini").exists() and not (home / ".codex").exists()
    assert not (Path(machine["PROJ"]) / ".claude").exists(), "nothing goes into the project"
    settings = json.loads((home / ".claude/settings.json").read_text())
    assert settings["hooks"]["Stop"][0]["hooks"][0]["command"] == "notify-send done"
    assert (
        settings["hooks"]["PostToolUse"][0]["matcher"]
        == "Read|Grep|Glob|Edit|Write|MultiEdit|NotebookEdit"
    )

    again = agents(machine, "install")
    changed = [line for line in again.splitlines() if line.endswith("nothing to change")]
    assert len(changed) == 4 and " create " not in again and " update " not in again

    report = json.loads(agents(machine, "install", "--dry-run", "--format", "json"))
    found = {d["agent"]: d["found"] for d in report["detected"]}
    assert [name for name, yes in found.items() if yes] == [
        "claude-code",
        "copilot-cli",
        "copilot-vscode",
        "cursor",
    ]

    out = agents(machine, "uninstall")
    assert {
        line.split(":")[0]
        for line in out.splitlines()
        if ": delete " in line or ": update " in line
    } == {
        "claude-code",
        "copilot-cli",
        "copilot-vscode",
        "cursor",
    }
    assert json.loads((home / ".claude/settings.json").read_text()) == {
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}
    }
    assert not (home / ".copilot").exists() and not (home / ".cursor/hooks.json").exists()
    assert (
        agents(machine, "uninstall")
        == "memhooks is not installed in any agent host: nothing to change\n"
    )


def test_nothing_found_is_said_and_changes_nothing(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    env = {**os.environ, "PATH": str(tmp_path / "empty"), "PROJ": str(project)}
    out = agents(env, "install", code=1)
    assert out.splitlines()[0] == "found: no agent host on this machine"
    assert (
        out.splitlines()[-1]
        == "nothing installed: name a host with --agent NAME, or use --all for every host"
    )
    assert not any(Path(os.environ["HOME"]).iterdir())
