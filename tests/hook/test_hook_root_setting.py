"""``MEMHOOKS_ROOT`` exported for one project never switches the hook off in another
(seed 000: it wins *when it contains the target*; issue 22 item 6)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hook_support import MARKER

CLI = [sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"]


def _prompt(project: Path, env: dict[str, str], session: str) -> subprocess.CompletedProcess[str]:
    payload = {"hook_event_name": "UserPromptSubmit", "session_id": session, "cwd": str(project),
               "prompt": "which release constraints apply?"}  # fmt: skip
    return subprocess.run(CLI, input=json.dumps(payload), env=env, cwd=project,
                          capture_output=True, text=True, timeout=60)  # fmt: skip


def test_a_root_setting_for_another_project_leaves_recall_on(
    project: Path, env: dict[str, str], tmp_path: Path
) -> None:
    other = tmp_path / "other-project"
    other.mkdir()
    for value in (str(other), str(tmp_path / "deleted-project")):
        done = _prompt(project, {**env, "MEMHOOKS_ROOT": value}, session=value)
        assert done.returncode == 0
        assert MARKER in done.stdout, done.stderr
        assert done.stderr == ""  # the CLI warns; the host is given nothing to show
