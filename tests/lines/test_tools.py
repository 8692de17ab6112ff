"""Which lines a tool call reads (data/tool_reads.json: every host's read tools and the
shell commands agents page with) or is about to replace (each host's edit tools)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memhooks.lines.ranges import around
from memhooks.lines.tools import changes, reads

DATA = Path(__file__).parent / "data"
CASES = json.loads((DATA / "tool_reads.json").read_text(encoding="utf-8"))["cases"]
TEXT = "".join(f"line {n}\n" for n in range(1, 31))


@pytest.mark.parametrize("case", CASES, ids=[c["why"] for c in CASES])
def test_reads(case: dict[str, Any]) -> None:
    found = reads(case["tool"], case["args"], case.get("host", ""))
    assert [[path, [list(r) for r in ranges]] for path, ranges in found] == case["reads"]


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("Edit", {"file_path": "/p/a.py", "old_string": "line 12\nline 13\n", "new_string": "x"}),
        ("replace", {"file_path": "/p/a.py", "old_string": "line 12\nline 13", "new_string": ""}),
        ("edit", {"filePath": "/p/a.py", "oldString": "line 12\nline 13\n", "newString": "x"}),
        ("str_replace_editor", {"path": "/p/a.py", "old_str": "line 12\nline 13\n"}),
        ("patch", {"path": "/p/a.py", "old_string": "line 12\nline 13\n", "new_string": "x"}),
        ("MultiEdit", {"file_path": "/p/a.py", "edits": [{"old_string": "line 12\n"}, {"old_string": "line 13\n"}]}),
        ("replace_in_file", {"path": "/p/a.py", "diff": "------- SEARCH\nline 12\nline 13\n=======\nx\n+++++++ REPLACE\n"}),
        ("apply_patch", {"command": "*** Begin Patch\n*** Update File: /p/a.py\n@@\n-line 12\n-line 13\n+x\n*** End Patch\n"}),
    ],
)  # fmt: skip
def test_every_host_s_edit_replaces_lines_12_and_13_with_context(
    tool: str, args: dict[str, Any]
) -> None:
    found = changes(tool, args)
    assert [c.path for c in found] == ["/p/a.py"]
    assert around(found[0].replaced(TEXT), TEXT) == [(9, 16)]
    assert found[0].replaced(TEXT) == [(12, 13)]


OLD = "line 10\nline 11\nline 12\nline 13\nline 14\nline 15\nline 16\n"
NEW = OLD.replace("line 11\n", "eleven\n").replace("line 15\n", "fifteen\nmore\n")


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("Edit", {"file_path": "/p/a.py", "old_string": OLD, "new_string": NEW}),
        ("replace", {"file_path": "/p/a.py", "old_string": OLD, "new_string": NEW}),
        ("edit", {"filePath": "/p/a.py", "oldString": OLD, "newString": NEW}),
        ("str_replace_editor", {"path": "/p/a.py", "old_str": OLD, "new_str": NEW}),
        ("MultiEdit", {"file_path": "/p/a.py", "edits": [{"old_string": OLD, "new_string": NEW}]}),
        ("replace_in_file", {"path": "/p/a.py", "diff": f"------- SEARCH\n{OLD}=======\n{NEW}+++++++ REPLACE\n"}),
        ("apply_patch", {"command": "*** Begin Patch\n*** Update File: /p/a.py\n@@\n line 10\n-line 11\n+eleven\n line 12\n line 13\n line 14\n-line 15\n+fifteen\n+more\n line 16\n*** End Patch\n"}),
    ],
)  # fmt: skip
def test_the_lines_an_edit_copies_unchanged_are_context_not_lines_it_replaces(
    tool: str, args: dict[str, Any]
) -> None:
    # an old_string is often a hunk with its context: what it shares with the new text
    # line for line is not what the edit changes (issue 20: an edit's context lines
    # hid the decision behind the one line it changed)
    (change,) = changes(tool, args)
    assert change.replaced(TEXT) == [(11, 11), (15, 15)]
    assert around(change.replaced(TEXT), TEXT) == [(8, 18)]


def test_an_insertion_replaces_the_lines_it_lands_between() -> None:
    old = "line 12\nline 13\n"
    (change,) = changes("Edit", {"file_path": "/p/a.py", "old_string": old,
                                 "new_string": "line 12\nnew\nline 13\n"})  # fmt: skip
    assert change.replaced(TEXT) == [(12, 13)]


def test_a_write_over_a_file_replaces_the_lines_that_change() -> None:
    new = TEXT.replace("line 20\n", "line twenty\n")
    (change,) = changes("Write", {"file_path": "/p/a.py", "content": new})
    assert around(change.replaced(TEXT), TEXT) == [(17, 23)]
    assert changes("create", {"path": "/p/b.py", "file_text": "x\n"})[0].content == "x\n"


def test_a_patch_that_adds_a_file_replaces_nothing() -> None:
    patch = "*** Begin Patch\n*** Add File: new.py\n+x = 1\n*** End Patch\n"
    assert changes("apply_patch", {"command": patch}) == []


def test_replace_all_takes_every_occurrence() -> None:
    text = "a\n" + "b\n" * 10 + "a\n"
    (change,) = changes("Edit", {"file_path": "f", "old_string": "a\n", "replace_all": True})
    assert around(change.replaced(text), text) == [(1, 4), (9, 12)]


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("Edit", {"file_path": "C:\\p\\a.py", "old_string": "line 12\n", "new_string": "x"}),
        ("MultiEdit", {"file_path": "C:\\p\\a.py", "edits": [{"old_string": "line 12\n"}]}),
        ("replace_in_file", {"path": "C:\\p\\a.py", "diff": "------- SEARCH\nline 12\n=======\nx\n+++++++ REPLACE\n"}),
        ("apply_patch", {"command": "*** Begin Patch\n*** Update File: C:\\p\\a.py\n@@\n-line 12\n+x\n*** End Patch\n"}),
        ("Write", {"file_path": "C:\\p\\a.py", "content": TEXT.replace("line 12\n", "x\n")}),
    ],
)  # fmt: skip
def test_an_edit_s_native_windows_path_is_normalised_as_every_payload_path(
    tool: str, args: dict[str, Any]
) -> None:
    # lines20: a host on Windows sends `C:\p\a.py` (agent-hooks.md: native separators);
    # line-level recall took it as one file name and told nothing at the Read or the Edit
    found = changes(tool, args)
    assert [c.path for c in found] == ["C:/p/a.py"]
    assert found[0].replaced(TEXT) == [(12, 12)]


def test_a_path_that_is_no_path_is_no_read() -> None:
    # the payload rule rejects URLs and control characters (memhooks.agents.paths)
    assert reads("Read", {"file_path": "https://example.com/a.py"}) == []
    assert changes("Edit", {"file_path": "a\x07.py", "old_string": "x\n"}) == []


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("Edit", {"file_path": "f", "old_string": "a\n", "new_string": "x\n"}),
        ("replace", {"file_path": "f", "old_string": "a\n", "new_string": "x\n"}),
        ("edit", {"filePath": "f", "oldString": "a\n", "newString": "x\n"}),
        ("str_replace", {"path": "f", "old_str": "a\n", "new_str": "x\n"}),
        ("patch", {"path": "f", "old_string": "a\n", "new_string": "x\n"}),
        ("MultiEdit", {"file_path": "f", "edits": [{"old_string": "a\n", "new_string": "x\n"}]}),
    ],
)  # fmt: skip
def test_an_old_text_found_twice_replaces_nothing_where_the_tool_refuses_it(
    tool: str, args: dict[str, Any]
) -> None:
    # Claude Code's Edit (and Gemini's replace, OpenCode's edit, the str_replace editors,
    # Hermes' patch) refuses an old text that is not unique: the edit will not happen,
    # and the owners of its first match are noise (last newcomer: an Edit of '        return '
    # in requests' models.py, 33 matches, told the owners of lines 127 and 130)
    text = "a\n" + "b\n" * 10 + "a\n"
    (change,) = changes(tool, args)
    assert around(change.replaced(text), text) == []
    once = "a\n" + "b\n" * 10
    assert around(change.replaced(once), once) == [(1, 4)]  # once: replaced


def test_every_occurrence_is_replaced_when_the_tool_is_told_so() -> None:
    text = "a\n" + "b\n" * 10 + "a\n"
    args = {"file_path": "f", "old_string": "a\n", "new_string": "x\n", "allow_multiple": True}
    assert around(changes("replace", args)[0].replaced(text), text) == [(1, 4), (9, 12)]
    edits = [{"old_string": "a\n", "new_string": "x\n", "replace_all": True}]
    assert around(changes("MultiEdit", {"file_path": "f", "edits": edits})[0].replaced(text), text)  # told


def test_cline_and_apply_patch_replace_the_first_match() -> None:
    text = "a\n" + "b\n" * 10 + "a\n"
    diff = "------- SEARCH\na\n=======\nx\n+++++++ REPLACE\n"
    assert around(changes("replace_in_file", {"path": "f", "diff": diff})[0].replaced(text), text) == [(1, 4)]
    patch = "*** Begin Patch\n*** Update File: f\n@@\n-a\n+x\n*** End Patch\n"
    assert around(changes("apply_patch", {"command": patch})[0].replaced(text), text) == [(1, 4)]
