"""``MEMHOOKS_ROOT`` exported for one project never switches the hook off in another
(seed 000: it wins *when it contains the target*; issue 22 item 6), and one that cannot
be a root is said, not silently ignored."""

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
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip


def test_a_root_setting_for_another_project_leaves_recall_on(
    project: Path, env: dict[str, str], tmp_path: Path
) -> None:
    other = tmp_path / "other-project"
    other.mkdir()
    done = _prompt(project, {**env, "MEMHOOKS_ROOT": str(other)}, session="other")
    assert done.returncode == 0
    assert MARKER in done.stdout, done.stderr
    assert done.stderr == ""  # another project's root is no mistake: the CLI warns, the hook not


def test_a_root_setting_that_names_nothing_is_said_once_a_session_and_recall_goes_on(
    project: Path, env: dict[str, str], tmp_path: Path
) -> None:
    gone = tmp_path / "deleted-project"
    said = []
    for session in ("one", "one", "two"):
        done = _prompt(project, {**env, "MEMHOOKS_ROOT": str(gone)}, session=session)
        assert done.returncode == 0
        assert (MARKER in done.stdout) is (session not in said), done.stderr  # recalled once
        said += [session, done.stderr]
    said = said[1::2]
    line = (
        f"memhooks hook: MH028 MEMHOOKS_ROOT ignored: {str(gone)!r} does not exist; the project root"
        f" is {str(project)!r} (set it to an existing folder, or unset it)\n"
    )
    assert said == [line, "", line]  # one line, once per session
