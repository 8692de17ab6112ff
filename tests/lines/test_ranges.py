"""The lines an edit replaces: Edit's old_string (every occurrence with replace_all) and
a Write over an existing file, each widened by three lines of context."""

from __future__ import annotations

import difflib
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memhooks.lines import changed_lines, edit_lines
from memhooks.lines.porcelain import Parser, unquote
from memhooks.lines.ranges import _count

TEXT = "".join(f"line {n}\n" for n in range(1, 21))


def test_an_edit_replaces_the_lines_of_old_string_with_three_lines_around() -> None:
    assert edit_lines(TEXT, "line 10\nline 11\n") == [(7, 14)]
    assert edit_lines(TEXT, "ne 10\nli") == [(7, 14)]


def test_context_stops_at_the_ends_of_the_file() -> None:
    assert edit_lines(TEXT, "line 1\n") == [(1, 4)]
    assert edit_lines(TEXT, "line 20") == [(17, 20)]


def test_replace_all_takes_every_occurrence_and_merges_what_touches() -> None:
    text = "x = 1\n" + "pass\n" * 10 + "x = 1\n" + "pass\n" * 3 + "x = 1\n"
    assert edit_lines(text, "x = 1") == [(1, 4)]
    assert edit_lines(text, "x = 1", replace_all=True) == [(1, 4), (9, 16)]


def test_an_old_string_that_must_be_unique_and_is_not_replaces_nothing() -> None:
    text = "x = 1\n" + "pass\n" * 10 + "x = 1\n"
    assert edit_lines(text, "x = 1", unique=True) == []
    assert edit_lines(text, "x = 1", unique=True, replace_all=True) == [(1, 4), (9, 12)]
    assert edit_lines(text, "x = 1\npass", unique=True) == [(1, 5)]
    assert edit_lines("aaa\n", "aa", unique=True) == [(1, 1)]  # overlapping: found once


def test_an_edit_that_matches_nothing_replaces_nothing() -> None:
    assert edit_lines(TEXT, "absent") == [] and edit_lines(TEXT, "") == []


def test_a_write_replaces_the_lines_that_change() -> None:
    new = TEXT.replace("line 10\n", "line ten\n").replace("line 15\n", "")
    assert changed_lines(TEXT, new) == [(7, 18)]
    assert changed_lines(TEXT, TEXT.replace("line 3\n", "line three\n"), context=0) == [(3, 3)]


def test_an_insertion_counts_the_lines_it_lands_between() -> None:
    new = TEXT.replace("line 10\n", "line 10\ninserted\n")
    assert changed_lines(TEXT, new, context=0) == [(10, 11)]
    assert changed_lines(TEXT, TEXT) == []


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "b", "c", "}", "", "x = 1"]), max_size=12),
    st.lists(st.sampled_from(["a", "b", "d", "}", "", "y = 2"]), max_size=12),
)
def test_the_lines_an_edit_changes_are_difflibs_whether_or_not_it_runs(
    old: list[str], new: list[str]
) -> None:
    # A pre-tool edit that rewrites a few lines skips difflib's import (~4 ms): the
    # narrowed lines must be what difflib's opcodes over the differing middles say (the
    # lines shared at both ends are never compared), for any two texts.
    old_text, new_text = "\n".join(old), "\n".join(new)
    a, b = old_text.split("\n"), new_text.split("\n")
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    middles = (a[head : len(a) - tail], b[head : len(b) - tail])
    expected = []
    size = len(a) - (1 if old_text.endswith("\n") or not old_text else 0)
    matcher = difflib.SequenceMatcher(None, *middles, autojunk=False)
    for tag, i1, i2, _j1, _j2 in matcher.get_opcodes():
        if tag != "equal":
            i1, i2 = i1 + head, i2 + head
            if tag != "delete" and i1 == size:  # written where the final newline ends
                i1, i2 = size, size
            expected.append((i1 + 1, i2) if i2 > i1 else (i1, i1 + 1))
    widened = []
    for first, last in sorted(expected):
        first, last = max(1, first), min(size, last)
        if first > last:
            continue
        if widened and first <= widened[-1][1] + 1:
            widened[-1] = (widened[-1][0], max(widened[-1][1], last))
        else:
            widened.append((first, last))
    assert changed_lines(old_text, new_text, context=0) == widened


