"""The launcher: one path per user that hook commands run, so an upgrade, a new
virtualenv or another Python never changes the command a host trusted; when the
installation it names is gone it runs another memhooks, or fails open saying how to
repair, and ``agents status`` prints the repair command."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import memhooks
from memhooks.install import Context, apply, launcher, launcher_state, plan, retire, status
from memhooks.install.command import hook_program, is_ours, sourcing
from memhooks.install.hosts import INSTALLERS

pytestmark = pytest.mark.skipif(os.name == "nt", reason="the launcher is a POSIX shell script")

MAIN = hook_program([sys.executable, "-m", "memhooks"])


def _project(base: Path) -> Path:
    root = base / "proj"
    (root / "billing").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n")
    return root


def _env(base: Path, path: str = "/usr/bin:/bin") -> dict[str, str]:
    """A host's environment: no virtualenv on PATH, the sandbox's home and state."""
    return {
        "HOME": str(base / "home"),
        "XDG_DATA_HOME": str(base / "home/.local/share"),
        "PATH": path,
        "MEMHOOKS_STATE_DIR": str(base / "state"),
        "MEMHOOKS_STORE": str(base / "store.sqlite3"),
        "XDG_CACHE_HOME": str(base / "cache"),
    }


def _installed(base: Path, agent: str = "claude-code") -> tuple[Context, str]:
    """A user-level install of ``agent`` in a sandbox home: (context, the hook command)."""
    env = _env(base)
    ctx = Context(str(_project(base)), "user", home=env["HOME"], env=env)
    apply(plan("install", agent, ctx))
    settings = json.loads((base / "home/.claude/settings.json").read_text())
    return ctx, settings["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"]


def _hook(command: str, payload: dict[str, object], env: dict[str, str], shell: str = "/bin/sh") -> subprocess.CompletedProcess[str]:
    """``command`` run as Claude Code runs it (``/bin/sh -c``; Codex, Gemini CLI and
    Copilot CLI: ``bash -c``)."""
    return subprocess.run([shell, "-c", command], input=json.dumps(payload), text=True, capture_output=True, env=env, cwd="/", timeout=60, check=False)


def _remember(base: Path, root: Path) -> None:
    done = subprocess.run([*MAIN, "remember", "Totals are rounded half-even: an auditor's finding", "--cwd", str(root / "billing")],
                          capture_output=True, text=True, env=_env(base), timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr


def _point(where: str, python: str, main: str) -> None:
    """Re-point a launcher file, as another installation's install would."""
    with open(where, "w", encoding="utf-8") as handle:
        handle.write(launcher.text(where, python, main))


def test_the_command_runs_the_launcher_which_answers_as_the_direct_command_does(tmp_path: Path) -> None:
    ctx, command = _installed(tmp_path)
    where = tmp_path / "home/.local/share/memhooks/bin/memhooks"
    # Claude Code runs it in /bin/sh: it sources the launcher into that shell
    assert ctx.launcher == str(where) and command == f"set -- hook --agent claude-code; command . {where} || exit 0"
    assert is_ours(command) and os.access(where, os.X_OK)
    assert launcher_state.points_at(str(where)) == (MAIN[0], MAIN[2])
    root = tmp_path / "proj"
    _remember(tmp_path, root)
    payload = {"hook_event_name": "UserPromptSubmit", "cwd": str(root / "billing"), "session_id": "s1", "prompt": "how are totals rounded?"}
    through = _hook(command, payload, _env(tmp_path))
    direct = _hook(shlex.join([*MAIN, "hook", "--agent", "claude-code"]), {**payload, "session_id": "s2"}, _env(tmp_path))
    assert through.returncode == 0 and through.stderr == ""
    assert "half-even" in through.stdout and through.stdout == direct.stdout
    in_bash = _hook(command, {**payload, "session_id": "s3"}, _env(tmp_path), shell="/bin/bash")  # as Codex runs it
    assert (in_bash.returncode, in_bash.stderr, in_bash.stdout) == (0, "", direct.stdout)
    program = _hook(f"{where} hook --agent claude-code", {**payload, "session_id": "s4"}, _env(tmp_path))
    assert (program.returncode, program.stdout) == (0, direct.stdout)  # hosts without a shell run it so


