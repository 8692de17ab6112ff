"""What one owner's step back says, line by line, kept with the file version
(:class:`Story`): the rows of :func:`memhooks.lines.previous.previous_owners` for any
range of its lines, made without git once those lines were looked up — by a read, an
edit, ``memhooks why`` or the background blame ahead of the edit (:mod:`.warm`) — and
read by the pre-tool shortcut (:mod:`memhooks.hook.told`) without loading the rest.
"""

from __future__ import annotations

from .ranges import numbers

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from . import cache

#: A previous-owner row: ``[hash, lines counted, path there, previous hash, previous path,
#: [[first, last], ...] (its own line numbers: those the owner's lines came from, and
#: those the owner replaced next to them), [[first, last], ...] (those the owner's lines
#: came from), how many of the owner's lines came from them]``.
Row = list


def story_key(hash_: str, path: str) -> str:
    """The key of the :class:`Story` of commit ``hash_``'s lines of ``path`` in a cache
    entry's previous owners (:attr:`memhooks.lines.cache.Entry.before`)."""
    return f"{hash_} {path}"


def kept(
    entry: cache.Entry, hash_: str, path: str, ranges: list[tuple[int, int]]
) -> list[list[Row]] | None:
    """The previous-owner rows of each of ``ranges`` (lines of commit ``hash_``'s version
    of ``path``), as :func:`memhooks.lines.previous.previous_owners` finds them, from
    what ``entry`` keeps alone; None when any range is not known yet (no git: the
    pre-tool shortcut, :mod:`memhooks.hook.told`)."""
    story = Story.of(entry.previous(story_key(hash_, path)))
    if story is None:
        return None
    rows = story.rows(ranges)
    return [rows[r] for r in ranges] if len(rows) == len(ranges) else None


