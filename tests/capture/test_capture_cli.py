"""``memhooks capture on|off|status|process``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memhooks.capture import settings
from memhooks.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_on_off_status_for_the_project(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, "capture", "status", "--cwd", str(project))
    assert code == 0 and out.startswith(
        f"capture: off for {project} (default: off until turned on)\n"
    )
    code, out = _run(capsys, "capture", "on", "--cwd", str(project))
    assert code == 0 and out == f"Capture on for project {project} ({settings.config_path()})\n"
    code, out = _run(capsys, "capture", "status", "--cwd", str(project / "src"), "--format", "json")
    report = json.loads(out)
    assert (report["capture"], report["decided_by"], report["project"]) == (
        "on",
        "project",
        str(project),
    )
    _run(capsys, "capture", "off", "--cwd", str(project))
    assert settings.effective(settings.load(), str(project)) == (False, "project")


def test_user_level_and_the_project_exception(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _run(capsys, "capture", "off", "--cwd", str(project))
    _, out = _run(capsys, "capture", "on", "--user", "--cwd", str(project))
    assert out.splitlines() == [
        f"Capture on for every project of this user ({settings.config_path()})",
        "note: this project's own setting keeps capture off here",
    ]


def test_status_counts_what_capture_holds(
    project: Path, store_path: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from memhooks.agents import normalize
    from memhooks.capture import observe

    _run(capsys, "capture", "on", "--cwd", str(project))
    event = normalize(
        {
            "hook_event_name": "UserPromptSubmit",
            "session_id": "s",
            "cwd": str(project),
            "prompt": "Never commit .env files.",
        },
        host="claude-code",
    )
    observe(event, store_path=store_path, now=1000.0)
    _, out = _run(capsys, "capture", "status", "--cwd", str(project), "--store", store_path)
    assert (
        out.splitlines()[-1] == "captured memories: 1; open sessions: 1; failures awaiting a fix: 0"
    )


def test_process_command(store_path: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, "capture", "process", "--store", store_path, "--format", "json")
    assert code == 0 and json.loads(out)["sessions"] == 0


def test_a_broken_settings_file_is_reported_not_overwritten(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = Path(settings.config_path())
    path.parent.mkdir(parents=True)
    path.write_text("{", encoding="utf-8")
    assert main(["capture", "on", "--cwd", str(project)]) == 1
    assert "cannot read the capture settings" in capsys.readouterr().err
    assert path.read_text("utf-8") == "{"
