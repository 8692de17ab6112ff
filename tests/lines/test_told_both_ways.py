"""The pre-tool edit's shortcut answers exactly what the whole way would (issue 20 item 7):
one session driven twice through ``memhooks hook`` as Claude Code runs it — once as it
comes, once with the session's snapshot taken away before every pre-tool edit, so each
goes the whole way — delivers the same at every step. A shortcut that settles an edit the
whole way would have told something is a defect; so is one that never settles.

The store holds the project's history (``memhooks history import``, as the quickstart
runs it): the symbol cue never tells a commit's memory by name, so such a store settles
the edit; once a note naming the code is remembered mid-session, it no longer does, and
the note is told before the edit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

PATH = "retryx/retry.py"
CAP = "MAX_ATTEMPTS = 4  # the gateway's measured budget\n"  # the decision's line
RESHAPED = "        self.attempts = attempts\n"  # the "perf: simplify" regression's line
LAST = '        raise TimeoutError("gateway did not answer")\n'  # the first commit's line
NOTE = "Retrier.call sleeps between attempts: the gateway rate-limits retries of `call`."


def run(repo: Path, env: dict[str, str], payload: dict[str, object]) -> tuple[str, bool]:
    """(what the hook told the model, whether it went the whole way: loaded SQLite, or
    read the session's ledger from its claim journal, memhooks.session.edit_session)."""
    told, loaded = modules(repo, env, payload)
    return told, "_sqlite3" in loaded or "memhooks.session.edit_session" in loaded


def modules(repo: Path, env: dict[str, str], payload: dict[str, object]) -> tuple[str, set[str]]:
    """(what the hook told the model, the modules it loaded)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "memhooks", "hook", "--agent", "claude-code"],
        input=json.dumps({"session_id": "s1", "cwd": str(repo), **payload}),
        capture_output=True, text=True, check=False, env=env, cwd=repo,
    )  # fmt: skip
    imports = [line for line in done.stderr.splitlines() if line.startswith("import time:")]
    # a store not made yet is said once a session (hook/call._missing_store): not a failure
    rest = [line for line in done.stderr.splitlines()
            if not line.startswith("import time:") and "does not exist: nothing to recall" not in line]  # fmt: skip
    assert done.returncode == 0 and not rest, rest
    told = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"] if done.stdout.strip() else ""  # fmt: skip
    return str(told), {line.rpartition("|")[2].strip() for line in imports}


def read(repo: Path, offset: int, limit: int) -> dict[str, object]:
    return {"hook_event_name": "PostToolUse", "tool_name": "Read", "tool_response": {},
            "tool_input": {"file_path": str(repo / PATH), "offset": offset, "limit": limit}}  # fmt: skip


def edit(repo: Path, old: str) -> dict[str, object]:
    return {"hook_event_name": "PreToolUse", "tool_name": "Edit",
            "tool_input": {"file_path": str(repo / PATH), "old_string": old,
                           "new_string": old.replace("4", "3")}}  # fmt: skip


@pytest.fixture
def both(repo: Path, tmp_path: Path) -> dict[str, dict[str, str]]:
    """The environment of each way (its own state folder), one store with the history."""
    (repo / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    env = {**os.environ, "MEMHOOKS_STORE": str(tmp_path / "store.sqlite3"),
           "MEMHOOKS_HOOK_TIMEOUT_MS": "30000"}  # fmt: skip
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    done = subprocess.run([sys.executable, "-m", "memhooks", "history", "import"],
                          cwd=repo, env=env, capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    # imported a while ago (a store written in the last 2 s is not trusted by its stat)
    store = env["MEMHOOKS_STORE"]
    os.utime(store, (os.stat(store).st_atime - 60, os.stat(store).st_mtime - 60))
    return {way: {**env, "MEMHOOKS_STATE_DIR": str(tmp_path / way)} for way in ("as-is", "whole")}


def warmed(folder: Path) -> None:
    """Wait for the blame ahead a read started (:mod:`memhooks.lines.warm`)."""
    end = time.monotonic() + 60
    while folder.is_dir() and any(folder.glob("*.warm")) and time.monotonic() < end:
        time.sleep(0.05)


def step(
    repo: Path, both: dict[str, dict[str, str]], payload: dict[str, object]
) -> tuple[str, bool]:
    """Run ``payload`` both ways; what was told (the same both ways) and whether the
    shortcut settled it (no SQLite loaded)."""
    if payload["hook_event_name"] == "PreToolUse":
        session = str(payload.get("session_id", "s1"))
        snapshot = Path(both["whole"]["MEMHOOKS_STATE_DIR"]) / "sessions" / f"{session}.json"
        snapshot.unlink(missing_ok=True)  # the whole way
    told, loaded = run(repo, both["as-is"], payload)
    whole, whole_loaded = run(repo, both["whole"], payload)
    for env in both.values():
        warmed(Path(env["MEMHOOKS_STATE_DIR"]) / "blame")
    assert whole_loaded or payload["hook_event_name"] != "PreToolUse"
    assert told == whole, payload
    return told, not loaded


def test_each_edit_tells_the_same_whether_or_not_the_shortcut_settles_it(
    repo: Path, both: dict[str, dict[str, str]], hashes: dict[str, str]
) -> None:
    # the whole way told the model these before the edits below
    told, _ = step(repo, both, read(repo, 4, 4))  # lines 4-7: the decision's
    assert hashes["decision"][:12] in told
    # the decision's line (±3 reaches the first commit's, which answers no prompt): settled
    assert step(repo, both, edit(repo, CAP)) == ("", True)
    # the regression only reshaped these (low-signal), outside what was read: the whole
    # way, which tells it and what it replaced; then, all of them told, settled
    told, settled = step(repo, both, edit(repo, RESHAPED))
    assert hashes["regression"][:12] in told and not settled
    assert step(repo, both, edit(repo, RESHAPED)) == ("", True)
    # outside what was read, the project's first commit's lines: told only when it answers
    # the session's prompt — this one has none yet: settled; then one it answers, which
    # brings the commit's memory: claimed by its commit as well (hook.deliver), the edit
    # has nothing left to tell and settles (the same both ways; a prompt that answers it
    # without telling it: test_told's decide)
    assert step(repo, both, edit(repo, LAST)) == ("", True)
    prompt = {"hook_event_name": "UserPromptSubmit", "prompt": "retry gateway calls with backoff"}
    assert hashes["add"][:12] in step(repo, both, prompt)[0]
    assert step(repo, both, edit(repo, LAST)) == ("", True)


def test_a_note_remembered_mid_session_is_told_before_the_next_edit(
    repo: Path, both: dict[str, dict[str, str]], hashes: dict[str, str]
) -> None:
    step(repo, both, read(repo, 4, 16))
    assert step(repo, both, edit(repo, CAP)) == ("", True)
    done = subprocess.run([sys.executable, "-m", "memhooks", "remember", NOTE], cwd=repo,
                          env=both["as-is"], capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    # the store changed: the shortcut no longer vouches that the code's names find nothing
    call = "                return fn()\n"
    told, settled = step(repo, both, edit(repo, call))
    assert NOTE in told and not settled
    told, settled = step(repo, both, edit(repo, call))
    assert told == "" and not settled  # a store with a note: a name search every edit


FILE_NOTE = "Ops asked us to keep this module's behaviour frozen until the Q3 gateway migration."


def test_a_note_remembered_for_the_file_is_told_before_the_next_edit_once(
    repo: Path, both: dict[str, dict[str, str]]
) -> None:
    # newcomer trial #4: 'remember --file' a note that names none of the code's names is
    # anchored to the file only; the next edit of that file tells it, before the change,
    # and nothing tells it again in the session (not the next edit, not the next prompt)
    step(repo, both, {"hook_event_name": "UserPromptSubmit", "prompt": "tune the backoff"})
    step(repo, both, read(repo, 4, 16))
    step(repo, both, edit(repo, CAP))
    done = subprocess.run([sys.executable, "-m", "memhooks", "remember", "--file", PATH, FILE_NOTE],
                          cwd=repo, env=both["as-is"], capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr  # one store for both ways
    call = "                return fn()\n"
    told, settled = step(repo, both, edit(repo, call))
    assert told.count(FILE_NOTE) == 1 and not settled
    assert FILE_NOTE not in step(repo, both, edit(repo, CAP))[0]
    prompt = {"hook_event_name": "UserPromptSubmit", "prompt": "the gateway migration in Q3"}
    assert FILE_NOTE not in step(repo, both, prompt)[0]


def test_a_store_made_mid_session_is_searched_at_the_next_edit(
    repo: Path, tmp_path: Path
) -> None:
    # review F3: the snapshot said "no store"; the first 'memhooks remember' makes one
    (repo / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    env = {**os.environ, "MEMHOOKS_STORE": str(tmp_path / "new.sqlite3"),
           "MEMHOOKS_HOOK_TIMEOUT_MS": "30000"}  # fmt: skip
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    both = {way: {**env, "MEMHOOKS_STATE_DIR": str(tmp_path / way)} for way in ("as-is", "whole")}
    step(repo, both, read(repo, 4, 16))
    assert step(repo, both, edit(repo, CAP)) == ("", True)  # no store: nothing to search
    done = subprocess.run([sys.executable, "-m", "memhooks", "remember", NOTE], cwd=repo,
                          env=env, capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    told, settled = step(repo, both, edit(repo, "                return fn()\n"))
    assert NOTE in told and not settled


def test_a_session_on_another_store_is_not_settled_by_this_ones_quiet_state(
    repo: Path, both: dict[str, dict[str, str]], tmp_path: Path
) -> None:
    # review F2: what one store was found to hold says nothing of another's (the state
    # folder's shared quiet states were keyed by the root alone)
    import shutil

    other = str(tmp_path / "other.sqlite3")
    shutil.copy2(both["as-is"]["MEMHOOKS_STORE"], other)  # the same history, imported
    step(repo, both, read(repo, 4, 16))  # this store is found quiet (history only)
    mine = {way: {**env, "MEMHOOKS_STORE": other} for way, env in both.items()}
    second = {"session_id": "s2"}
    step(repo, mine, {**read(repo, 4, 16), **second})
    done = subprocess.run([sys.executable, "-m", "memhooks", "remember", NOTE], cwd=repo,
                          env=mine["as-is"], capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    told, settled = step(repo, mine, {**edit(repo, "                return fn()\n"), **second})
    assert NOTE in told and not settled


def test_an_edit_that_tells_owners_searches_no_names_in_a_store_of_commits_alone(
    repo: Path, both: dict[str, dict[str, str]], hashes: dict[str, str]
) -> None:
    # the code's names never tell a commit's memory: while the session's snapshot knows
    # the store holds nothing else, the whole way tells the owners without that search
    # (the same answer: test_each_edit_tells_the_same_whether_or_not_the_shortcut_settles_it)
    step(repo, both, read(repo, 4, 4))
    payload = edit(repo, RESHAPED)
    told, loaded = modules(repo, both["as-is"], payload)
    assert hashes["regression"][:12] in told
    assert "memhooks.recall.symbol_recall" not in loaded
    # a new session knows it from the state folder's shared quiet states
    fresh, loaded = modules(repo, both["as-is"], {**payload, "session_id": "s2"})
    assert hashes["regression"][:12] in fresh
    assert "memhooks.recall.symbol_recall" not in loaded
    sessions = Path(both["whole"]["MEMHOOKS_STATE_DIR"]) / "sessions"
    (sessions / "s1.json").unlink()
    (sessions / "_quiet.json").unlink()
    whole, loaded = modules(repo, both["whole"], payload)
    assert whole == told and "memhooks.recall.symbol_recall" in loaded
