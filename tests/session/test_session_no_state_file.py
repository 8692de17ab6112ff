"""A state directory that cannot be used (a file in its place, a full or read-only disk)
costs neither the recall nor the ledger: the prompt still gets its memories, the note
names the state file and MEMHOOKS_STATE_DIR, the session is kept in the user's private
runtime folder meanwhile (so a tool event repeats nothing; with no runtime folder either,
tool events do not recall), and an edit's hook update is applied at once instead of
being journaled."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from session_support import delivered

from memhooks.hook import handle


def send(root: Path, env: dict[str, str], payload: dict[str, object]) -> tuple[str, str | None]:
    body = {"session_id": "S1", "cwd": str(root), "transcript_path": "/dev/null", **payload}
    reply = handle(json.dumps(body), agent="claude-code", env=env, time_s=30.0)
    return reply.stdout, reply.note


def test_without_a_usable_state_file_the_prompt_still_recalls(
    project: tuple[Path, dict[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, env = project
    (tmp_path / "blocked").write_text("a file where the state directory should be\n")
    env = dict(env, MEMHOOKS_STATE_DIR=str(tmp_path / "blocked" / "state"))
    out, note = send(root, env, {"hook_event_name": "UserPromptSubmit", "prompt": "How are invoice amounts stored in billing?"})
    assert "billing-cents" in delivered(out)
    assert note is not None and len(note.splitlines()) == 1
    assert str(tmp_path / "blocked" / "state" / "state.sqlite3") in note
    assert "MEMHOOKS_STATE_DIR" in note and "MEMHOOKS_STORE" not in note
    assert "this session is kept in" in note
    # The session kept meanwhile keeps the prompt's memories from coming again.
    path = str(root / "billing" / "invoice.py")
    read = {"hook_event_name": "PostToolUse", "tool_name": "Read", "tool_input": {"file_path": path}, "tool_response": {"type": "text", "file": {"filePath": path}}}
    out, _ = send(root, env, read)
    assert "billing-cents" not in delivered(out)
    # With no private runtime folder either (another user made /tmp/memhooks-<uid>, say),
    # a tool event has no ledger: it does not recall.
    from memhooks import dirs

    monkeypatch.setattr(dirs, "runtime_dir", lambda env=None: None)
    out, note = send(root, env, {"hook_event_name": "UserPromptSubmit", "prompt": "How are invoice amounts stored in billing?"})
    assert "billing-cents" in delivered(out)
    assert note is not None and "without the session's ledger" in note
    out, _ = send(root, env, read)
    assert delivered(out) == []


def test_without_a_usable_state_file_an_edit_updates_its_cue_at_once(
    project: tuple[Path, dict[str, str]], tmp_path: Path, monkeypatch
) -> None:
    root, env = project
    (tmp_path / "blocked").write_text("")
    env = dict(env, MEMHOOKS_STATE_DIR=str(tmp_path / "blocked"))
    monkeypatch.chdir(root)
    new = root / "shipping" / "labels.py"
    new.write_text("LABELS = []\n")
    write = {"hook_event_name": "PostToolUse", "tool_name": "Write", "tool_input": {"file_path": str(new), "content": "LABELS = []\n"}, "tool_response": {"type": "create", "filePath": str(new)}}
    _, note = send(root, env, write)
    assert note is not None and "MEMHOOKS_STATE_DIR" in note
    assert "labels.py" in (root / "shipping" / "MEMHOOKS.md").read_text(encoding="utf-8")
    # No journal lock or state file is left in the project (the process's folder).
    assert not [p.name for p in root.iterdir() if p.name.endswith(".lock") or "state" in p.name]
