"""A root MEMHOOKS.md that does not validate is said once a session for each version of
the file — it was said on every edit of every session (newcomer15), while a broken hook
of a folder is said once a session (polish23). The edit still answers the host's no-op
and accepts no hook update while the root is invalid; a root fixed and broken again is
said again. Real hook processes, as a host runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memhooks.agents.registry import noop

BROKEN = (Path(__file__).parent / "data" / "broken_sub_hook.md").read_text(encoding="utf-8")
VALID = "---\nschema: memhooks/v2\n---\n"
#: Broken another way (another version of the file): an unknown schema.
BROKEN_AGAIN = "---\nschema: memhooks/v9\n---\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "sub").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "MEMHOOKS.md").write_text(BROKEN, encoding="utf-8")
    return root.resolve()


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "MEMHOOKS_STATE_DIR": str(tmp_path / "state"), "MEMHOOKS_HOOK_TIMEOUT_MS": "30000"}  # fmt: skip


def _edit(root: Path, env: dict[str, str], session: str, rel: str) -> list[str]:
    """The coded stderr lines of one PostToolUse Write of ``rel`` (its stdout the
    host's no-op, exit 0)."""
    path = root / rel
    path.write_text("x = 1\n", encoding="utf-8")
    payload = {"session_id": session, "cwd": str(root), "hook_event_name": "PostToolUse", "tool_name": "Write",
               "tool_input": {"file_path": str(path), "content": "x = 1\n"}}  # fmt: skip
    done = subprocess.run([sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
                          input=json.dumps(payload), text=True, env=env, capture_output=True, check=False)  # fmt: skip
    assert (done.returncode, done.stdout) == (0, noop("claude-code", "PostToolUse")), done.stderr
    return [line for line in done.stderr.splitlines() if line.startswith("memhooks hook: MH")]


def test_a_broken_root_hook_is_said_once_a_session_for_each_version(
    repo: Path, env: dict[str, str]
) -> None:
    hook = repo / "MEMHOOKS.md"
    said = [_edit(repo, env, "A", rel) for rel in ("sub/a.py", "sub/b.py", "sub/a.py")]
    # once: the same session's later edits, while the file is as it was, say nothing more
    assert [len(lines) for lines in said] == [1, 0, 0], said
    [first] = said[0]
    assert first.startswith("memhooks hook: MH000 the root hook is invalid, so no hook update is accepted")
    assert f"({hook}:3:17); fix the YAML at this position" in first
    assert [line[:40] for line in _edit(repo, env, "B", "sub/c.py")] == [first[:40]]  # once a session
    assert _edit(repo, env, "B", "sub/c.py") == []
    assert not (repo / "sub" / "MEMHOOKS.md").exists()  # no update accepted meanwhile
    hook.write_text(VALID, encoding="utf-8")
    assert _edit(repo, env, "A", "sub/d.py") == []
    assert "sub/d.py" in (repo / "sub" / "MEMHOOKS.md").read_text(encoding="utf-8")
    hook.write_text(BROKEN_AGAIN, encoding="utf-8")  # fixed, then broken again: said again
    [again] = _edit(repo, env, "A", "sub/e.py")
    assert again.startswith("memhooks hook: MH001 the root hook is invalid") and f"({hook}:" in again
    assert _edit(repo, env, "A", "sub/e.py") == []
