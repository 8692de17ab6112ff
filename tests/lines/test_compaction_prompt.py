"""What comes back after a compaction, when the session was told more commits than come
back (:data:`memhooks.hook.compaction.MAX_COMMITS`): those that answer the session's
prompt first, then the newest (last newcomer: a Read of requests' utils.py told
79bb9ee1 "netrc parsing" for a prompt about netrc; two Edits of unrelated lines then
told four more, and the cap of six dropped the oldest — the one the task was about).
``data/carry_story.json``: twenty commits, one line each."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from storyrepo import build, story

from memhooks.hook.compaction import LABEL, MAX_COMMITS

PROMPT = "the netrc lookup crashes when HOME is unset; make it tolerate that"


@pytest.fixture
def carry(tmp_path: Path) -> tuple[Path, dict[str, str], dict[str, str]]:
    repo = tmp_path / "repo"
    hashes = build(repo, story("carry_story.json"))
    (repo / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    env = {**os.environ, "MEMHOOKS_STATE_DIR": str(tmp_path / "state"),
           "MEMHOOKS_STORE": str(tmp_path / "store.sqlite3"),
           "MEMHOOKS_HOOK_TIMEOUT_MS": "30000"}  # fmt: skip
    return repo.resolve(), hashes, env


def _hook(repo: Path, env: dict[str, str], payload: dict[str, object]) -> str:
    payload = {"session_id": "k1", "transcript_path": "/dev/null", "cwd": str(repo), **payload}
    done = subprocess.run([sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
                          input=json.dumps(payload), capture_output=True, text=True,
                          env=env, cwd=repo, check=True)  # fmt: skip
    out = done.stdout.strip()
    return (
        json.loads(out)["hookSpecificOutput"]["additionalContext"] if out not in ("", "{}") else ""
    )


def _edit(repo: Path, line: int) -> dict[str, object]:
    old = f"setting_{line} = {line}  # step {line}\n"
    return {"hook_event_name": "PreToolUse", "tool_name": "Edit",
            "tool_input": {"file_path": str(repo / "utils.py"), "old_string": old,
                           "new_string": old.replace("# step", "# stage")}}  # fmt: skip


def test_the_commit_that_answers_the_prompt_comes_back_before_newer_ones(
    carry: tuple[Path, dict[str, str], dict[str, str]],
) -> None:
    repo, hashes, env = carry
    _hook(repo, env, {"hook_event_name": "UserPromptSubmit", "prompt": PROMPT})
    lines = {"file_path": str(repo / "utils.py"), "offset": 1, "limit": 3}
    read: dict[str, object] = {"hook_event_name": "PostToolUse", "tool_name": "Read",
                               "tool_response": {}, "tool_input": lines}  # fmt: skip
    assert hashes["c2"][:12] in _hook(repo, env, read)
    told = [_hook(repo, env, _edit(repo, n)) for n in (10, 17)]
    named = {h for h in hashes.values() if any(h[:12] in t for t in told)}
    assert len(named) + 1 > MAX_COMMITS  # more than come back: the read's are the oldest
    back = _hook(repo, env, {"hook_event_name": "SessionStart", "source": "compact"})
    carried = back[back.index(LABEL) :]
    assert f'{hashes["c2"][:12]} "netrc: tolerate an unset HOME' in carried
    assert sum(h[:12] in carried for h in hashes.values()) == MAX_COMMITS
