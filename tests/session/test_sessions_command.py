"""``memhooks sessions``: what reached the agent, per session, from the delivery log."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from session_support import Agent


def _cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "memhooks", "sessions", *args], env=env, text=True, capture_output=True, timeout=60, check=False)


def test_no_sessions_yet_creates_nothing(tmp_path: Path, project: tuple[Path, dict[str, str]]) -> None:
    _root, env = project
    done = _cli(env)
    assert done.returncode == 0 and done.stdout.startswith("memhooks sessions: none yet")
    assert not (tmp_path / "state").exists()
    assert _cli(env, "show", "S1").returncode == 2


def test_list_and_show_say_what_was_delivered(agent: Agent) -> None:
    agent.prompt("Make the totals use two decimals")
    agent.read("billing/invoice.py")
    agent.read("billing/invoice.py")  # nothing new: no delivery
    listing = json.loads(_cli(agent.env, "--format", "json").stdout)
    [session] = listing["sessions"]
    assert (session["host"], session["session"], session["root"], session["deliveries"]) == ("claude-code", "S1", str(agent.root), 2)
    shown = json.loads(_cli(agent.env, "show", "S", "--format", "json").stdout)
    first, second = shown["deliveries"]
    assert (first["event"], first["target"]) == ("UserPromptSubmit", "")
    assert (second["event"], second["target"]) == ("PostToolUse", "billing")
    assert [i["item"] for i in second["items"]] == ["billing-cents", "tax-rate"]
    assert second["items"][0]["words"].startswith("BILLING-MARK: invoice amounts")
    assert second["items"][0]["cue"] == "anchored to billing/invoice.py"  # what brought it at the Read
    assert session["chars"] == first["chars"] + second["chars"] > 0
    human = _cli(agent.env, "show", "S1").stdout
    assert "PostToolUse  for billing" in human and "billing-cents  BILLING-MARK" in human
    blank = _cli(agent.env, "show", " ")  # every id starts with "": not a way to name one
    assert blank.returncode == 2 and "give a session id" in blank.stderr and not blank.stdout


def test_untrusted_text_is_shown_with_escapes(agent: Agent) -> None:
    from memhooks.session import State, open_session, state_path

    session = open_session(State(state_path(agent.env)), "claude-code", "S9", str(agent.root))
    session.record("PostToolUse", "billing", [{"item": "m", "words": "\x1b[2Jgone", "cue": "q"}], lambda claimed: 5)
    assert "\\x1b[2Jgone" in _cli(agent.env, "show", "S9").stdout


def test_an_unusable_state_folder_is_an_error_not_none_yet(tmp_path: Path, project: tuple[Path, dict[str, str]]) -> None:
    _root, env = project
    (tmp_path / "afile").write_text("")
    done = _cli(dict(env, MEMHOOKS_STATE_DIR=str(tmp_path / "afile" / "state")))
    assert done.returncode == 1 and "none yet" not in done.stdout
    assert "cannot be used (Not a directory)" in done.stderr and "MEMHOOKS_STATE_DIR" in done.stderr


def test_a_read_only_state_folder_is_an_error_not_none_yet(tmp_path: Path, project: tuple[Path, dict[str, str]]) -> None:
    from permissions import read_only_folder

    _root, env = project
    folder = tmp_path / "ro-state"
    folder.mkdir()
    with read_only_folder(folder):
        done = _cli(dict(env, MEMHOOKS_STATE_DIR=str(folder)))
    assert done.returncode == 1 and "none yet" not in done.stdout
    assert done.stderr.startswith(f"error: the memhooks state file {folder / 'state.sqlite3'} cannot be used (")
    assert "read-only" in done.stderr and "MEMHOOKS_STATE_DIR" in done.stderr


def test_a_session_without_hook_calls_is_shown_idle_not_open(agent: Agent) -> None:
    """Sessions end: the host's end is "ended"; 30 minutes without a hook call is "idle"
    (issue 22 item 4: sessions stayed "open" forever)."""
    import time

    from memhooks.session import State, open_session, state_path

    hour_ago = time.time() - 3600
    state = State(state_path(agent.env), clock=lambda: hour_ago)
    open_session(state, "claude-code", "OLD1", str(agent.root)).record("UserPromptSubmit", "", [{"item": "m", "words": "w", "cue": "q"}], lambda claimed: 5)
    state.close()
    agent.prompt("Make the totals use two decimals")  # session S1, now
    listing = json.loads(_cli(agent.env, "--format", "json").stdout)["sessions"]
    assert [(s["session"], s["status"]) for s in listing] == [("S1", "open"), ("OLD1", "idle")]
    human = _cli(agent.env).stdout.splitlines()
    assert "  idle " in human[2] and "  open " in human[1]
    shown = _cli(agent.env, "show", "OLD1").stdout.splitlines()[0]
    assert "compaction(s), idle: no hook call since " in shown and "(open again if it resumes; forgotten after " in shown


def test_a_damaged_state_file_is_said_when_it_is_replaced(tmp_path: Path, project: tuple[Path, dict[str, str]]) -> None:
    """Listing sessions of a damaged state file moves it aside as the hook would, and says
    so (issue 22 item 3: a damaged state file reset the ledgers without a word)."""
    _root, env = project
    state = tmp_path / "state"
    state.mkdir()
    (state / "state.sqlite3").write_bytes(b"garbage, not a database\n" * 40)
    done = _cli(env)
    assert done.returncode == 0 and done.stdout.startswith("memhooks sessions: none yet")
    assert done.stderr.startswith(
        f"memhooks sessions: the memhooks state file {state / 'state.sqlite3'} was damaged: moved to"
        f" {state / 'state.sqlite3.old'} and started afresh (sessions' ledgers are empty: memories may come once more)"
    )