def test_the_launcher_imports_nothing_from_the_folder_the_host_starts_it_in(tmp_path: Path) -> None:
    ctx, command = _installed(tmp_path)
    root = tmp_path / "proj"
    _remember(tmp_path, root)
    # a project's own modules named like memhooks' or the standard library's: ``python -c``
    # would put the working folder first on the path
    for shadow in ("memhooks/__init__.py", "gc.py", "json.py", "sqlite3.py"):
        (root / shadow).parent.mkdir(exist_ok=True)
        (root / shadow).write_text("raise SystemExit('imported from the project')\n")
    payload = {"hook_event_name": "UserPromptSubmit", "cwd": str(root / "billing"), "session_id": "s1", "prompt": "how are totals rounded?"}
    done = subprocess.run(["/bin/sh", "-c", command], input=json.dumps(payload), text=True, capture_output=True, env=_env(tmp_path), cwd=root, timeout=60, check=False)  # fmt: skip
    assert (done.returncode, done.stderr) == (0, "") and "half-even" in done.stdout
    version = subprocess.run([str(ctx.launcher), "--version"], text=True, capture_output=True, env=_env(tmp_path), cwd=root, timeout=60, check=False)  # fmt: skip
    assert version.returncode == 0 and version.stdout.split()[-1] == memhooks.__version__


def test_an_install_from_another_installation_repoints_the_launcher_and_keeps_the_command(tmp_path: Path) -> None:
    ctx, _ = _installed(tmp_path)
    settings = (tmp_path / "home/.claude/settings.json").read_text()
    old = tmp_path / "old-venv"
    (old / "bin").mkdir(parents=True)
    _point(str(ctx.launcher), str(old / "bin/python3"), str(old / "memhooks/__main__.py"))
    edits = plan("install", "claude-code", ctx)
    assert [e.path for e in edits] == [ctx.launcher]  # nothing in the host's config changes
    apply(edits)
    assert (tmp_path / "home/.claude/settings.json").read_text() == settings
    assert launcher_state.points_at(str(ctx.launcher)) == (MAIN[0], MAIN[2])
    assert plan("install", "claude-code", ctx) == []


def test_a_gone_installation_fails_open_in_the_hosts_visible_way(tmp_path: Path) -> None:
    ctx, command = _installed(tmp_path)
    _point(str(ctx.launcher), "/gone/venv/bin/python3", "/gone/venv/lib/memhooks/__main__.py")
    payload = {"hook_event_name": "UserPromptSubmit", "cwd": str(tmp_path / "proj"), "session_id": "s", "prompt": "x"}
    done = _hook(command, payload, _env(tmp_path))  # no memhooks on PATH nor in ~/.local/bin
    assert done.returncode == 0
    shown = json.loads(done.stdout)["systemMessage"]  # Claude Code shows it to the user
    assert "/gone/venv/bin/python3" in shown and "`memhooks agents install`" in shown
    assert done.stderr.strip() == shown and len(done.stderr.splitlines()) == 1
    kiro = _hook(f"{ctx.launcher} hook --agent kiro", payload, _env(tmp_path))  # no such channel
    assert (kiro.returncode, kiro.stdout, kiro.stderr.strip()) == (0, "", shown)
    cline = _hook(f"{ctx.launcher} hook --agent cline UserPromptSubmit", payload, _env(tmp_path))
    assert (cline.returncode, cline.stdout.strip()) == (0, '{"cancel":false}')  # Cline's no-op
    mcp = _hook(f"{ctx.launcher} mcp", {}, _env(tmp_path))
    assert mcp.returncode == 1  # not a hook: no reply to fake


def test_status_prints_the_repair_command_for_a_gone_installation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ctx, _ = _installed(tmp_path)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    _point(str(ctx.launcher), "/gone/venv/bin/python3", "/gone/venv/lib/memhooks/__main__.py")
    found = status("claude-code", ctx)
    assert found.fires is False and found.repair == "memhooks agents install --agent claude-code"
    gone = f"the memhooks installation the launcher {ctx.launcher} starts is gone (/gone/venv/bin/python3)"
    assert found.problems == [f"UserPromptSubmit, PostToolUse, PreToolUse, SessionStart: {gone}"]
    apply(plan("install", "claude-code", ctx))  # the repair
    repaired = status("claude-code", ctx)
    assert (repaired.fires, repaired.repair, repaired.problems) == (True, None, [])


