"""A state folder that cannot be used never turns memory off (issue 22 item 2): prompt-time
recall goes on, the session is kept in the user's private runtime folder meanwhile (so a
memory still comes once), the model is told once in one line, and stderr names the state
file and ``MEMHOOKS_STATE_DIR``."""

from __future__ import annotations

import json
import os
from pathlib import Path

from permissions import read_only_folder

from memhooks.hook.handler import handle

ROOT_HOOK = '---\nschema: memhooks/v2\nrecall_queries: ["What matters here?"]\n---\n'


def test_a_read_only_state_folder_degrades_and_says_so_once(tmp_path: Path) -> None:
    from memhooks.store import MemoryStore, project_id

    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    store = tmp_path / "store.sqlite3"
    with MemoryStore(str(store)) as s:
        s.add(project_id(str(root)), "What matters here: the secret-sauce constraint")
    state = tmp_path / "state"
    state.mkdir()
    env = {**os.environ, "MEMHOOKS_STORE": str(store), "MEMHOOKS_STATE_DIR": str(state)}
    bodies, notes = [], []
    with read_only_folder(state):
        for words in ("what matters here", "what matters here, again"):
            payload = {
                "hook_event_name": "UserPromptSubmit",
                "session_id": "S",
                "cwd": str(root),
                "prompt": words,
            }
            reply = handle(json.dumps(payload), agent="claude-code", env=env)
            context = (
                json.loads(reply.stdout)["hookSpecificOutput"]["additionalContext"]
                if reply.stdout
                else None
            )
            bodies.append(json.loads(context.split("\n", 2)[2]) if context else None)
            notes.append(reply.note or "")
    first, second = bodies
    assert first is not None
    assert [m["text"] for m in first["memories"]] == [
        "What matters here: the secret-sauce constraint"
    ]
    assert first["unavailable"].startswith(
        f"memory unavailable in part: cannot write the memhooks state file {state / 'state.sqlite3'}: "
    )
    assert second is None  # the memory and the line came once: the session was kept meanwhile
    for note in notes:
        assert f"the memhooks state file {state / 'state.sqlite3'}" in note
        assert (
            f"this session is kept in {os.environ['XDG_RUNTIME_DIR']}/memhooks until then" in note
        )
        assert note.endswith("what this session was given meanwhile may come once more)")
