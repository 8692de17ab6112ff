"""Where lines came from in the version before a change (:func:`memhooks.lines.blame.old_side`),
by the one rule :meth:`memhooks.lines.blame.Hunk.replaces` holds for it and for the
previous owners (:mod:`memhooks.lines.previous`, review7: the loop was written twice): a
hunk answers for the lines it wrote, and a removal for the line before it; lines only
added came from nothing. On a real repository, its working tree against HEAD."""

from __future__ import annotations

import subprocess
from pathlib import Path

from memhooks.lines.blame import hunks, old_side

BEFORE = "".join(f"{c}\n" for c in "abcdefghij")
# b rewritten as two lines, e removed, X added after h
AFTER = "a\nB1\nB2\nc\nd\nf\ng\nh\nX\ni\nj\n"


def _repo(tmp_path: Path) -> str:
    repo = tmp_path / "repo"
    repo.mkdir()
    for args in (("init", "-q", "-b", "main"), ("config", "user.name", "T"),
                 ("config", "user.email", "t@example.com")):  # fmt: skip
        subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)
    (repo / "f.txt").write_text(BEFORE, encoding="utf-8")
    subprocess.run(["git", "add", "f.txt"], cwd=repo, check=True, capture_output=True)
    subprocess.run(["git", "commit", "-qm", "f"], cwd=repo, check=True, capture_output=True)
    (repo / "f.txt").write_text(AFTER, encoding="utf-8")
    return str(repo)


def test_lines_come_from_what_their_hunk_replaced_or_removed_next_to_them(tmp_path: Path) -> None:
    top = _repo(tmp_path)
    side = ("HEAD", "f.txt"), ("", "f.txt")
    diff = hunks(top, *side)
    assert [(h.old_start, h.new_start, h.old, h.new) for h in diff] == [
        (2, 2, ["b"], ["B1", "B2"]), (5, 5, ["e"], []), (8, 9, [], ["X"])]  # fmt: skip
    asked = [(2, 2), (3, 3), (5, 5), (6, 6), (9, 9), (1, 11)]
    assert old_side(top, *side, asked) == {
        (2, 2): [(2, 2)], (3, 3): [(2, 2)],  # b, rewritten as B1 and B2
        (5, 5): [(5, 5)],  # d: e was removed after it
        (6, 6): [],  # f: e was removed before it, and a removal answers for the line before
        (9, 9): [],  # X: only added
        (1, 11): [(2, 2), (5, 5)],
    }  # fmt: skip
