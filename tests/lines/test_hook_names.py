"""The symbol cue through ``memhooks hook`` as Claude Code runs it: before an Edit inside
``merge_windows``, a remembered note that names it (and no file) reaches the model, once
per session; a note that only shares its words does not; a ranged Read inside another
function brings the note naming that one first (a note naming a function it calls may
follow it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from storyrepo import build, story

DECISION = "merge_windows joins windows less than MERGE_GAP_S apart: one outage, not two."
DOWNTIME = "downtime_minutes counts whole minutes only (the SLA says so)."
NOISE = "Merge windows for the release calendar are announced in the ops channel."


@pytest.fixture
def project(tmp_path: Path) -> dict[str, object]:
    repo = tmp_path / "uptime"
    build(repo, story("uptime_story.json"))
    (repo / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    env = {**os.environ, "MEMHOOKS_STATE_DIR": str(tmp_path / "state"),
           "MEMHOOKS_STORE": str(tmp_path / "store.sqlite3"),
           "MEMHOOKS_HOOK_TIMEOUT_MS": "30000"}  # fmt: skip
    for text in (DECISION, DOWNTIME, NOISE):
        done = subprocess.run([sys.executable, "-m", "memhooks", "remember", text],
                              cwd=repo, env=env, capture_output=True, text=True, check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr
    return {"root": repo.resolve(), "env": env}


def hook(project: dict[str, object], payload: dict[str, object], session: str = "s1") -> str:
    body = {"session_id": session, "cwd": str(project["root"]), **payload}
    done = subprocess.run(
        [sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
        input=json.dumps(body), capture_output=True, text=True, check=False,
        env=project["env"], cwd=project["root"],  # type: ignore[arg-type]
    )  # fmt: skip
    assert done.returncode == 0 and done.stderr == "", done.stderr
    if not done.stdout.strip():
        return ""
    return str(json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"])


def edit(project: dict[str, object], old: str) -> dict[str, object]:
    file = str(Path(str(project["root"])) / "uptime" / "incidents.py")
    return {"hook_event_name": "PreToolUse", "tool_name": "Edit",
            "tool_input": {"file_path": file, "old_string": old, "new_string": old.replace("<", "<=")}}  # fmt: skip


def test_before_an_edit_the_note_naming_its_function_arrives_once(
    project: dict[str, object],
) -> None:
    line = "        if merged and w.start < merged[-1].end + MERGE_GAP_S:\n"
    told = hook(project, edit(project, line))
    assert DECISION in told and NOISE not in told and DOWNTIME not in told
    assert "names merge_windows, MERGE_GAP_S in uptime/incidents.py" in told
    assert "untrusted" in told
    assert DECISION not in hook(project, edit(project, line))  # once per session
    assert DECISION in hook(project, edit(project, line), session="s2")


def test_a_ranged_read_brings_the_note_naming_the_function_read(
    project: dict[str, object],
) -> None:
    file = str(Path(str(project["root"])) / "uptime" / "incidents.py")
    read = {"hook_event_name": "PostToolUse", "tool_name": "Read", "tool_response": {},
            "tool_input": {"file_path": file, "offset": 29, "limit": 3}}  # fmt: skip
    told = hook(project, read)
    assert DOWNTIME in told and NOISE not in told
    assert told.index(DOWNTIME) < told.find(DECISION) or DECISION not in told
