"""Every installer from a clean tree: install, install again (no change), status, uninstall
(nothing of ours left); conflicts with files other tools own; the CLI's dry run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memhooks.install import INSTALLERS, Context, apply, plan, status
from memhooks.install.command import is_ours


def context(tmp_path: Path, agent: str, exe: list[str], level: str | None = None, **kwargs: object) -> Context:
    """Project level unless the host has none (Hermes), or ``level``."""
    levels = INSTALLERS[agent].LEVELS
    level = level or ("project" if "project" in levels else levels[0])
    return Context(str(tmp_path / "proj"), level, home=str(tmp_path / "home"), exe=exe, env={}, **kwargs)  # type: ignore[arg-type]


def tree(base: Path) -> dict[str, str]:
    return {str(p.relative_to(base)): p.read_text() for p in sorted(base.rglob("*")) if p.is_file() and "bin" not in p.parts}


@pytest.mark.parametrize(("agent", "level"), [(a, lv) for a in INSTALLERS for lv in INSTALLERS[a].LEVELS])
def test_install_status_uninstall(agent: str, level: str, tmp_path: Path, exe: list[str]) -> None:
    (tmp_path / "proj").mkdir()
    ctx = context(tmp_path, agent, exe, level)
    edits = plan("install", agent, ctx)
    assert edits and all(e.action == "create" for e in edits)
    apply(edits)
    assert plan("install", agent, ctx) == []
    found = status(agent, ctx)
    assert found.installed and found.events and found.files
    assert found.fires is not False, found.problems
    assert set(found.events) == set(INSTALLERS[agent].EVENTS)
    written = tree(tmp_path)
    assert any(exe[0] in text for text in written.values())
    apply(plan("uninstall", agent, ctx))
    assert not status(agent, ctx).installed
    leftover = {name: text for name, text in tree(tmp_path).items() if exe[0] in text}
    assert leftover == {}
    assert plan("uninstall", agent, ctx) == []


def test_roles_are_written_into_the_command(tmp_path: Path, exe: list[str]) -> None:
    ctx = context(tmp_path, "copilot-cli", exe, roles=["reviewer"])
    apply(plan("install", "copilot-cli", ctx))
    config = json.loads((tmp_path / "proj/.github/hooks/memhooks.json").read_text())
    assert config["hooks"]["userPromptSubmitted"][0]["bash"] == f"{exe[0]} hook --agent copilot-cli --role reviewer userPromptSubmitted"


def test_a_moved_memhooks_replaces_the_old_command(tmp_path: Path, exe: list[str]) -> None:
    old = context(tmp_path, "cursor", ["/old/bin/memhooks"])
    apply(plan("install", "cursor", old))
    apply(plan("install", "cursor", context(tmp_path, "cursor", exe)))
    text = (tmp_path / "proj/.cursor/hooks.json").read_text()
    assert "/old/bin" not in text and text.count(exe[0]) == len(INSTALLERS["cursor"].events)


@pytest.mark.parametrize(("agent", "name"), [("cline", ".clinerules/hooks/UserPromptSubmit"), ("opencode", ".opencode/plugins/memhooks.js")])
def test_files_of_other_tools_are_left_alone(agent: str, name: str, tmp_path: Path, exe: list[str]) -> None:
    theirs = tmp_path / "proj" / name
    theirs.parent.mkdir(parents=True)
    theirs.write_text("#!/bin/sh\necho someone else's hook\n")
    ctx = context(tmp_path, agent, exe)
    apply(plan("install", agent, ctx))
    assert theirs.read_text() == "#!/bin/sh\necho someone else's hook\n"
    assert any("another tool" in p for p in status(agent, ctx).problems)
    apply(plan("uninstall", agent, ctx))
    assert theirs.exists()


def test_invalid_config_is_an_error_not_a_rewrite(tmp_path: Path, exe: list[str]) -> None:
    from memhooks.install import InstallError

    broken = tmp_path / "proj/.claude/settings.local.json"
    broken.parent.mkdir(parents=True)
    broken.write_text('{"hooks": [oops')
    with pytest.raises(InstallError) as caught:
        plan("install", "claude-code", context(tmp_path, "claude-code", exe))
    found = caught.value.diagnostic
    assert (found.code, found.path, found.line, found.column) == ("MH028", str(broken), 1, 12)
    assert found.message == f"claude-code: {broken}: not valid JSON: invalid value"
    assert broken.read_text() == '{"hooks": [oops'


def test_a_broken_user_settings_file_is_named_with_its_line_and_column(tmp_path: Path) -> None:
    # issue 13 item 16: `error: claude-code: expected ',' ...` named no file
    home = tmp_path / "home"
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text('{\n  "model": "opus"\n  "hooks": {}\n}\n')
    (tmp_path / "proj").mkdir()
    env = {**os.environ, "HOME": str(home)}
    done = subprocess.run([sys.executable, "-m", "memhooks", "agents", "install", "--agent", "claude-code", "--cwd", str(tmp_path / "proj")], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"error[MH028]: claude-code: {settings}: not valid JSON: expected ',' or '}}'",
        f"  --> {settings}:3:3",
        "  help: fix the file at that place (memhooks changed nothing), then run the command again",
    ]
    assert settings.read_text() == '{\n  "model": "opus"\n  "hooks": {}\n}\n'


@pytest.mark.parametrize("action", ["install", "uninstall", "status"])
def test_an_unknown_agent_is_named_at_its_flag_with_the_action_s_help(
    action: str, tmp_path: Path
) -> None:
    # newcomer30: it pointed at `memhooks agents` and its help, where `transcripts import
    # --agent nope` names the flag
    (tmp_path / "home").mkdir()
    env = {**os.environ, "HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-m", "memhooks", "agents", action, "--agent", "nope"],
                          env=env, cwd=tmp_path, capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert lines[0].startswith("error[MH044]: unknown agent 'nope'; expected one of: claude-code")
    assert lines[1:] == ["  --> --agent", f"  help: `memhooks agents {action} --help` says what it takes"]
    assert not (tmp_path / "home" / ".claude").exists()


def test_missing_program_means_it_would_not_fire(tmp_path: Path) -> None:
    ctx = context(tmp_path, "claude-code", ["/nowhere/memhooks"])
    apply(plan("install", "claude-code", ctx))
    found = status("claude-code", ctx)
    assert found.fires is False and "not found" in found.problems[0]


def test_hermes_levels_and_modes(tmp_path: Path, exe: list[str]) -> None:
    from memhooks.errors import UsageError

    with pytest.raises(UsageError):
        plan("install", "hermes", Context(str(tmp_path), "project", home=str(tmp_path / "home"), exe=exe, env={}))
    ctx = context(tmp_path, "hermes", exe, via="shell")
    apply(plan("install", "hermes", ctx))
    found = status("hermes", ctx)
    assert found.fires is None and "accept-hooks" in found.todo[0]
    allowlist = tmp_path / "home/.hermes/shell-hooks-allowlist.json"
    config = (tmp_path / "home/.hermes/config.yaml").read_text()
    commands = [line.split("command: ", 1)[1] for line in config.splitlines() if "command: " in line]
    events = ["pre_llm_call", "post_tool_call"]
    allowlist.write_text(json.dumps({"approvals": [{"event": e, "command": c} for e, c in zip(events, commands)]}))
    assert status("hermes", ctx).fires is True
    plugin = context(tmp_path, "hermes", exe, via="plugin")
    apply(plan("install", "hermes", plugin))
    assert "hooks:" not in (tmp_path / "home/.hermes/config.yaml").read_text()
    assert (tmp_path / "home/.hermes/plugins/memhooks/__init__.py").exists()
    assert status("hermes", plugin).fires is True


def test_is_ours() -> None:
    assert is_ours("/x/bin/memhooks hook --agent codex")
    assert is_ours("'/path with space/memhooks' hook")
    assert is_ours("python3 -m memhooks hook --agent x")
    assert not is_ours("memhooks-other hook")
    assert not is_ours("memhooks explain .")
    assert not is_ours(None)


def test_cli_dry_run_writes_nothing_and_json_reports(tmp_path: Path) -> None:
    proj = tmp_path / "proj"
    proj.mkdir()
    home = tmp_path / "home"  # an empty home folder (a missing one is an error: test_home)
    home.mkdir()
    env = {**os.environ, "HOME": str(home)}
    done = subprocess.run([sys.executable, "-m", "memhooks", "agents", "install", "--all", "--dry-run", "--cwd", str(proj), "--format", "json"], env=env, capture_output=True, text=True, check=True)
    report = json.loads(done.stdout)
    assert {a["agent"] for a in report["agents"]} == set(INSTALLERS)
    assert all(c["action"] == "create" for a in report["agents"] for c in a.get("changes", []))
    assert sorted(tmp_path.rglob("*")) == [home, proj]
    # no --agent, and no host on this machine (HOME is empty, PATH has none of them)
    alone = {**env, "PATH": str(tmp_path / "nothing")}
    done = subprocess.run([sys.executable, "-m", "memhooks", "agents", "install", "--cwd", str(proj)], env=alone, capture_output=True, text=True, check=False)
    assert done.returncode == 1 and "found: no agent host on this machine" in done.stdout
    assert "claude-code: skipped: not found (looked for claude on PATH, ~/.claude)" in done.stdout
    assert sorted(tmp_path.rglob("*")) == [home, proj]


@pytest.mark.parametrize("level", ["user", "project"])
def test_every_command_status_suggests_stays_at_the_installed_level(level: str, tmp_path: Path) -> None:
    # issue 13 item 16: after a --user install, status suggested project-level commands
    import re

    proj = tmp_path / "proj"
    (proj / ".git").mkdir(parents=True)
    done = subprocess.run([sys.executable, "-m", "memhooks", "agents", "install", "--all", f"--{level}", "--cwd", str(proj)], capture_output=True, text=True, check=True)
    # (a note that proposes the user level on purpose is not a repeat of this install)
    kept = "\n".join(line for line in done.stdout.splitlines() if "install at user level" not in line)
    suggested = re.findall(r"`?(memhooks agents \w+ [^`\n)]*)", kept)
    assert suggested
    for command in suggested:
        assert ("--project" in command) == (level == "project"), command
        assert "--user" not in command, command  # user is every host's default level


def test_status_names_each_hosts_prompt_time_and_tool_time_channel(tmp_path: Path) -> None:
    proj = tmp_path / "proj"
    proj.mkdir()
    done = subprocess.run([sys.executable, "-m", "memhooks", "agents", "install", "--all", "--cwd", str(proj)], capture_output=True, text=True, check=True)
    lines = done.stdout.splitlines()
    for name, host in INSTALLERS.items():
        delivery, row = host.delivery, host.wiring
        prompt = delivery.prompt_channel or f"none: no hook output of {row['title']} reaches the model at prompt time"
        tool = delivery.tool_channel or f"none: {row['without_tool_channel']}"
        assert f"{name}:   prompt time: {prompt}" in lines
        assert f"{name}:   tool time: {tool}" in lines