def test_a_few_lines_rewritten_are_narrowed_without_difflib() -> None:
    code = (
        "import sys, difflib\n"
        "del sys.modules['difflib']\n"
        "from memhooks.lines import changed_lines\n"
        "text = ''.join(f'line {n}\\n' for n in range(1, 21))\n"
        "assert changed_lines(text, text.replace('line 10\\n', 'ten\\n'), context=0) == [(10, 10)]\n"
        "print('difflib' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_blame_output_parses_in_groups_with_previous_and_boundary() -> None:
    parser = Parser()
    raw = [
        "a" * 40 + " 3 5 2", "author A", "author-time 1700000000", "summary perf: simplify",
        "previous " + "b" * 40 + ' "old\\tname.py"', "filename new.py",
        "c" * 40 + " 1 1 1", "summary root", "boundary", "filename new.py",
        "a" * 40 + " 9 9 1", "filename new.py",
    ]  # fmt: skip
    groups = [g for g in map(parser.feed, raw) if g is not None]
    assert [(g.commit.hash[0], g.orig, g.final, g.count) for g in groups] == [
        ("a", 3, 5, 2), ("c", 1, 1, 1), ("a", 9, 9, 1)
    ]  # fmt: skip
    assert groups[0].previous == ("b" * 40, "old\tname.py")
    assert (
        groups[0].commit.summary == "perf: simplify" and groups[0].commit.author_time == 1700000000
    )
    assert groups[1].commit.boundary and groups[2].commit is groups[0].commit


def test_git_quoted_paths_are_unquoted() -> None:
    assert unquote('"na\\303\\257ve\\tx.py"') == "naïve\tx.py"
    assert unquote("plain.py") == "plain.py"


def test_a_write_over_a_huge_file_compares_only_what_it_rewrote(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Write over a 200,000-line file answers within a hook's deadline: the lines both
    versions share at the start and end are not compared, and a stretch too large to
    compare line by line counts as replaced whole (a superset, never fewer lines)."""
    compared: list[tuple[int, int]] = []
    real = difflib.SequenceMatcher

    def matcher(
        junk: object, a: list[str], b: list[str], autojunk: bool = True
    ) -> difflib.SequenceMatcher[str]:
        compared.append((len(a), len(b)))
        return real(None, a, b, autojunk=autojunk)

    monkeypatch.setattr(difflib, "SequenceMatcher", matcher)
    old = "".join(f"x = {n}\n" for n in range(200_000))
    one = old.replace("x = 100000\n", "y = 100000\n")
    assert changed_lines(old, one, context=0) == [(100_001, 100_001)]
    assert compared == []  # the one line that differs shares nothing: not compared at all
    two = old.replace("x = 100000\n", "y\nx = 100000\ny\n")  # a line of it kept between
    assert changed_lines(old, two, context=0) == [(100_000, 100_002)]
    assert compared == [(1, 3)]  # only what differs is compared, not 200,001 lines
    rewritten = "head\n" + "".join(f"z = {n}\n" for n in range(199_998)) + "x = 199999\n"
    assert changed_lines(old, rewritten, context=0) == [(1, 199_999)]
    assert compared == [(1, 3)]  # too large to compare: replaced whole


def test_a_text_counted_again_is_counted_from_its_own_lines() -> None:
    # issue 20 item 7: the last text counted is remembered (a pre-tool edit counts the
    # lines of its file five times); another text, even one made from it, is counted anew
    from memhooks.lines.ranges import _count

    text = "a\nb\nc\n" * 1000
    assert _count(text) == 3000 and _count(text) == 3000
    longer = text + "d"
    assert _count(longer) == 3001
    assert _count("x\ny") == 2 and _count("") == 0 and _count(text) == 3000


class _Counting(str):
    """A file text that records how often its newlines are counted."""

    counts = 0

    def count(self, *args: object) -> int:  # type: ignore[override]
        type(self).counts += 1
        return super().count(*args)  # type: ignore[arg-type]


def test_a_file_s_lines_are_counted_once_however_often_an_edit_asks() -> None:
    # issue 20 item 7: a pre-tool edit asks where its old text stands and how long the
    # file is from the shortcut, the whole way and their context, with an old text's own
    # lines counted in between; each count of a 6,000-line file is ~0.1 ms
    text = _Counting("".join(f"line {n}\n" for n in range(1, 201)))
    old = "line 120\nline 121\n"
    for _ in range(3):
        assert edit_lines(text, old) == [(117, 124)]
        assert changed_lines(old, "line 120\nline 121 changed\n") == [(1, 2)]
        assert _count(text) == 200
    assert _Counting.counts == 2  # the whole file, and the lines before line 120


def test_crlf_and_lf_line_ends_find_the_same_lines() -> None:
    # review7: the pre-tool edit reads the file with universal newlines, the post-tool
    # one (hosts without a pre-tool channel) the cache's kept text with its "\r"; a host's
    # old text may carry either end — each way, the same lines
    lf = "".join(f"line {n}\n" for n in range(1, 21))
    crlf = lf.replace("\n", "\r\n")
    old = "line 10\nline 11\n"
    for text in (lf, crlf):
        for asked in (old, old.replace("\n", "\r\n")):
            assert edit_lines(text, asked) == [(7, 14)]
    assert changed_lines(crlf, lf) == []
    assert changed_lines(crlf, lf.replace("line 10\n", "line ten\n")) == [(7, 13)]
