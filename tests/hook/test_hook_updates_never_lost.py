"""Every hook update the hook accepted is applied, journaled, or reported lost with its
hook file — never dropped in silence (issue 22 item 3), here with a full state disk."""

from __future__ import annotations

import json
import os
from pathlib import Path

from permissions import fill, small_disk

from memhooks.hook.handler import handle

ROOT_HOOK = "---\nschema: memhooks/v2\n---\n"


def _write(root: Path, env: dict[str, str], rel: str) -> str | None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("x = 1\n", encoding="utf-8")
    payload = {"hook_event_name": "PostToolUse", "session_id": "S", "cwd": str(root), "tool_name": "Write",
               "tool_input": {"file_path": str(path), "content": "x = 1\n"},
               "tool_response": {"type": "create", "filePath": str(path)}}  # fmt: skip
    return handle(json.dumps(payload), agent="claude-code", env=env, time_s=30.0).note


def test_a_full_state_disk_applies_the_update_at_once_or_names_what_was_lost(
    tmp_path: Path,
) -> None:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    with small_disk(tmp_path / "state", "512k") as state:
        env = {**os.environ, "MEMHOOKS_STATE_DIR": str(state)}
        assert _write(root, env, "src/a.py") is None  # journaled and applied, as usual
        fill(state)
        note = _write(root, env, "lib/b.py")
        assert note is not None and "the disk holding it is full" in note
        assert "lib/b.py" in (root / "lib" / "MEMHOOKS.md").read_text(encoding="utf-8")
        (root / "ro").mkdir()
        hook = root / "ro" / "MEMHOOKS.md"
        hook.write_text(ROOT_HOOK, encoding="utf-8")
        hook.chmod(0o444)  # a hook its owner made read-only: memhooks will not replace it
        note = _write(root, env, "ro/c.py")
        assert note is not None and f"MH031 hook update for {hook} lost: " in note
