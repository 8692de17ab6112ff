"""A note remembered for a file mid-session comes with the next edit of that file, once
(newcomer trial #4): before the edit where the host's pre-tool reply reaches the model
(Claude Code: ``tests/lines/test_told_both_ways.py``), else with the edit's tool-time
reply — Gemini CLI's ``AfterTool`` of ``replace`` — with line-level recall on or off
(reviewA: off, the note never came)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PATH = "retryx/retry.py"
NOTE = "Ops asked us to keep this module's behaviour frozen until the Q3 gateway migration."


def gemini(repo: Path, env: dict[str, str], payload: dict[str, object]) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "memhooks", "hook", "--agent", "gemini-cli"],
        input=json.dumps({"session_id": "g1", "cwd": str(repo), **payload}),
        capture_output=True, text=True, check=False, env=env, cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    if not done.stdout.strip():
        return ""
    return str(json.loads(done.stdout).get("hookSpecificOutput", {}).get("additionalContext", ""))


@pytest.mark.parametrize("line_recall", ["on", "0"])
def test_a_host_without_a_pre_tool_channel_is_told_the_note_with_the_edit(
    repo: Path, tmp_path: Path, line_recall: str
) -> None:
    (repo / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    env = {**os.environ, "MEMHOOKS_STORE": str(tmp_path / "store.sqlite3"),
           "MEMHOOKS_STATE_DIR": str(tmp_path / "state"), "MEMHOOKS_HOOK_TIMEOUT_MS": "30000", "MEMHOOKS_LINE_RECALL": line_recall}  # fmt: skip
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    target = str(repo / PATH)
    gemini(repo, env, {"hook_event_name": "AfterTool", "tool_name": "read_file",
                       "tool_input": {"absolute_path": target}, "tool_response": {}})  # fmt: skip
    done = subprocess.run([sys.executable, "-m", "memhooks", "remember", "--file", PATH, NOTE],
                          cwd=repo, env=env, capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    old = "MAX_ATTEMPTS = 4  # the gateway's measured budget\n"
    new = old.replace("4", "3")
    text = Path(target).read_text(encoding="utf-8")
    Path(target).write_text(text.replace(old, new), encoding="utf-8")  # as replace saves it
    edit = {"hook_event_name": "AfterTool", "tool_name": "replace",
            "tool_input": {"file_path": target, "old_string": old, "new_string": new},
            "tool_response": {}}  # fmt: skip
    assert gemini(repo, env, edit).count(NOTE) == 1
    assert NOTE not in gemini(repo, env, edit)
