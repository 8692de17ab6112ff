"""Hook commands run the interpreter on memhooks/__main__.py, not the console script
(pip's wrapper imports re first: about half a bare interpreter's start per hook call)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

from memhooks.install import command


def test_this_installations_cli_becomes_the_interpreter_on_main() -> None:
    script = os.path.join(os.path.dirname(sys.executable), "memhooks")
    program = command.hook_program([script])
    assert program[0] == os.path.abspath(sys.executable)
    assert program[1].endswith(os.path.join("memhooks", "__main__.py")) and os.path.isfile(program[1])
    assert command.hook_program(["/opt/bin/memhooks"]) == ["/opt/bin/memhooks"]  # someone else's


def test_the_command_is_ours_and_serves_a_hook(tmp_path: Path) -> None:
    line = command.shell("claude-code", exe=[os.path.join(os.path.dirname(sys.executable), "memhooks")])
    assert "__main__.py" in line and command.is_ours(line)
    assert not command.is_ours("python3 /opt/other/__main__.py hook --agent x")
    payload = json.dumps({"hook_event_name": "UserPromptSubmit", "cwd": str(tmp_path), "session_id": "s", "prompt": "x"})
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "MEMHOOKS_STATE_DIR": str(tmp_path / "state")}
    done = subprocess.run(shlex.split(line), input=payload, text=True, capture_output=True, env=env, cwd="/", timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")  # no project here: the no-op


def test_run_as_a_file_the_package_folder_shadows_nothing(tmp_path: Path) -> None:
    main = command.hook_program()[1]
    probe = subprocess.run([sys.executable, main, "--version"], capture_output=True, text=True, timeout=60)
    assert probe.returncode == 0 and probe.stdout.startswith("memhooks ")
