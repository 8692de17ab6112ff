"""A pre-tool edit whose lines' owners the session was all told settles without SQLite
(issue 20 item 7): the decision from the blame cache (:mod:`memhooks.hook.told`), and
through ``memhooks hook`` as Claude Code runs it — the state file is not opened, and an
edit whose lines have an owner not told yet still goes the whole way and tells it."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from storyrepo import blamed_ahead
from test_hook_lines import context, hook

from memhooks.hook.told import all_told
from memhooks.lines.ownership import owners
from memhooks.lines.tools import changes
from memhooks.recall.line_recall import EDIT, READ, line_recall
from memhooks.session.location import FILENAME

PATH = "retryx/retry.py"


def edit(root: Path, old: str, new: str = "x = 1\n") -> dict[str, object]:
    return {"session_id": "{session}", "cwd": "{root}", "hook_event_name": "PreToolUse",
            "tool_name": "Edit", "tool_input": {"file_path": str(root / PATH), "old_string": old,
                                                "new_string": new}}  # fmt: skip


def read(root: Path, offset: int, limit: int) -> dict[str, object]:
    return {"session_id": "{session}", "cwd": "{root}", "hook_event_name": "PostToolUse",
            "tool_name": "Read", "tool_response": {},
            "tool_input": {"file_path": str(root / PATH), "offset": offset, "limit": limit}}  # fmt: skip


def decide(repo: Path, state: str, old: str, told: set[str], prompt: str | None = None) -> bool:
    found = changes("Edit", {"file_path": PATH, "old_string": old, "new_string": "x\n"})
    return all_told(found, lambda p: str(repo / p), str(repo), state, told, prompt)


def test_an_edit_settles_only_when_every_owner_of_its_lines_was_told(
    repo: Path, state: str, hashes: dict[str, str]
) -> None:
    line_recall(str(repo), PATH, [(1, 19)], kind=READ, state_dir=state)  # the cache, warm
    decision, regression = hashes["decision"], hashes["regression"]
    cap = "MAX_ATTEMPTS = 4  # the gateway's measured budget\n"  # line 5: ±3 is 2-8
    # lines 2-8: the decision and the project's first commit (told only when it answers
    # the prompt: this one does not)
    assert decide(repo, state, cap, {decision})
    assert not decide(repo, state, cap, {regression})  # the decision not told yet
    assert not decide(repo, state, cap, {decision}, prompt="retry gateway calls with backoff")
    # line 10 is the regression's, a reshaping commit (low-signal): settled only when its
    # previous owners there (the decision) were told too — kept line by line when the
    # read looked up the owner's lines (lines.story), so the edit of one of them finds
    # them without git
    reshaped = "        self.attempts = attempts\n"
    assert decide(repo, state, reshaped, {decision, regression})
    assert not decide(repo, state, reshaped, {regression})
    line_recall(str(repo), PATH, [(7, 13)], kind=EDIT, focus=[(10, 10)], state_dir=state)
    assert decide(repo, state, reshaped, {decision, regression})
    assert not decide(repo, state, reshaped, {regression})


def test_an_edit_settles_only_for_the_file_version_the_cache_has(
    repo: Path, state: str, hashes: dict[str, str]
) -> None:
    owners(str(repo), PATH, [(1, 19)], state_dir=state)
    line_recall(str(repo), PATH, [(1, 19)], kind=READ, state_dir=state)
    cap = "MAX_ATTEMPTS = 4  # the gateway's measured budget\n"
    assert decide(repo, state, cap, {hashes["decision"]})
    target = repo / PATH
    target.write_text(target.read_text(encoding="utf-8") + "# more\n", encoding="utf-8")
    assert not decide(repo, state, cap, {hashes["decision"]})  # changed since: the whole way


def test_after_the_read_that_told_its_owners_the_edit_opens_no_state_file(
    project: dict[str, object], hashes: dict[str, str]
) -> None:
    root = Path(str(project["root"]))
    told = context(hook(project, "claude-code", read(root, 1, 19)))
    assert hashes["decision"][:12] in told
    state = Path(project["env"]["MEMHOOKS_STATE_DIR"])  # type: ignore[index]
    ledger = state / FILENAME
    assert ledger.exists()
    for file in state.glob(FILENAME + "*"):  # opened, a fresh state file would tell again
        file.unlink()
    cap = "MAX_ATTEMPTS = 4  # the gateway's measured budget\n"
    assert context(hook(project, "claude-code", edit(root, cap))) == ""
    assert not ledger.exists()


def test_an_edit_of_lines_that_need_nothing_settles_though_nothing_was_told_yet(
    project: dict[str, object],
) -> None:
    # lines 1-4 are the project's first commit's (told only when it answers the prompt):
    # the read tells nothing, and the edit of those lines has nothing to tell either — it
    # went the whole way (the state file opened, SQLite loaded: ~2x bare) whenever the
    # session had been told nothing yet (iproute2: edits of lines "Update kernel headers"
    # owns, a bump never told, 4 of bench_lines_hook's 21 edit_told runs)
    root = Path(str(project["root"]))
    assert context(hook(project, "claude-code", read(root, 1, 3))) == ""
    state = Path(project["env"]["MEMHOOKS_STATE_DIR"])  # type: ignore[index]
    blamed_ahead(state)  # line 4 (the edit's context) blamed by the read's background blame
    ledger = state / FILENAME
    for file in state.glob(FILENAME + "*"):  # opened, a fresh state file would tell again
        file.unlink()
    doc = '"""Retrying calls to the payment gateway."""\n'  # line 1: ±3 is lines 1-4
    assert context(hook(project, "claude-code", edit(root, doc))) == ""
    assert not ledger.exists()


def test_an_edit_whose_lines_have_an_owner_not_told_yet_tells_it(
    project: dict[str, object], hashes: dict[str, str]
) -> None:
    root = Path(str(project["root"]))
    hook(project, "claude-code", read(root, 1, 4))  # the first commit's lines: nothing told
    cap = "MAX_ATTEMPTS = 4  # the gateway's measured budget\n"
    told = context(hook(project, "claude-code", edit(root, cap)))
    assert hashes["decision"][:12] in told
    assert context(hook(project, "claude-code", edit(root, cap))) == ""  # once per session


def test_an_edit_over_a_wordless_owners_line_and_a_reshaped_line_settles(tmp_path: Path) -> None:
    # the edit's own lines hold a blank line whose owner owns nothing with a word (never
    # told, left out) and a line a whitespace cleanup reshaped (low-signal, walked back to
    # the decision before it): settled once both were told — looking up the reshaped
    # line's previous owners once skipped into the left-out owner's line (a KeyError)
    from storyrepo import build

    repo = (tmp_path / "repo").resolve()
    body = "def retry(fn):\n    attempts=4\n{gap}    return fn(attempts)\n"
    hashes = build(repo, [
        {"label": "decision", "author_time": 1700000000,
         "message": "Cap retries at four: the gateway's measured budget\n",
         "files": {PATH: body.format(gap="")}},
        {"label": "cleanup", "author_time": 1700100000, "message": "whitespace cleanup\n",
         "files": {PATH: body.format(gap="").replace("attempts=4", "attempts = 4")}},
        {"label": "gap", "author_time": 1700200000, "message": "Add a blank line\n",
         "files": {PATH: body.format(gap="\n").replace("attempts=4", "attempts = 4")}},
    ])  # fmt: skip
    state = str(tmp_path / "state")
    old = "    attempts = 4\n\n    return fn(attempts)\n"  # the cleanup's, the blank line's, ...
    read = line_recall(str(repo), PATH, [(1, 4)], kind=READ, state_dir=state)
    told = line_recall(str(repo), PATH, [(1, 4)], kind=EDIT, focus=[(2, 4)], state_dir=state)
    given = {*read.commits, *told.commits}
    assert hashes["gap"] not in given and {hashes["decision"], hashes["cleanup"]} <= given
    assert decide(repo, state, old, given)
    assert not decide(repo, state, old, given - {hashes["decision"]})  # walked back to it


def test_a_fault_in_the_edit_shortcut_reaches_the_one_fail_open_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # reviewA: all_told caught KeyError, TypeError, IndexError and ValueError as "not
    # told", so a defect there sent every edit the whole way and said nothing; only a
    # file that changes under it (OSError) is "not told" now, anything else is the hook's
    # failure: the host's no-op and one line, within the call
    from memhooks.hook import handler, told
    from memhooks.session import edits

    def broken(*args: object) -> bool:
        raise KeyError("a field the cache entry should hold")

    def snapshot(call: object, sure: Callable[[str, frozenset[str], str | None], bool]) -> bool:
        return sure(str(tmp_path), frozenset({"a" * 40}), None)  # as a settling snapshot asks

    monkeypatch.setattr(edits, "edit_settled", snapshot)
    monkeypatch.setattr(told, "_told", broken)
    edit = {"session_id": "s", "cwd": str(tmp_path), "hook_event_name": "PreToolUse", "tool_name": "Edit",
            "tool_input": {"file_path": str(tmp_path / PATH), "old_string": "a\n", "new_string": "b\n"}}  # fmt: skip
    env = {"HOME": str(tmp_path), "MEMHOOKS_STATE_DIR": str(tmp_path / "state")}
    reply = handler.handle(json.dumps(edit), agent="claude-code", env=env, time_s=30.0)
    assert reply.stdout == "" and "KeyError" in (reply.note or "")

    def vanished(*args: object) -> bool:
        raise FileNotFoundError(str(tmp_path / PATH))

    monkeypatch.setattr(told, "_told", vanished)  # a file that changed under it: not told
    found = changes("Edit", {"file_path": PATH, "old_string": "a\n", "new_string": "b\n"})
    assert not told.all_told(found, str, str(tmp_path), "", set())


def test_the_whole_way_gets_the_file_the_shortcut_read_as_it_would_read_it(
    repo: Path, state: str, hashes: dict[str, str]
) -> None:
    # issue 20 item 7: an edit the shortcut cannot settle goes the whole way, which took
    # the file's place and text again; it is handed on, decoded as the whole way decodes
    # a file (CRLF and undecodable bytes included), and only while the file is unchanged
    from memhooks.hook import told
    from memhooks.hook.lines import _read

    line_recall(str(repo), PATH, [(1, 19)], kind=READ, state_dir=state)
    cap = "MAX_ATTEMPTS = 4  # the gateway's measured budget\n"
    assert not decide(repo, state, cap, {hashes["regression"]})
    full = str(repo / PATH)
    top, rel, text = told.handed(full) or ("", "", "")
    assert (top, rel) == (os.path.realpath(repo), PATH) and text == _read(top, rel)
    assert told.handed(full) is None  # taken once

    # bytes the cache's check reads as they are (its blame is warm for them)
    raw = (repo / PATH).read_bytes()
    crlf = b"a\r\nb\rc\xff\n" + raw
    told._HANDED[full] = (top, rel, key_of(full), crlf, crlf.decode("utf-8", "replace"))
    assert told.handed(full)[2] == "a\nb\nc\ufffd\n" + raw.decode()  # type: ignore[index]
    decoded = raw.decode()  # no newline to translate: the shortcut's own text, not a copy
    told._HANDED[full] = (top, rel, key_of(full), raw, decoded)
    assert told.handed(full)[2] is decoded  # type: ignore[index]
    told._HANDED[full] = (top, rel, key_of(full), raw, decoded)
    (repo / PATH).write_bytes(raw + b"# changed since\n")
    assert told.handed(full) is None  # changed since: the whole way reads it again


def key_of(path: str) -> object:
    from memhooks.filestate import key

    return key(os.stat(path))


def test_an_edit_with_an_owner_not_told_yet_reads_what_that_one_said_alone(
    repo: Path, state: str, hashes: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the usual edit that does not settle: most of its lines' owners were told, one not —
    # what the others said is not read to decide (the whole way reads it again)
    from memhooks.lines.cache import Entry

    line_recall(str(repo), PATH, [(1, 19)], kind=READ, state_dir=state)
    asked: list[str] = []
    said = Entry.said
    monkeypatch.setattr(Entry, "said", lambda self, h: asked.append(h) or said(self, h))
    cap = "MAX_ATTEMPTS = 4  # the gateway's measured budget\n"  # the decision and the first commit
    assert not decide(repo, state, cap, {hashes["add"]})  # the first commit told, not the decision
    assert asked == [hashes["decision"]]
    asked.clear()
    assert decide(repo, state, cap, {hashes["decision"]})  # settled: each owner's word read
    assert len(asked) == 2 and hashes["decision"] in asked
