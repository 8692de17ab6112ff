"""``memhooks event`` reports what ``memhooks hook`` swallows (issue 13 item 7).

The same payloads, through both entry points as real processes: ``event`` (the
reference's command, run by scripts and CI) exits 1 with the diagnostic; ``hook`` (what
agent hosts run) answers the host's no-op, one line on stderr, exit 0.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memhooks.maintain.path_fields import explicit_paths

V1 = "---\nschema: memhooks/v1\n---\n"
V2 = "---\nschema: memhooks/v2\n---\n"


def _run(
    argv: list[str], payload: dict[str, object], cwd: Path, **env: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memhooks", *argv],
        input=json.dumps(payload),
        cwd=cwd,
        env={**os.environ, "MEMHOOKS_CACHE": "0", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    ("hook_text", "cwd", "env", "headline"),
    [
        (V1, ".", {}, "error[MH001]: unsupported schema `memhooks/v1`; expected `memhooks/v2`"),
        (
            V2,
            "nope",
            {},
            "error[MH024]: the event cwd does not exist",
        ),
        (
            V2,
            ".",
            {"MEMHOOKS_AUTO_PATHS": "0"},
            "error[MH028]: MEMHOOKS_AUTO_PATHS must be an integer from 1 to 256 (got '0')",
        ),
    ],
    ids=["invalid-root-hook", "missing-cwd", "bad-auto-paths"],
)
def test_event_fails_where_the_hook_fails_open(
    tmp_path: Path, hook_text: str, cwd: str, env: dict[str, str], headline: str
) -> None:
    root = Path(os.path.realpath(tmp_path))
    (root / ".git").mkdir()
    (root / "MEMHOOKS.md").write_text(hook_text, encoding="utf-8")
    (root / "a.py").write_text("x\n", encoding="utf-8")
    payload = {
        "hook_event_name": "post_tool_call",
        "cwd": str(root / cwd),
        "tool_name": "write_file",
        "tool_input": {"path": "a.py"},
    }
    event = _run(["event"], payload, root, **env)
    assert (event.returncode, event.stdout) == (1, "")
    assert event.stderr.splitlines()[0] == headline
    hook = _run(["hook", "--agent", "hermes"], payload, root, **env)
    assert (hook.returncode, hook.stdout.strip()) == (0, "{}")
    assert len(hook.stderr.strip().splitlines()) == 1
    assert (root / "MEMHOOKS.md").read_text(encoding="utf-8") == hook_text
    assert not (root / ".MEMHOOKS.md.lock").exists()


def test_explicit_paths_follow_the_reference_walk() -> None:
    payload = {
        "hook_event_name": "post_tool_call",
        "tool_input": {
            "FILE_PATH": "a.py",
            "ops": [{"Target": "b.py"}, {"deep": {"destination": "./c.py"}}],
            "paths": ["d.py", ["e.py", ["f.py"]], {"path": "not-descended.py"}],
            "file": {"path": "not-descended-either.py"},
            "content": "free-text.py",
            "command": "cat g.py",
            "cwd": ["a.py", "https://example.com/x", "git@host:x", "", "bad\nname"],
        },
        "tool_response": {"path": "response.py"},
    }
    assert explicit_paths(payload) == ["a.py", "b.py", "c.py", "d.py", "e.py", "f.py"]


@pytest.mark.parametrize(
    "payload",
    [
        {"hook_event_name": "PostToolUse", "tool_input": {"path": "a.py"}},
        {"hook_event_name": "post_tool_call", "tool_input": "a.py"},
        {"hook_event_name": "post_tool_call", "args": {"path": "a.py"}},
        ["post_tool_call"],
    ],
)
def test_explicit_paths_only_for_the_reference_shape(payload: object) -> None:
    assert explicit_paths(payload) == []
