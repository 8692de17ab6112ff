"""Hook maintenance the hook accepted is never lost (issue 13 item 3): parallel hook
calls record their update first and whoever holds the project's applier lock applies
them all; a call that cannot get the lock in time leaves its update for the next call."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memhooks.session import State, journal

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="flock")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n")
    return root.resolve()


def _write_payload(root: Path, name: str, session: str = "S") -> str:
    path = root / "src" / name
    path.write_text("x = 1\n")
    return json.dumps({"session_id": session, "cwd": str(root), "hook_event_name": "PostToolUse",
                       "tool_name": "Write", "tool_input": {"file_path": str(path), "content": "x = 1\n"}})  # fmt: skip


def test_twenty_parallel_writes_all_reach_the_hook(repo: Path, tmp_path: Path) -> None:
    env = dict(os.environ, MEMHOOKS_STATE_DIR=str(tmp_path / "state"), MEMHOOKS_AUTO_PATHS="64")
    payloads = [_write_payload(repo, f"m{i:02d}.py") for i in range(20)]
    procs = [
        subprocess.Popen([sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        for _ in payloads
    ]  # fmt: skip
    for proc, payload in zip(procs, payloads):
        proc.stdin.write(payload.encode())  # type: ignore[union-attr]
        proc.stdin.close()  # type: ignore[union-attr]
        proc.stdin = None  # written: communicate() only reads
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0 and out == b"", err
    # Whatever a call could not apply before its deadline, the next call of the project
    # does, whatever its event.
    prompt = json.dumps({"session_id": "S", "cwd": str(repo), "hook_event_name": "UserPromptSubmit", "prompt": "go on with the models"})
    nudge = subprocess.run([sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
                           input=prompt, text=True, env=env, capture_output=True, check=False)  # fmt: skip
    assert nudge.returncode == 0
    hook = (repo / "src" / "MEMHOOKS.md").read_text()
    missing = [f"m{i:02d}.py" for i in range(20) if f"src/m{i:02d}.py" not in hook]
    assert missing == []
    state = State(str(tmp_path / "state" / "state.sqlite3"))
    assert state.read("SELECT count(*) FROM journal") == [(0,)]


def test_an_update_left_behind_by_a_busy_lock_is_applied_by_the_next_call(repo: Path, tmp_path: Path) -> None:
    import fcntl

    state = State(str(tmp_path / "state.sqlite3"))
    applied: list[list[dict[str, object]]] = []
    journal.accept(state, str(repo), {"n": 1})
    holder = journal._lock(state, str(repo), time.monotonic() + 1)  # another hook holds it
    assert holder is not None
    try:
        written, notes = journal.drain(state, str(repo), lambda works: applied.append(works) or [], time.monotonic() + 0.05)
        assert (written, notes, applied) == ([], [], [])
        assert journal.pending(state, str(repo))
    finally:
        fcntl.flock(holder, fcntl.LOCK_UN)
        os.close(holder)
    journal.accept(state, str(repo), {"n": 2})
    journal.drain(state, str(repo), lambda works: applied.append(works) or ["hook"], time.monotonic() + 5)
    assert [[w["n"] for w in batch] for batch in applied] == [[1, 2]]
    assert not journal.pending(state, str(repo))


def test_an_update_that_keeps_failing_is_dropped_with_a_note(repo: Path, tmp_path: Path) -> None:
    from memhooks.errors import fail

    state = State(str(tmp_path / "state.sqlite3"))
    journal.accept(state, str(repo), {"n": 1})

    def broken(works: list[dict[str, object]]) -> list[str]:
        raise fail("MH031", "the hook is read-only", "src/MEMHOOKS.md", help="make it writable")

    notes = [journal.drain(state, str(repo), broken, time.monotonic() + 5)[1] for _ in range(journal.MAX_ATTEMPTS)]
    said = "the hook is read-only (src/MEMHOOKS.md); make it writable"
    assert notes[0] == [f"MH031 hook maintenance failed (kept, retried by the next hook call): {said}"]
    assert notes[-1] == [f"MH031 hook maintenance dropped 1 update(s) after {journal.MAX_ATTEMPTS} failed attempts: {said}"]
    assert not journal.pending(state, str(repo))


def test_a_refused_update_names_its_code_and_hook_file(repo: Path, tmp_path: Path) -> None:
    from memhooks.hook import handle

    hook = repo / "src" / "MEMHOOKS.md"
    hook.write_text("---\nschema: memhooks/v2\n---\nKept as written.\n")
    hook.chmod(0o444)
    env = dict(os.environ, MEMHOOKS_STATE_DIR=str(tmp_path / "state"))
    reply = handle(_write_payload(repo, "new.py"), agent="claude-code", env=env, time_s=30.0)
    assert reply.note is not None and reply.note.startswith("MH031 hook maintenance failed (kept, retried by the next hook call): ")
    assert str(hook) in reply.note  # which file: the line may come with a later, unrelated call
    assert hook.read_text() == "---\nschema: memhooks/v2\n---\nKept as written.\n"


def test_a_row_for_a_broken_hook_waits_and_is_not_held_with_the_rest_of_its_batch(repo: Path, tmp_path: Path) -> None:
    from memhooks.errors import Diagnostic
    from memhooks.protocol.hookfile import InvalidHookError

    state = State(str(tmp_path / "state.sqlite3"))
    broken = repo / "sub" / "MEMHOOKS.md"
    broken.parent.mkdir()
    broken.write_text("---\nschema: memhooks/v2\nrecall_queries: [unclosed\n---\n")
    past = time.time() - 60
    os.utime(broken, (past, past))  # its key is trusted: not retried until it changes
    journal.accept(state, str(repo), {"files": [["written", str(repo / "sub" / "a.py")]], "who": "A"})
    journal.accept(state, str(repo), {"files": [["written", str(repo / "src" / "b.py")]], "who": "B"})
    applied: list[list[str]] = []

    def apply(works: list[dict[str, object]]) -> list[str]:
        paths = [str(f[1]) for w in works for f in w["files"]]  # type: ignore[attr-defined]
        if any("/sub/" in p for p in paths) and "recall_queries: [unclosed" in broken.read_text():
            raise InvalidHookError(Diagnostic("MH000", "invalid YAML", str(broken), 3, 17, help="fix the YAML"))
        applied.append(paths)
        return ["hook"]

    _written, notes = journal.drain(state, str(repo), apply, time.monotonic() + 5, who="B")
    assert applied == [[str(repo / "src" / "b.py")]]  # B's own update, not held with A's
    assert notes == []  # A's waiting update is not B's to hear about
    assert len(state.read("SELECT id FROM journal")) == 1
    for _ in range(journal.MAX_ATTEMPTS + 1):  # never counted, never dropped
        assert journal.drain(state, str(repo), apply, time.monotonic() + 5, who="B") == ([], [])
    _written, notes = journal.drain(state, str(repo), apply, time.monotonic() + 5, who="A")
    said = (f"MH000 hook update for sub/a.py waits until sub/MEMHOOKS.md is fixed (kept): invalid YAML ({broken}:3:17); fix the YAML; "
            "once the file validates, the next hook call that maintains hooks (an edit, a prompt) or `memhooks maintain` applies it")  # fmt: skip
    assert notes == [said]
    assert journal.drain(state, str(repo), apply, time.monotonic() + 5, who="A") == ([], [])  # said once
    assert len(applied) == 1
    broken.write_text("---\nschema: memhooks/v2\n---\n")
    assert journal.drain(state, str(repo), apply, time.monotonic() + 5, who="B") == (["hook"], [])
    assert applied[-1] == [str(repo / "sub" / "a.py")]
    assert not journal.pending(state, str(repo))


def test_a_dropped_update_names_the_files_it_was_for(repo: Path, tmp_path: Path) -> None:
    from memhooks.errors import fail

    state = State(str(tmp_path / "state.sqlite3"))
    files = [["written", str(repo / "src" / n)] for n in ("a.py", "b.py", "c.py", "d.py")]
    journal.accept(state, str(repo), {"files": files, "who": "A"})

    def locked(works: list[dict[str, object]]) -> list[str]:
        raise fail("MH031", "another writer held the hook's lock for 60 s", "src/MEMHOOKS.md", help="try again")

    notes = [journal.drain(state, str(repo), locked, time.monotonic() + 5, who="B")[1] for _ in range(journal.MAX_ATTEMPTS)]
    said = ("MH031 hook maintenance dropped 1 update(s) (edits of src/a.py, src/b.py, src/c.py and 1 more) after "
            f"{journal.MAX_ATTEMPTS} failed attempts: another writer held the hook's lock for 60 s (src/MEMHOOKS.md); try again")  # fmt: skip
    assert notes[-1] == [said]