class Story:
    """What one owner's step back says, kept with the file version under
    :func:`story_key` and filled in as its lines are asked
    (:func:`memhooks.lines.previous.previous_owners`), so a line
    has the same previous owners whatever range it is asked in and an edit finds the
    lines a read (or the background blame, :mod:`.warm`) looked up ready:

    * ``back``: ``(commit, path)`` of the version before it (a revert's: the version it
      put back);
    * ``hunks``: ``[first, last, old first, old count, rewrote]`` of each hunk of its
      diff that removed lines — ``first``..``last`` the lines of its side it stands at
      (:meth:`memhooks.lines.blame.Hunk.replaces`), ``rewrote`` 1 when it rewrote them
      (:func:`.origin.rewrote`) and wrote lines;
    * ``came``: line -> the line of the version before it came from (0: written afresh:
      :func:`.origin.origins`), for the lines asked so far;
    * ``at``: line of the version before -> ``(hash, path, line there, previous hash,
      previous path)`` of its owner, for the lines blamed so far.

    Kept as ``[back, hunks, came, at]``, ``came`` as runs ``[n, m, k]`` (lines
    ``n``..``n+k-1`` from ``m``..) and ``at`` as runs ``[m, k, hash, path, line, previous
    hash, previous path]``: :meth:`dump`."""

    __slots__ = ("at", "back", "came", "hunks")

    def __init__(self, back: tuple[str, str], hunks: list[list[int]]) -> None:
        self.back = back
        self.hunks = hunks
        self.came: dict[int, int] = {}
        self.at: dict[int, tuple[str, str, int, str | None, str | None]] = {}

    @classmethod
    def of(cls, kept: object) -> Story | None:
        """The story kept as ``kept`` (:meth:`dump`), or None: nothing, or not a story
        (kept by an earlier version: looked up again)."""
        try:
            back, hunks, came, at = kept  # type: ignore[misc]
            story = cls((str(back[0]), str(back[1])), [[int(v) for v in h] for h in hunks])
            if any(len(h) != 5 for h in story.hunks):
                return None
            for n, m, k in came:
                for i in range(int(k)):
                    story.came[int(n) + i] = int(m) + i if m else 0
            for m, k, hash_, path, line, prev_hash, prev_path in at:
                for i in range(int(k)):
                    story.at[int(m) + i] = (str(hash_), str(path), int(line) + i, prev_hash, prev_path)
        except (TypeError, ValueError, IndexError):
            return None
        return story

    def dump(self) -> list[Any]:
        """The story as kept (class docstring): runs of lines that follow on."""
        came: list[list[int]] = []
        step: tuple[int, int] | None = None  # (the next line, what it comes from if it joins)
        for n in sorted(self.came):
            m = self.came[n]
            if step == (n, m):
                came[-1][2] += 1
            else:
                came.append([n, m, 1])
            step = (n + 1, m + 1 if m else 0)
        at: list[list[Any]] = []
        follows: tuple[object, ...] | None = None
        for m in sorted(self.at):
            hash_, path, line, prev_hash, prev_path = self.at[m]
            if follows == (m, hash_, path, line, prev_hash, prev_path):
                at[-1][1] += 1
            else:
                at.append([m, 1, hash_, path, line, prev_hash, prev_path])
            follows = (m + 1, hash_, path, line + 1, prev_hash, prev_path)
        return [list(self.back), self.hunks, came, at]

    def sources(self, n: int) -> set[int] | None:
        """The lines of the version before line ``n`` came from (written afresh: the old
        side of the hunks that rewrote it), or None when not asked yet."""
        m = self.came.get(n)
        if m is None:
            return None
        if m:
            return {m}
        return {o for first, last, start, count, rewrote in self.hunks
                if rewrote and first <= n <= last for o in range(start, start + count)}  # fmt: skip

    def replaced(self, r: tuple[int, int]) -> set[int]:
        """The lines of the version before that the hunks next to range ``r`` removed."""
        return {o for first, last, start, count, _ in self.hunks
                if first <= r[1] and last >= r[0] for o in range(start, start + count)}  # fmt: skip

    def rows(self, ranges: list[tuple[int, int]]) -> dict[tuple[int, int], list[Row]]:
        """The previous-owner rows of each of ``ranges`` the story knows whole: each
        line's source and every line followed or replaced blamed."""
        out: dict[tuple[int, int], list[Row]] = {}
        for r in ranges:
            sources: dict[int, set[int]] = {}
            for n in numbers([r]):
                found = self.sources(n)
                if found is None:
                    break
                sources[n] = found
            else:
                followed = set().union(*sources.values())
                lines = followed | self.replaced(r)
                if all(m in self.at for m in lines):
                    out[r] = self._rows(sources, followed, lines)
        return out

    def _rows(self, sources: dict[int, set[int]], followed: set[int], lines: set[int]) -> list[Row]:
        at = self.at
        rows: dict[str, Row] = {}
        for n in sorted(sources):  # how many of the owner's lines came from each commit
            for owner in {at[m][0]: at[m] for m in sources[n]}.values():
                _row(rows, owner)[7] += 1
        for m in sorted(lines):
            owner = at[m]
            if owner[0] in rows:
                _add(rows, owner, 5)
                if m in followed:
                    _add(rows, owner, 6)
        return list(rows.values())


def _row(rows: dict[str, Row], owner: tuple[str, str, int, str | None, str | None]) -> Row:
    """The row of ``owner``'s commit (a :attr:`Story.at` value) in ``rows``, made (no
    lines yet) when missing."""
    row = rows.get(owner[0])
    if row is None:
        row = rows[owner[0]] = [owner[0], 0, owner[1], owner[3], owner[4], [], [], 0]
    return row


def _add(
    rows: dict[str, Row], owner: tuple[str, str, int, str | None, str | None], field: int
) -> None:
    """Count ``owner``'s line (a :attr:`Story.at` value) in its commit's row of ``rows``:
    among the lines counted (``field`` 5) or the lines followed (6)."""
    row = _row(rows, owner)
    if field == 5:
        row[1] += 1
    there = owner[2]
    lines = row[field]
    if lines and lines[-1][1] + 1 == there:
        lines[-1][1] = there
    else:
        lines.append([there, there])