def test_the_launcher_runs_in_the_smallest_shell_there_is_and_status_sees_it_gone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ctx, _ = _installed(tmp_path)
    apply(plan("install", "cursor", ctx))  # Cursor: not known to run commands in a shell
    cursor = json.loads((tmp_path / "home/.cursor/hooks.json").read_text())
    assert cursor["hooks"]["sessionStart"][0]["command"] == f"{ctx.launcher} hook --agent cursor"
    assert ctx.launcher is not None
    first = Path(ctx.launcher).read_text().splitlines()[0]
    assert first == ("#!/bin/dash" if os.access("/bin/dash", os.X_OK) else "#!/bin/sh") == f"#!{launcher.shell()}"
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    with open(ctx.launcher, "w", encoding="utf-8") as handle:  # written where there was a dash, since removed
        handle.write(launcher.text(ctx.launcher, MAIN[0], MAIN[2], sh="/gone/bin/dash"))
    found = status("cursor", ctx)
    assert found.fires is False and found.repair == "memhooks agents install --agent cursor"
    gone = f"the shell the launcher {ctx.launcher} runs in is gone (/gone/bin/dash)"
    assert found.problems == [f"sessionStart, postToolUse, afterFileEdit, preCompact: {gone}"]
    assert status("claude-code", ctx).problems == []  # it sources the launcher: the #! line is not read
    apply(plan("install", "cursor", ctx))  # the repair
    assert Path(ctx.launcher).read_text().splitlines()[0] == first
    assert status("cursor", ctx).problems == []
    script = tmp_path / "venv/bin/tool"  # a script of someone else's whose interpreter went
    script.parent.mkdir(parents=True)
    script.write_text("#!/gone/venv/bin/python3\n")
    assert launcher_state.problem(str(script)) is None  # not a launcher: not ours to explain


def test_a_moved_installation_runs_the_memhooks_on_path_until_repointed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ctx, command = _installed(tmp_path)
    root = tmp_path / "proj"
    _remember(tmp_path, root)
    _point(str(ctx.launcher), "/gone/venv/bin/python3", "/gone/venv/lib/memhooks/__main__.py")
    on_path = _env(tmp_path, f"{os.path.dirname(sys.executable)}:/usr/bin:/bin")  # e.g. ~/.local/bin of pipx
    payload = {"hook_event_name": "UserPromptSubmit", "cwd": str(root / "billing"), "session_id": "s", "prompt": "how are totals rounded?"}
    done = _hook(command, payload, on_path)
    assert done.returncode == 0 and "half-even" in done.stdout, done.stderr
    monkeypatch.setenv("PATH", on_path["PATH"])  # status looks where the user's shell does
    found = status("claude-code", ctx)
    assert found.fires is True and found.repair == "memhooks agents install --agent claude-code"
    assert any("names a memhooks that is gone" in note for note in found.notes)
    elsewhere = os.path.join(os.path.dirname(sys.executable), "memhooks")
    assert found.runs == {"program": elsewhere, "version": memhooks.__version__}
    cli = subprocess.run([*MAIN, "agents", "status", "--agent", "claude-code", "--cwd", str(root)], capture_output=True, text=True,
                         env={**on_path, "XDG_DATA_HOME": str(tmp_path / "home/.local/share")}, timeout=60, check=False)  # fmt: skip
    said = f"fires: yes, but it runs another installation: memhooks {memhooks.__version__} at {elsewhere}"
    assert cli.returncode == 0 and any(line.endswith(said) for line in cli.stdout.splitlines()), cli.stdout


