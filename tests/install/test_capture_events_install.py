"""``agents install --capture``: the extra events capture learns from, per host.

``data/capture/<agent>.before.json`` (other tools' hooks already there) is installed into
plainly, then with ``--capture`` (must equal ``<agent>.capture.json``); both installs are
idempotent, a plain install keeps the capture events, ``uninstall --capture`` goes back to
the plain install byte for byte and ``uninstall`` to ``before``.

Regenerate the expected files after a deliberate change with ``REGOLD_CAPTURE=1``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memhooks.agents.registry import normalize
from memhooks.capture.observer import EVENTS as CAPTURED
from memhooks.install import INSTALLERS, Context, apply, capture_events, plan, status

DATA = Path(__file__).parent / "data" / "capture"
EXE = ["/opt/memhooks/bin/memhooks"]
CASES = sorted(p.name.split(".before.")[0] for p in DATA.glob("*.before.json"))


def context(tmp_path: Path, exe: list[str] = EXE) -> Context:
    return Context(str(tmp_path / "proj"), "project", home=str(tmp_path / "home"), exe=exe, env={})


def expect(path: Path, text: str) -> None:
    if os.environ.get("REGOLD_CAPTURE") == "1":
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), path.name


def test_cases_cover_every_supported_host() -> None:
    assert set(CASES) == set(capture_events.extra())


@pytest.mark.parametrize("agent", CASES)
def test_capture_events_merge_and_come_out_again(agent: str, tmp_path: Path) -> None:
    ctx = context(tmp_path)
    target = Path(INSTALLERS[agent].config_path(ctx))
    target.parent.mkdir(parents=True)
    before = (DATA / f"{agent}.before.json").read_text(encoding="utf-8")
    target.write_text(before, encoding="utf-8")

    apply(plan("install", agent, ctx))
    plain = target.read_text(encoding="utf-8")
    assert capture_events.report(INSTALLERS[agent], ctx)["wired"] is False  # type: ignore[index]

    apply(plan("install", agent, ctx, capture=True))
    expect(DATA / f"{agent}.capture.json", target.read_text(encoding="utf-8"))
    assert capture_events.report(INSTALLERS[agent], ctx) == {"wired": True, "missing": []}
    assert plan("install", agent, ctx, capture=True) == []
    assert plan("install", agent, ctx) == [], "a plain install must keep the capture events"

    apply(plan("uninstall", agent, ctx, capture=True))
    assert target.read_text(encoding="utf-8") == plain
    assert plan("uninstall", agent, ctx, capture=True) == []

    apply(plan("install", agent, ctx, capture=True))
    apply(plan("uninstall", agent, ctx))
    assert target.read_text(encoding="utf-8") == before


@pytest.mark.parametrize("agent", CASES)
def test_from_nothing_and_back(agent: str, tmp_path: Path) -> None:
    program = tmp_path / "bin" / "memhooks"
    program.parent.mkdir()
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    ctx = context(tmp_path, [str(program)])
    (tmp_path / "proj").mkdir()
    apply(plan("install", agent, ctx, capture=True))
    found = status(agent, ctx)
    assert found.installed and found.fires is not False
    apply(plan("uninstall", agent, ctx))
    assert not [p for p in (tmp_path / "proj").rglob("*") if p.is_file()]
    assert plan("uninstall", agent, ctx, capture=True) == [], "nothing installed: nothing to do"


@pytest.mark.parametrize("agent", CASES)
def test_every_capture_event_is_one_the_host_has_and_capture_uses(agent: str) -> None:
    from memhooks.agents.registry import HOSTS

    host_events = HOSTS[agent].EVENTS
    for event, _ in capture_events.extra()[agent]:
        assert host_events.get(event) in CAPTURED | {"post_tool"}, event


def test_uninstall_capture_leaves_hosts_it_does_not_handle_alone(tmp_path: Path) -> None:
    ctx = context(tmp_path)
    (tmp_path / "proj").mkdir()
    apply(plan("install", "kiro", ctx))
    assert plan("uninstall", "kiro", ctx, capture=True) == []


def test_cli_status_says_whether_capture_events_are_wired(tmp_path: Path) -> None:
    (tmp_path / "proj").mkdir()

    def cli(*args: str) -> str:
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "memhooks",
                "agents",
                *args,
                "--agent",
                "codex",
                "--cwd",
                str(tmp_path / "proj"),
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout

    cli("install")  # user level, the default: the suggested command needs no level
    assert (
        "codex:   capture events: not wired (Stop, PreCompact, PostCompact): memhooks agents install --agent codex --capture"
        in cli("status")
    )
    cli("install", "--capture")
    assert "codex:   capture events: wired" in cli("status")
    report = json.loads(cli("status", "--format", "json"))
    assert report["agents"][0]["capture_events"] == {"wired": True, "missing": []}
    cli("uninstall", "--capture")
    assert "not wired" in cli("status")


def test_a_claude_bash_outcome_normalizes_to_a_command() -> None:
    # What the Bash|PowerShell matcher sends must be an event capture acts on.
    payload = {
        "hook_event_name": "PostToolUseFailure",
        "session_id": "s1",
        "cwd": "/tmp/x",
        "tool_name": "Bash",
        "tool_input": {"command": "pytest"},
        "error": "exit 1",
    }
    assert normalize(payload, "claude-code", None).event == "post_command"
