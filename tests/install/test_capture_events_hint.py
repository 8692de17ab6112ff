"""``memhooks capture on`` points at ``agents install --capture`` when installed hooks
lack the capture events, and says nothing more otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest

from memhooks.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    assert main(list(argv)) == 0
    return capsys.readouterr().out.splitlines()


def test_hint_only_while_installed_hooks_lack_the_capture_events(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    where = ("--cwd", str(project))
    assert len(run(capsys, "capture", "on", *where)) == 1, "no hooks installed: no hint"

    run(capsys, "agents", "install", "--agent", "claude-code", "--project", *where)
    run(capsys, "agents", "install", "--agent", "gemini-cli", *where)  # user level: the default
    *_, hint = run(capsys, "capture", "on", *where)
    # each command names its level: the hosts' default is user, these are two levels
    assert hint == (
        "hint: the installed hooks do not send capture command outcomes, turn ends, compaction"
        " or session ends; run `memhooks agents install --capture --agent claude-code --project`"
        " and `memhooks agents install --capture --agent gemini-cli --user`"
    )
    assert len(run(capsys, "capture", "off", *where)) == 1, "no hint when turning it off"

    run(capsys, "agents", "install", "--capture", "--agent", "claude-code", "--project", *where)
    run(capsys, "agents", "install", "--capture", "--agent", "gemini-cli", "--user", *where)
    assert len(run(capsys, "capture", "on", *where)) == 1
