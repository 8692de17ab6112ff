"""What a prompt that names code brings from the project's history, through the hook as
Claude Code runs it at the root (issue 20, lane prompt20): the commits about the name,
not one-line chores that share an everyday word of the prompt with it, and no memory
repeating the prompt the model already has."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from gitrepo import build, recorded
from test_history_import import imported

PROMPT = "no_proxy is ignored when using sessions"
#: The commits that say no_proxy; the chores say only "ignore" ("ignored").
ABOUT_NO_PROXY = {"respect", "empty-fields", "allow-use"}
CHORES = {"ignore-it", "ignore-builds", "ignore-junit", "idea", "blame-ignore"}


@pytest.fixture
def history(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, dict[str, str], str]:
    """The repository (enabled), its ``{label: hash}`` and its store, history imported."""
    repo = tmp_path / "requests"
    hashes = build(repo, recorded("no_proxy.json"))
    (repo / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    store = str(tmp_path / "memories.sqlite3")
    imported(capsys, repo.resolve(), store)
    return repo.resolve(), hashes, store


def prompt(repo: Path, store: str, text: str) -> list[dict[str, str]]:
    """The memories Claude Code's model is given for ``text`` at the root, first in its
    session."""
    event = {"session_id": "s-" + hashlib.sha1(text.encode()).hexdigest()[:12], "hook_event_name": "UserPromptSubmit", "prompt": text,
             "cwd": str(repo), "transcript_path": str(repo.parent / "t.jsonl")}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
        input=json.dumps(event), cwd=repo, capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "MEMHOOKS_STORE": store},
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, "")
    if not done.stdout.strip():
        return []  # nothing worth telling
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    memories: list[dict[str, str]] = json.loads(context.split("\n", 2)[2])["memories"]
    return memories


def test_a_name_in_the_prompt_brings_its_commits_not_chores_sharing_a_word(
    history: tuple[Path, dict[str, str], str],
) -> None:
    repo, hashes, store = history
    given = prompt(repo, store, PROMPT)
    by_commit = {hashes[label][:12]: label for label in hashes}
    labels = [by_commit[m["commit"]] for m in given]
    assert set(labels) == ABOUT_NO_PROXY  # every chore matched only "ignored"
    assert not any("recalled_by" in m for m in given)  # the model has its prompt
    assert PROMPT not in json.dumps(given)


def test_a_prompt_without_a_name_of_code_keeps_its_commits_unjudged(
    history: tuple[Path, dict[str, str], str],
) -> None:
    # The floor judges commits only when the prompt names code that a memory says: a
    # commit sharing one rare word with a prose prompt is often the one it needs.
    repo, hashes, store = history
    given = prompt(repo, store, "cookies of the session are lost")
    assert given[0]["commit"] == hashes["cookies"][:12]
    assert hashes["carry"][:12] in [m["commit"] for m in given]  # "session" alone


def test_a_low_signal_commit_comes_at_the_prompt_only_when_it_says_a_name_of_the_prompt(
    history: tuple[Path, dict[str, str], str],
) -> None:
    # "Update sessions.py" (a one-line chore: low-signal) is short, so "sessions" alone
    # scored it high; it stays searchable and comes when the prompt names that file.
    repo, hashes, store = history
    chore = hashes["update-sessions"][:12]
    assert chore not in [
        m["commit"] for m in prompt(repo, store, "cookies of the session are lost")
    ]
    for named in ("cookies are lost in requests/sessions.py", "cookies are lost in sessions.py"):
        assert chore in [m["commit"] for m in prompt(repo, store, named)]


def test_a_one_line_chore_of_ignore_lists_or_release_notes_is_not_recalled_at_the_prompt(
    history: tuple[Path, dict[str, str], str],
) -> None:
    # lines20: on requests, "a connection error is ignored during redirects" brought
    # "ignore it" and "ignore builds" (.gitignore), "what changed in the latest release"
    # "updated history w/ latest changes" (HISTORY.rst): one-line commits of ignore lists
    # and release notes say nothing of code; they stay searchable, and come when the
    # prompt names their file
    repo, hashes, store = history
    chores = {hashes[label][:12] for label in (*CHORES - {"blame-ignore"}, "history-note")}
    for text in ("why are the builds ignored", "the latest changes of the history"):
        assert not chores & {m["commit"] for m in prompt(repo, store, text)}, text
    named = prompt(repo, store, "the latest changes in HISTORY.rst")
    assert hashes["history-note"][:12] in [m["commit"] for m in named]

