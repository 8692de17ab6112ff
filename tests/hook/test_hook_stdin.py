"""The hook acts on the first complete JSON value on stdin, not on end-of-file (issue 13
item 4), and an idle terminal gets the usage at once."""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

from hook_support import MARKER, payload

from memhooks.hook.payload import read_payload


def test_a_complete_payload_on_a_pipe_that_stays_open_is_served(project: Path, env: dict[str, str]) -> None:
    raw = payload("real/claude-code-UserPromptSubmit.json", project).encode()
    read_end, write_end = os.pipe()
    proc = subprocess.Popen([sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"], stdin=read_end,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=project)  # fmt: skip
    os.close(read_end)
    try:
        os.write(write_end, raw)  # and the pipe stays open, as a host's wrapper may leave it
        out, err = proc.communicate(timeout=60)  # returns although stdin never reaches EOF
    finally:
        os.close(write_end)
    assert proc.returncode == 0, err
    assert MARKER in json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert b"deadline" not in err


def test_only_the_first_value_counts() -> None:
    from memhooks.hook.handler import parse

    event = parse(b'  {"hook_event_name": "UserPromptSubmit", "prompt": "one"}\n{"prompt": "two"}', "claude-code")
    assert event.prompt == "one"


def test_a_payload_split_over_many_writes_is_read_whole() -> None:
    body = json.dumps({"hook_event_name": "x", "history": ["y" * 1000] * 300}).encode()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the writer, in small pieces
        os.close(read_end)
        for start in range(0, len(body), 4096):
            os.write(write_end, body[start : start + 4096])
        os._exit(0)
    os.close(write_end)
    with open(read_end, "rb") as stdin:
        raw, note = read_payload(stdin)
    os.waitpid(pid, 0)
    assert (raw, note) == (body, None)


def test_a_stream_without_a_file_descriptor_is_read_to_the_end() -> None:
    assert read_payload(io.BytesIO(b'{"x": 1}')) == (b'{"x": 1}', None)


def test_an_idle_terminal_gets_the_usage_at_once() -> None:
    leader, follower = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "memhooks", "hook", "--agent", "gemini-cli"], stdin=follower,
                              capture_output=True, text=True, timeout=30, check=False)  # fmt: skip
    finally:
        os.close(leader)
        os.close(follower)
    assert done.returncode == 0
    assert done.stdout == "{}\n"  # Gemini CLI's no-op
    assert done.stderr.startswith("memhooks hook: MH041 no payload: stdin is a terminal; usage: memhooks hook")


def test_a_payload_of_exactly_one_read_on_an_open_pipe_is_read_at_once() -> None:
    # A payload as long as one read (CHUNK bytes) fills the read: nothing says whether
    # more is coming, so it is tried as a whole document rather than waiting for more.
    import threading

    from memhooks.hook.payload import CHUNK

    head = b'{"hook_event_name": "x", "pad": "'
    body = head + b"y" * (CHUNK - len(head) - 2) + b'"}'
    assert len(body) == CHUNK
    read_end, write_end = os.pipe()
    got: list[tuple[bytes, str | None]] = []
    with open(read_end, "rb") as stdin:
        reader = threading.Thread(target=lambda: got.append(read_payload(stdin)), daemon=True)
        reader.start()
        os.write(write_end, body)  # the pipe stays open
        reader.join(timeout=30)
        served = list(got)  # before end-of-file
        os.close(write_end)
        reader.join(timeout=30)
    assert served == [(body, None)]
