"""A backend that hangs costs the hook recall's per-query cap, not its whole deadline, and
the model is told memory was unavailable instead of seeing an empty store (issue 14)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
from pathlib import Path

from session_support import build


def test_a_hanging_backend_is_cut_at_the_query_cap_and_reported(tmp_path: Path) -> None:
    root, _store = build(tmp_path)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept_and_never_answer() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept_and_never_answer, daemon=True)
    thread.start()
    env = {
        "HOME": str(tmp_path), "PATH": "/usr/bin:/bin",
        "MEMHOOKS_STATE_DIR": str(tmp_path / "state"),
        "MEMHOOKS_BACKEND": "generic",
        "MEMHOOKS_GENERIC_URL": f"http://127.0.0.1:{server.getsockname()[1]}/search",
        "MEMHOOKS_HOOK_TIMEOUT_MS": "10000",
    }  # fmt: skip
    payload = json.dumps({"session_id": "S", "cwd": str(root), "hook_event_name": "UserPromptSubmit", "prompt": "Make the totals use two decimals"})
    try:
        done = subprocess.run([sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"], input=payload,
                              text=True, capture_output=True, env=env, timeout=60, check=False)  # fmt: skip
    finally:
        stop.set()
        thread.join()
        for conn in accepted:
            conn.close()
        server.close()
    assert done.returncode == 0
    assert "deadline" not in done.stderr  # cut at the per-query cap (2 s), not at the 10 s deadline
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    body = json.loads(context.split("\n", 2)[2])  # the hooks' guidance, and the line with it
    assert body["memories"] == [] and body["unavailable"].startswith("memory unavailable: every recall query failed")
    assert "memory unavailable" in done.stderr


def test_a_store_that_cannot_be_one_is_said_to_the_model(tmp_path: Path) -> None:
    """A store path that cannot hold a store (a folder, no home to find it in) is memory
    unavailable, said to the model once per session — not the silence of a store that
    merely does not exist yet (issue 22 item 2)."""
    root, _store = build(tmp_path)
    folder = tmp_path / "a-folder"
    folder.mkdir()
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "MEMHOOKS_STATE_DIR": str(tmp_path / "state"),
           "MEMHOOKS_STORE": str(folder)}  # fmt: skip

    def prompt(text: str) -> subprocess.CompletedProcess[str]:
        payload = json.dumps({"session_id": "S", "cwd": str(root), "hook_event_name": "UserPromptSubmit", "prompt": text})
        return subprocess.run([sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"], input=payload,
                              text=True, capture_output=True, env=env, timeout=60, check=False)  # fmt: skip

    done = prompt("Make the totals use two decimals")
    assert done.returncode == 0
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert context == (
        f"[MemHooks] memory unavailable: no memory backend is available: MEMHOOKS_STORE '{folder}' is a directory"
        " (the user's to fix: point MEMHOOKS_STORE at a file, or move it away)"
    )  # what to set or move is the user's, said as theirs (newcomer25)
    assert done.stderr.count("is a directory") == 1, done.stderr
    again = prompt("And the tax too")
    assert again.returncode == 0 and again.stdout in ("", "{}\n", "{}"), again.stdout  # told once
    assert "is a directory" in again.stderr
    (tmp_path / "fresh").mkdir()
    env["MEMHOOKS_STORE"] = str(tmp_path / "fresh" / "none-yet.sqlite3")  # no store yet: not to the model
    quiet = prompt("Make the totals use two decimals")
    assert quiet.stdout in ("", "{}\n", "{}") and quiet.stderr.count("does not exist") == 1  # the user hears it
    assert prompt("And the tax too").stderr == ""  # once a session
