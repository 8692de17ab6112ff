"""``memhooks agents check``: each installed host's hook, run exactly as the host will run
it with the host's payload shape, in a throwaway project with a known memory; a failure
anywhere (no answer, a reply the host would drop, no memory, the host switched hooks
off or never approved them) exits 1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memhooks.install import Context, apply, plan, status
from memhooks.install.check import MARKER, check, payloads
from memhooks.install.hosts import INSTALLERS
from memhooks.store import MemoryStore

pytestmark = pytest.mark.skipif(os.name == "nt", reason="the launcher is a POSIX shell script")


def _cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / ".local/share")}
    return subprocess.run([sys.executable, "-m", "memhooks", "agents", "check", *args, "--cwd", str(home)],
                          capture_output=True, text=True, env=env, timeout=120, check=False)  # fmt: skip


def _install(home: Path, agent: str, level: str = "user", exe: list[str] | None = None) -> Context:
    env = {"XDG_DATA_HOME": str(home / ".local/share")}
    ctx = Context(str(home), level, home=str(home), env=env, exe=exe)
    apply(plan("install", agent, ctx))
    return ctx


def test_every_host_with_a_prompt_channel_has_a_payload() -> None:
    assert set(payloads()) - {"_doc"} == set(INSTALLERS)
    for agent, sample in payloads().items():
        if agent != "_doc":
            assert sample["event"] in INSTALLERS[agent].EVENTS, agent


@pytest.mark.parametrize("agent", ["claude-code", "gemini-cli", "copilot-cli", "cursor", "kiro", "cline", "opencode", "windsurf", "copilot-vscode"])
def test_an_installed_host_checks_out(agent: str, tmp_path: Path) -> None:
    level = INSTALLERS[agent].default_level
    ctx = _install(tmp_path, agent, level)
    (result,) = check(INSTALLERS[agent], ctx, status(agent, ctx))
    assert result.ok, result.problems
    assert result.fired and 0 < result.ms < result.deadline_ms
    assert result.delivered is (None if agent == "windsurf" else True)  # Windsurf: no channel


def test_a_git_dir_in_the_environment_is_left_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # run from a git hook or an alias, GIT_DIR names the user's repository: the check's
    # throwaway project is made its own repository, the user's is never initialised
    ctx = _install(tmp_path, "claude-code")
    theirs = tmp_path / "theirs.git"
    monkeypatch.setenv("GIT_DIR", str(theirs))
    (result,) = check(INSTALLERS["claude-code"], ctx, status("claude-code", ctx))
    assert result.ok, result.problems
    assert not theirs.exists()


def test_the_cli_reports_and_exits_0_when_every_check_passes(tmp_path: Path) -> None:
    _install(tmp_path, "claude-code")
    done = _cli(tmp_path, "--agent", "claude-code")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "claude-code (user): UserPromptSubmit: ok"
    assert "the known memory reached the reply" in lines[2] and lines[-1] == "1 of 1 checks passed"
    report = json.loads(_cli(tmp_path, "--agent", "claude-code", "--format", "json").stdout)
    (entry,) = report["checks"]
    assert entry["ok"] and entry["delivered"] and entry["command"].startswith("set -- hook --agent claude-code; command . ")
    # the check's project has its own store; the user's, which the hooks will read, may
    # not exist yet: said, not failed (lead: a project with hooks and no memories is normal)
    store = report["store"]
    assert store["exists"] is False and lines[-2] == (
        f"memory store: {store['path']}: none yet — `memhooks history import` (the project's commits) "
        "or `memhooks remember` makes it; until then hooks give the hooks' own guidance only"
    )
    with MemoryStore(store["path"]) as made:
        made.add("p", "a memory")
    assert _cli(tmp_path, "--agent", "claude-code").stdout.splitlines()[-2] == f"memory store: {store['path']}"


def test_nothing_installed_is_a_failure(tmp_path: Path) -> None:
    done = _cli(tmp_path)
    assert done.returncode == 1
    assert done.stdout.strip() == "memhooks is not installed in any agent host: run `memhooks agents install` first"


def test_hooks_switched_off_in_claude_code_fail_the_check(tmp_path: Path) -> None:
    _install(tmp_path, "claude-code")
    settings = tmp_path / ".claude/settings.json"
    settings.write_text(json.dumps({**json.loads(settings.read_text()), "disableAllHooks": True}))
    done = _cli(tmp_path, "--agent", "claude-code")
    assert done.returncode == 1
    assert f"claude-code:   Claude Code: hooks are off: disableAllHooks is true in {settings}" in done.stdout.splitlines()


def test_codex_hooks_count_only_once_approved(tmp_path: Path) -> None:
    ctx = _install(tmp_path, "codex")
    (result,) = check(INSTALLERS["codex"], ctx, status("codex", ctx))
    assert result.fired and result.delivered and not result.ok
    assert result.trust is not None and result.trust[1].startswith("not approved")
    hooks = tmp_path / ".codex/hooks.json"
    (tmp_path / ".codex/config.toml").write_text(  # what /hooks records (openai/codex PR 20321)
        f'[hooks.state."{hooks}:user_prompt_submit:0:0"]\ntrusted_hash = "sha256:00"\n'
    )
    (approved,) = check(INSTALLERS["codex"], ctx, status("codex", ctx))
    assert approved.ok, approved.problems


def test_a_reply_the_host_would_drop_fails(tmp_path: Path) -> None:
    talker = tmp_path / "bin" / "memhooks"  # a memhooks that prints plain text
    talker.parent.mkdir()
    talker.write_text(f"#!/bin/sh\ncat >/dev/null\necho '{MARKER} as plain text'\n")
    talker.chmod(0o755)
    ctx = _install(tmp_path, "gemini-cli", exe=[str(talker)])
    (result,) = check(INSTALLERS["gemini-cli"], ctx, status("gemini-cli", ctx))
    assert result.shape == "stdout is not one JSON object" and not result.ok


def test_a_gone_installation_fails_the_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ctx = _install(tmp_path, "claude-code")
    assert ctx.launcher is not None
    text = Path(ctx.launcher).read_text().replace("python=", "python=/gone", 1)
    Path(ctx.launcher).write_text(text)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # no memhooks to fall back to
    (result,) = check(INSTALLERS["claude-code"], ctx, status("claude-code", ctx))
    assert result.fired and result.shape == "no hookSpecificOutput.additionalContext string in the reply"
    # reviewA: the check named only the reply's shape; the hook's own line says why
    said = result.problems[0]
    assert said.startswith("the hook said: memhooks: MH040 the memhooks installation this hook runs (")
    assert "is gone" in said and "`memhooks agents install`" in said
    assert result.problems[1] == result.shape


def test_a_plugin_is_checked_through_its_own_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from test_plugins import _plugin_home

    home = _plugin_home(tmp_path, "gemini-cli")
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local/share"))  # where the plugin finds the launcher
    ctx = Context(str(tmp_path), "user", home=str(home), env={"XDG_DATA_HOME": str(home / ".local/share")})
    apply(plan("install", "gemini-cli", ctx))  # the launcher; the extension wires the hooks
    found = status("gemini-cli", ctx)
    (result,) = check(INSTALLERS["gemini-cli"], ctx, found)
    assert result.ok, result.problems
    assert result.command == f'set -- hook --agent gemini-cli; command . "{found.plugin["path"]}/bin/memhooks" || exit 0'  # type: ignore[index]


@pytest.mark.parametrize(("via", "ran"), [("shell", True), ("plugin", False)])
def test_hermes_shell_hooks_are_checked_its_plugin_is_not(via: str, ran: bool, tmp_path: Path) -> None:
    env = {"XDG_DATA_HOME": str(tmp_path / ".local/share")}
    ctx = Context(str(tmp_path), "user", home=str(tmp_path), env=env, via=via)
    apply(plan("install", "hermes", ctx))
    (result,) = check(INSTALLERS["hermes"], ctx, status("hermes", ctx))
    assert (result.skipped is None) is ran
    assert result.ok and result.delivered is (True if ran else None), result.problems
