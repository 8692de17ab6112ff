"""The project's .git-blame-ignore-revs, read once for history import and ``why``."""

from __future__ import annotations

import os

from memhooks.history import blame_ignore

FULL = "0123456789abcdef0123456789abcdef01234567"


def test_full_and_abbreviated_names_count_comments_and_other_lines_do_not(tmp_path) -> None:
    (tmp_path / ".git-blame-ignore-revs").write_text(
        f"# formatting\n{FULL.upper()}  # black\nabc1234\nnot-a-hash\n12345\n", encoding="utf-8"
    )
    names = blame_ignore.revs(str(tmp_path))
    assert names == {FULL, "abc1234"}
    assert blame_ignore.listed(FULL, names)
    assert blame_ignore.listed("abc1234" + "0" * 33, names)
    assert not blame_ignore.listed("f" * 40, names)


def test_a_link_out_of_the_work_tree_is_not_followed(tmp_path) -> None:
    outside = tmp_path / "outside"
    outside.write_text(FULL + "\n", encoding="utf-8")
    top = tmp_path / "repo"
    top.mkdir()
    os.symlink(outside, top / ".git-blame-ignore-revs")
    assert blame_ignore.revs(str(top)) == frozenset()


def test_no_file_lists_nothing(tmp_path) -> None:
    assert blame_ignore.revs(str(tmp_path)) == frozenset()