def test_an_installation_made_again_in_the_same_environment_is_followed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 24's newcomer: `pip install -e .` into the venv `agents install` ran from
    # replaces the package folder; the launcher's __main__.py is gone, its interpreter is
    # not: hooks answered only "installation … is gone" until the next install
    ctx, command = _installed(tmp_path)
    root = tmp_path / "proj"
    _remember(tmp_path, root)
    gone = str(tmp_path / "site-packages/memhooks/__main__.py")  # the folder pip removed
    _point(str(ctx.launcher), sys.executable, gone)
    payload = {"hook_event_name": "UserPromptSubmit", "cwd": str(root / "billing"), "session_id": "s", "prompt": "how are totals rounded?"}
    done = _hook(command, payload, _env(tmp_path))  # no memhooks on PATH nor in ~/.local/bin
    assert (done.returncode, done.stderr) == (0, "") and "half-even" in done.stdout
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert launcher_state.state(str(ctx.launcher)) == launcher_state.REINSTALLED
    found = status("claude-code", ctx)
    assert found.fires is True and found.problems == []
    assert found.repair == "memhooks agents install --agent claude-code"
    assert any(f"names {gone}, which is gone" in note for note in found.notes)
    bare = tmp_path / "bare"  # an interpreter with no memhooks: the launcher looks further
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True, timeout=120)
    _point(str(ctx.launcher), str(bare / "bin/python"), gone)
    assert launcher_state.state(str(ctx.launcher)) == launcher_state.GONE
    nothing = _hook(command, {**payload, "session_id": "t"}, _env(tmp_path))
    assert nothing.returncode == 0 and "is gone" in json.loads(nothing.stdout)["systemMessage"]


def test_uninstall_removes_the_launcher_after_the_last_host_that_runs_it(tmp_path: Path) -> None:
    # issue 24: `agents uninstall` left ~/.local/share/memhooks/bin/memhooks behind
    ctx, _ = _installed(tmp_path)  # Claude Code, user level
    apply(plan("install", "cursor", ctx))
    project = ctx.at("project")
    apply(plan("install", "claude-code", project))  # this project's own settings run it too
    where = Path(str(ctx.launcher))
    apply(plan("uninstall", "claude-code", ctx))
    assert where.exists()  # Cursor and the project's install still run it
    apply(plan("uninstall", "claude-code", project))
    assert where.exists()
    last = plan("uninstall", "cursor", ctx)
    assert [(e.action, e.path) for e in last if e.path == str(where)] == [("delete", str(where))]
    apply(last)
    assert not where.exists() and retire.runners(ctx) == []
    where.parent.mkdir(parents=True)
    where.write_text("#!/bin/sh\necho mine\n")  # a file of the user's at that path: theirs
    apply(plan("install", "cursor", ctx))
    assert "memhooks" in where.read_text()  # an install writes ours (it re-points it)
    where.write_text("#!/bin/sh\necho mine\n")
    apply(plan("uninstall", "cursor", ctx))
    assert where.read_text() == "#!/bin/sh\necho mine\n"


def test_an_uninstall_never_takes_the_launcher_from_another_projects_hooks(tmp_path: Path) -> None:
    # reviewA: 'agents uninstall --project' in project A deleted the launcher project
    # B's project-level hooks still ran: B's memhooks went dead with one stderr line
    env = _env(tmp_path)
    a, b = _project(tmp_path / "a"), _project(tmp_path / "b")
    in_a = Context(str(a), "project", home=env["HOME"], env=env)
    in_b = Context(str(b), "project", home=env["HOME"], env=env)
    apply(plan("install", "claude-code", in_a))
    apply(plan("install", "claude-code", in_b))
    where = Path(str(in_a.launcher))
    settings_a, settings_b = (INSTALLERS["claude-code"].config_path(c) for c in (in_a, in_b))
    assert retire.recorded(str(where)) == [settings_a, settings_b]
    apply(plan("uninstall", "claude-code", in_a))
    assert where.exists()  # a project-level uninstall never removes it
    user = in_a.at("user")
    apply(plan("install", "cursor", user))
    apply(plan("uninstall", "cursor", user))
    assert where.exists()  # B's hooks still run it, and the record says so
    assert retire.runners(user) == [settings_b]
    command = json.loads(Path(settings_b).read_text())["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"]
    _remember(tmp_path, b)
    payload = {"hook_event_name": "UserPromptSubmit", "cwd": str(b / "billing"), "session_id": "s", "prompt": "how are totals rounded?"}
    assert "half-even" in _hook(command, payload, env).stdout  # B's memhooks answers
    # B installed by a memhooks older than the record: installing again records it
    Path(str(where) + retire.PROJECTS).unlink()
    again = plan("install", "claude-code", in_b)
    assert [e.path for e in again] == [str(where) + retire.PROJECTS]  # nothing else changes
    apply(again)
    assert retire.recorded(str(where)) == [settings_b]
    apply(plan("install", "cursor", user))
    apply(plan("uninstall", "cursor", user))
    assert where.exists()
    apply(plan("uninstall", "claude-code", in_b))
    apply(plan("install", "cursor", user))
    apply(plan("uninstall", "cursor", user))  # the last runner: launcher and record go
    assert not where.exists() and not Path(str(where) + retire.PROJECTS).exists()


