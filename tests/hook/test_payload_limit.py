"""A hook payload over the read limit is said to be over it — not "not one JSON
object" — and the hook fails open as for any payload it cannot read."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from memhooks.hook.handler import MAX_PAYLOAD, PayloadError, describe, parse

OVER = (
    "MH041 the payload on stdin is over the 16 MiB limit memhooks reads (16777216 bytes); "
    "this event is not served"
)


def test_a_payload_over_the_limit_is_said_to_be_over_it() -> None:
    # newcomer trial: a 17 MiB payload was reported as not one JSON object
    with pytest.raises(PayloadError) as caught:
        parse(b" " * (MAX_PAYLOAD + 1), "claude-code")
    assert caught.value.too_large and describe(caught.value) == OVER
    with pytest.raises(PayloadError) as bad:
        parse(b"{", "claude-code")
    assert describe(bad.value).endswith("the agent must send its hook event as one JSON object")


def test_the_hook_fails_open_with_one_line_naming_the_limit(tmp_path: Path) -> None:
    payload = {"session_id": "s", "cwd": str(tmp_path), "hook_event_name": "UserPromptSubmit",
               "prompt": "x" * (MAX_PAYLOAD + 1)}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0
    assert done.stdout.strip() in (b"", b"{}")
    assert done.stderr.decode() == f"memhooks hook: {OVER}\n"
