"""The lines around an edit (±3: issue 20 item 3) have one home,
:func:`memhooks.lines.ranges.around`, and its three askers agree on them (review7, issue
21): :meth:`memhooks.lines.tools.Change.replaced` widened by it, the pre-tool shortcut
(:func:`memhooks.hook.told.all_told`: the lines whose owners it looks up in the blame
cache) and the whole way (:func:`memhooks.hook.lines.for_edit`: the lines it asks the
owners of) — on a CRLF file, a file without a final newline, an edit at line 1 and at
the last line, in a real git work tree. Where the new text keeps some of the old one's
lines, the shortcut asks about more lines, never fewer (it does not narrow)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from memhooks.agents import NormalizedEvent
from memhooks.hook import lines as hook_lines
from memhooks.hook import owners as hook_owners
from memhooks.hook.call import HookCall
from memhooks.hook.told import all_told
from memhooks.lines import cache
from memhooks.lines.ownership import owners
from memhooks.lines.ranges import around, numbers
from memhooks.lines.tools import changes

PATH = "src/file.txt"
LF = "".join(f"line {n}\n" for n in range(1, 21))
CRLF = LF.replace("\n", "\r\n")

#: (the file, the tool and its input but the path, the lines ±3 every asker agrees on)
CASES = [
    pytest.param(LF, "Edit", {"old_string": "line 1\n", "new_string": "one\n"}, [(1, 4)],
                 id="edit at line 1"),
    pytest.param(LF, "Edit", {"old_string": "line 20\n", "new_string": "twenty\n"}, [(17, 20)],
                 id="edit at the last line"),
    pytest.param(LF[:-1], "Edit", {"old_string": "line 20", "new_string": "twenty"}, [(17, 20)],
                 id="no final newline, edit at the last line"),
    pytest.param(LF[:-1], "Write", {"content": LF[:-1].replace("line 20", "twenty")}, [(17, 20)],
                 id="no final newline, write over the last line"),
    pytest.param(LF, "Write", {"content": LF + "line 21\n"}, [(17, 20)],
                 id="write adding a last line"),
    # a Write adding a last line without a final newline: the empty string after the old
    # final newline was taken for a line 21 it replaced, past the file — the whole way
    # asked about no line and told nothing (Change.ranges: 18-20)
    pytest.param(LF, "Write", {"content": LF + "line 21"}, [(17, 20)],
                 id="write adding a last line without a final newline"),
    pytest.param(CRLF, "Edit", {"old_string": "line 10\nline 11\n", "new_string": "ten\n"},
                 [(7, 14)], id="CRLF file, the host's old text with LF"),
    pytest.param(CRLF, "Edit", {"old_string": "line 1\r\nline 2\r\n", "new_string": "x\r\n"},
                 [(1, 5)], id="CRLF file, the old text with CRLF, at line 1"),
    pytest.param(CRLF, "Edit", {"old_string": "line 20\r\n", "new_string": "twenty\r\n"},
                 [(17, 20)], id="CRLF file, edit at the last line"),
]  # fmt: skip


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = (tmp_path / "repo").resolve()
    (repo / "src").mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main")
    for key, value in (("user.name", "T"), ("user.email", "t@example.com"),
                       ("core.autocrlf", "false")):  # fmt: skip
        _git(repo, "config", key, value)
    (repo / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    return repo


def _asked(repo: Path, text: str, tool: str, args: dict[str, object],
           monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple[int, int]], list[int], list[tuple[int, int]]]:  # fmt: skip
    """What each asker asks about an edit ``tool`` with ``args`` of ``PATH`` holding
    ``text``: the lines it replaces ±3, the lines the shortcut reads from the warm blame cache, the
    lines the whole way hands on to tell."""
    (repo / PATH).write_bytes(text.encode("utf-8"))
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "add the file")
    tool_input = {"file_path": str(repo / PATH), **args}
    event = NormalizedEvent("claude-code", "pre_tool", native_event="PreToolUse", cwd=str(repo),
                            session_id="s1", tool_name=tool, tool_input=tool_input)  # fmt: skip
    call = HookCall(event, dict(os.environ))
    (change,) = changes(tool, tool_input)
    raw = (repo / PATH).read_bytes().decode("utf-8")  # as the shortcut reads it: CR kept
    lf = raw.replace("\r\n", "\n")  # as the whole way reads it: universal newlines
    assert around(change.replaced(raw), raw) == around(change.replaced(lf), lf)
    # the shortcut, on a warm cache: the lines whose owners it looks up
    owners(str(repo), PATH, [(1, 20)], state_dir=call.state_dir)
    read: list[int] = []
    known = cache.Entry.known

    def spy_known(entry: cache.Entry, number: int) -> int | None:
        read.append(number)
        return known(entry, number)

    monkeypatch.setattr(cache.Entry, "known", spy_known)
    all_told([change], call.absolute, str(repo), call.state_dir, set())
    monkeypatch.setattr(cache.Entry, "known", known)
    # the whole way: the lines it asks the owners of
    told: list[list[tuple[int, int]]] = []

    def spy_tell(*args: object, **kwargs: object) -> None:
        told.append(args[4])  # type: ignore[arg-type]

    monkeypatch.setattr(hook_owners, "tell", spy_tell)
    hook_lines.for_edit(call, applied=False)
    assert len(told) == 1
    return around(change.replaced(raw), raw), read, told[0]


@pytest.mark.parametrize(("text", "tool", "args", "lines"), CASES)
def test_the_lines_around_an_edit_are_the_same_whoever_asks(
    repo: Path, text: str, tool: str, args: dict[str, object], lines: list[tuple[int, int]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    ranges, shortcut, whole = _asked(repo, text, tool, args, monkeypatch)
    assert ranges == lines
    assert sorted(shortcut) == numbers(lines)
    assert whole == lines


def test_the_shortcut_asks_about_more_lines_where_the_new_text_keeps_old_ones(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = {"old_string": "line 9\nline 10\nline 11\n", "new_string": "line 9\nten\nline 11\n"}
    ranges, shortcut, whole = _asked(repo, LF, "Edit", args, monkeypatch)
    assert ranges == whole == [(7, 13)]  # line 10 changes, ±3
    assert sorted(shortcut) == numbers([(6, 14)])  # where the old text stands, ±3
