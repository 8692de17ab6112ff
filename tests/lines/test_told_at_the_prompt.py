"""A commit reaches a session once, whichever door it came through (issue 20 items 2, 5;
newcomer #8): the history memories a prompt delivered are the commits they were made
of, so a Read afterwards tells the owners the session still lacks instead of nothing —
what the session has is left out before the owners are ranked and capped — and a
prompt after a Read does not tell again a commit the Read told.

The story (``data/ledger_story.json``): an invoice module whose lines are owned by three
"digest retries" commits, a rounding fix and a rendering fix."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from storyrepo import build, story

PATH = "billing/invoice.py"
DIGEST = ("cap", "reset", "thread")  # the commits the prompt "digest retries" names
OTHERS = ("cents", "fonts")


@pytest.fixture
def session(tmp_path: Path) -> tuple[Path, dict[str, str], dict[str, str]]:
    """(root, environment of its hooks, {label: hash}): the story with its history
    imported, as the quickstart does."""
    root = tmp_path / "repo"
    hashes = build(root, story("ledger_story.json"))
    (root / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    env = {**os.environ, "MEMHOOKS_STATE_DIR": str(tmp_path / "state"),
           "MEMHOOKS_STORE": str(tmp_path / "store.sqlite3"), "HOME": str(tmp_path / "home"),
           "MEMHOOKS_HOOK_TIMEOUT_MS": "30000"}  # fmt: skip
    done = subprocess.run([sys.executable, "-m", "memhooks", "history", "import"], cwd=root,
                          env=env, capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return root, env, hashes


def hook(root: Path, env: dict[str, str], payload: dict[str, object]) -> str:
    """What Claude Code's hook told the model for ``payload`` (``""``: nothing)."""
    event = {"session_id": "s1", "cwd": str(root), **payload}
    done = subprocess.run([sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
                          input=json.dumps(event), cwd=root, env=env, capture_output=True,
                          text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    if not done.stdout.strip() or done.stdout.strip() == "{}":
        return ""
    return str(json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"])


def prompt(text: str) -> dict[str, object]:
    return {"hook_event_name": "UserPromptSubmit", "prompt": text}


def read(root: Path) -> dict[str, object]:
    return {"hook_event_name": "PostToolUse", "tool_name": "Read", "tool_response": {},
            "tool_input": {"file_path": str(root / PATH)}}  # fmt: skip


def told(text: str, hashes: dict[str, str], labels: tuple[str, ...]) -> set[str]:
    return {label for label in labels if hashes[label][:12] in text}


def test_a_read_after_the_prompt_tells_the_owners_the_prompt_did_not(
    session: tuple[Path, dict[str, str], dict[str, str]],
) -> None:
    root, env, hashes = session
    at_prompt = hook(root, env, prompt("digest retries"))
    assert told(at_prompt, hashes, DIGEST) == set(DIGEST)  # the best owners of the file
    at_read = hook(root, env, read(root))
    # before: the three ranked first were dropped after the cap, and nothing was told
    assert told(at_read, hashes, OTHERS) == set(OTHERS)
    assert told(at_read, hashes, DIGEST) == set()  # each commit once
    # `sessions show` lists the prompt's memories once (their commits' keys are the ledger's)
    shown = subprocess.run([sys.executable, "-m", "memhooks", "sessions", "show", "s1"], cwd=root,
                           env=env, capture_output=True, text=True, check=False).stdout  # fmt: skip
    assert not any(f"commit:{hashes[label]}" in shown for label in DIGEST)
    assert all(f"commit:{hashes[label]}" in shown for label in OTHERS)


def test_a_prompt_after_a_read_does_not_tell_its_commits_again(
    session: tuple[Path, dict[str, str], dict[str, str]],
) -> None:
    root, env, hashes = session
    at_read = hook(root, env, read(root))
    first = told(at_read, hashes, (*DIGEST, *OTHERS))
    assert first
    at_prompt = hook(root, env, prompt("digest retries"))
    assert told(at_prompt, hashes, tuple(first)) == set()
    assert told(at_prompt, hashes, DIGEST) == set(DIGEST) - first  # the rest still come


NOTE = "Invoices are immutable once sent: accounting reconciles them by their rendered text."


def test_a_note_on_the_file_is_not_crowded_out_at_a_read_by_its_commits(
    session: tuple[Path, dict[str, str], dict[str, str]],
) -> None:
    # store/anchors.anchored cut to its limit before recall refused the commits' memories
    # (line-level recall tells commits by the lines they own): a file with more commits
    # that match the prompt than a query takes left no place for the note remembered for it
    from storyrepo import commit_files

    root, env, _ = session
    for n in range(20):
        text = (root / PATH).read_text(encoding="utf-8") + f"# digest retries, step {n}\n"
        commit_files(root, {PATH: text}, f"digest: tune retries, step {n}", 1767700000 + n)
    for args in (["history", "import"], ["remember", "--file", PATH, NOTE]):
        done = subprocess.run([sys.executable, "-m", "memhooks", *args], cwd=root, env=env,
                              capture_output=True, text=True, check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr
    assert NOTE not in hook(root, env, prompt("digest retries"))  # it names none of them
    assert NOTE in hook(root, env, read(root))


OLD_NOTE = "Invoice totals once went out in the wrong currency when a sender retried."


def edit_of(root: Path) -> dict[str, object]:
    old = "        self.nonce = None\n"
    return {"hook_event_name": "PreToolUse", "tool_name": "Edit",
            "tool_input": {"file_path": str(root / PATH), "old_string": old,
                           "new_string": "        self.nonce = b''\n"}}  # fmt: skip


def old_note(root: Path, env: dict[str, str]) -> None:
    from memhooks.store import MemoryStore
    from memhooks.store.project import project_id

    with MemoryStore(env["MEMHOOKS_STORE"]) as store:
        store.add(project_id(str(root)), OLD_NOTE, files=[PATH], scope="billing",
                  created_at="2026-01-02T00:00:00Z")  # fmt: skip


def remember(root: Path, env: dict[str, str], text: str) -> None:
    done = subprocess.run([sys.executable, "-m", "memhooks", "remember", "--file", PATH, text],
                          cwd=root, env=env, capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr


@pytest.fixture
def noted(session: tuple[Path, dict[str, str], dict[str, str]]) -> tuple[Path, dict[str, str]]:
    """The session's project with a note on the file saved before the session began, and
    a prompt that does not bring it."""
    root, env, _ = session
    old_note(root, env)
    assert OLD_NOTE not in hook(root, env, prompt("speed up the test suite"))
    return root, env


def test_an_edit_before_any_read_of_its_folder_is_told_the_files_notes_before_it(
    noted: tuple[Path, dict[str, str]],
) -> None:
    # review 11:27: only notes saved since the session began were pushed, so an edit that
    # is the session's first touch of its folder (no read served it) got the older note
    # after the edit was made, from the post-tool event that served the folder
    root, env = noted
    assert hook(root, env, edit_of(root)).count(OLD_NOTE) == 1
    assert OLD_NOTE not in hook(root, env, edit_of(root))  # once a session


def test_after_a_read_an_edit_pushes_only_what_was_remembered_since(
    noted: tuple[Path, dict[str, str]],
) -> None:
    # the read's recall had the file's notes as candidates (ranked by the prompt there):
    # the edit after it does not push them again, only a note remembered since
    root, env = noted
    at_read = hook(root, env, read(root))
    remember(root, env, NOTE)
    told = hook(root, env, edit_of(root))
    assert NOTE in told and OLD_NOTE not in told
    assert at_read.count(OLD_NOTE) == 1