def test_a_memhooks_on_path_that_is_the_launcher_itself_is_not_run_again(tmp_path: Path) -> None:
    ctx, command = _installed(tmp_path)
    _point(str(ctx.launcher), "/gone/venv/bin/python3", "/gone/venv/lib/memhooks/__main__.py")
    (tmp_path / "loop").mkdir()
    os.symlink(str(ctx.launcher), tmp_path / "loop/memhooks")
    payload = {"hook_event_name": "UserPromptSubmit", "cwd": str(tmp_path), "session_id": "s", "prompt": "x"}
    done = _hook(command, payload, _env(tmp_path, f"{tmp_path / 'loop'}:/usr/bin:/bin"))
    assert done.returncode == 0 and "systemMessage" in done.stdout


def test_an_old_direct_command_whose_program_is_gone_gets_the_repair_command(tmp_path: Path, exe: list[str]) -> None:
    root = _project(tmp_path)
    (tmp_path / "home").mkdir()
    ctx = Context(str(root), "project", home=str(tmp_path / "home"), exe=exe, env={})
    apply(plan("install", "cursor", ctx))
    os.unlink(exe[0])  # the virtualenv it named was removed
    found = status("cursor", ctx)
    assert found.fires is False and found.repair == "memhooks agents install --agent cursor --project"
    cli = subprocess.run([*MAIN, "agents", "status", "--agent", "cursor", "--project", "--cwd", str(root)],
                         capture_output=True, text=True, env={**os.environ, "HOME": str(tmp_path / "home")}, timeout=60, check=False)  # fmt: skip
    assert cli.returncode == 0
    assert "cursor:   repair: run `memhooks agents install --agent cursor --project`" in cli.stdout.splitlines()


def test_a_removed_launcher_fails_open_naming_itself_and_status_repairs_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ctx, command = _installed(tmp_path)
    assert ctx.launcher is not None
    os.unlink(ctx.launcher)  # e.g. ~/.local/share/memhooks removed by hand
    payload = {"hook_event_name": "UserPromptSubmit", "cwd": str(tmp_path / "proj"), "session_id": "s", "prompt": "x"}
    for shell in ("/bin/sh", "/bin/bash"):
        done = _hook(command, payload, _env(tmp_path), shell=shell)
        # not dash's status 2 of a special built-in's error: Claude Code reads 2 as "block"
        assert (done.returncode, done.stdout) == (0, "")
        assert len(done.stderr.splitlines()) == 1 and ctx.launcher in done.stderr
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    found = status("claude-code", ctx)
    assert found.fires is False and found.repair == "memhooks agents install --agent claude-code"
    assert found.problems == [f"UserPromptSubmit, PostToolUse, PreToolUse, SessionStart: the launcher it runs is missing: {ctx.launcher}"]


def test_a_command_that_ran_the_launcher_as_a_program_is_replaced_not_doubled(tmp_path: Path) -> None:
    ctx, command = _installed(tmp_path)
    settings = tmp_path / "home/.claude/settings.json"
    text = settings.read_text()
    settings.write_text(text.replace(json.dumps(command)[1:-1], f"{ctx.launcher} hook --agent claude-code"))  # as before
    apply(plan("install", "claude-code", ctx))
    assert settings.read_text() == text


def test_a_sourced_launcher_that_is_not_ours_or_cannot_be_read_is_a_problem(
    tmp_path: Path,
) -> None:
    # The host's shell sources the launcher and '|| exit 0' turns any failure into a
    # silent no-op: agents status must say so instead of "fires: yes" (review, issue 24).

    other = tmp_path / "memhooks"
    other.write_text("#!/usr/bin/env python3\nprint('someone else')\n")
    cmd = sourcing(str(other), ["hook", "--agent", "claude-code"])
    assert "is not memhooks' launcher" in (launcher_state.command_problem(cmd) or "")
    other.chmod(0)
    if os.access(other, os.R_OK):  # root reads anything
        return
    assert "cannot be read" in (launcher_state.command_problem(cmd) or "")
