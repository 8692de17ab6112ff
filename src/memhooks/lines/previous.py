"""Which commits owned the lines an owner replaced: a step back in the lines' history
(issue 20 item 3: where an owner only reshaped its lines, the previous owner says why
they are so).

:func:`previous_owners` answers for one :class:`~.ownership.Owner` (or one of its own
answers, a step further back), from one diff of the owner's version to the one before
it and one blame of that version:

* each of the owner's lines is **followed by its text** (:mod:`.origin`): the line the
  owner removed that holds its words, wherever it was — a formatter that sorted,
  merged or split imports moved text across hunks (requests 2a6f290: ``LocationValueError,``
  came from a line four hunks away) — and that line's owner there is the line's
  previous owner, as ``git blame OWNER^`` names it;
* a line written afresh (no removed line holds its words) came from what its hunk
  replaced: the owners of the hunk's old side (a "perf: simplify" that rewrote a
  decision's lines names the decision) — when the hunk rewrote them (a word of its
  new side is one of its old side's, :func:`.origin.rewrote`); one that removed lines
  and wrote unrelated ones in their place gives its new lines no previous owner.

So a line has the same previous owners whether it is asked about alone or in a range;
a range's are its lines' together, most lines followed first, then most lines of the
old side next to them, then newest. A further step starts from the lines followed.
What each line came from and who owned that is kept with the file version, line by
line (what a commit replaced never changes: :class:`Story`), so any range of lines
looked up once — by a read, or by the background blame ahead of the edit
(:mod:`.warm`) — is answered without git.
"""

from __future__ import annotations

from .head import edge_of
from .ownership import Blamed, commit_info
from .ranges import extend, numbers, ranges_of
from .story import Story, story_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from . import cache
    from .ownership import Owner, Ownership


class Before(Blamed):
    """A previous owner (:class:`~memhooks.lines.ownership.Blamed`), with ``count`` (how
    many of its lines the owner's lines came from or replaced next to them) and
    ``matched`` (how many of the owner's lines came from it); its ``origin_lines`` are
    the lines of its that they came from."""

    __slots__ = ("count", "matched")

    def __init__(self, hash: str, summary: str, author_time: int, boundary: bool) -> None:
        super().__init__(hash, summary, author_time, boundary)
        self.count = 0
        self.matched = 0


def previous_owners(
    top: str, owner: Owner | Before, within: Ownership, *, deadline: float | None = None
) -> list[Before]:
    """The commits that owned what ``owner`` (one of ``within.owners``, or one of the
    :class:`Before` this returned: a step further back) made its lines of (module
    docstring): most lines followed first, then most lines counted, then newest; renames
    followed, as blame follows them. Lines it only added have no previous owner. A
    range the deadline leaves unblamed gives nothing (a part would mislead). Raises
    nothing: git's failures give nothing (and nothing is kept: asked again next time);
    git that could not be started is said in ``within.unrun``."""
    if owner.previous is None or owner.boundary or within.entry is None:
        return []
    item = within.entry
    key = story_key(owner.hash, owner.path)
    story = Story.of(item.previous(key))
    rows = {} if story is None else story.rows(owner.origin_lines)
    missing = [r for r in owner.origin_lines if r not in rows]
    if missing:
        grown = _fill(top, owner, missing, deadline, item, within, story)
        if grown is not None:
            item.before[key] = grown.dump()
            within.keep()
            rows = grown.rows(owner.origin_lines)
    merged: dict[str, Before] = {}
    for r in owner.origin_lines:
        for hash_, count, path, prev_hash, prev_path, _lines, followed, lines in rows.get(r, ()):
            prior = merged.get(str(hash_))
            if prior is None:
                prior = merged[str(hash_)] = Before(str(hash_), *commit_info(item, str(hash_)))
                prior.path = str(path)
                if prev_hash and prev_path:
                    prior.previous = (str(prev_hash), str(prev_path))
            prior.count += int(count)
            prior.matched += int(lines)
            for n in numbers(followed):
                extend(prior.origin_lines, n)
    return sorted(merged.values(), key=lambda o: (-o.matched, -o.count, -o.author_time))


def _fill(
    top: str,
    owner: Owner | Before,
    ranges: list[tuple[int, int]],
    deadline: float | None,
    item: cache.Entry,
    within: Ownership,
    story: Story | None,
) -> Story | None:
    """``story`` (made when None) with the lines of ``ranges`` (``owner``'s own line
    numbers) followed — one diff of the version before to the owner's, each line by its
    text (:func:`.origin.origins`) — and the lines they came from and those the hunks next
    to them replaced blamed there (one blame; what the deadline left is asked again
    next time); None when git failed (when it could not be started at all, said in
    ``within.unrun``)."""
    from .blame import BlameError, blame, hunks
    from .origin import origins, rewrote

    assert owner.previous is not None
    try:
        asked = [n for n in numbers(ranges) if story is None or n not in story.came]
        if asked:
            restored = _restored(item, owner) if story is None else None
            back = story.back if story is not None else restored or owner.previous
            try:
                diff = hunks(top, back, (owner.hash, owner.path))
            except BlameError:
                if restored is None:
                    raise
                back = owner.previous  # the commit it reverts is not in this history
                diff = hunks(top, back, (owner.hash, owner.path))
            if story is None:
                spans = [
                    [h.new_start, h.new_start + max(len(h.new), 1) - 1, h.old_start,
                     len(h.old), int(bool(h.new) and rewrote(h))]
                    for h in diff if h.old
                ]  # fmt: skip
                story = Story(back, spans)
            for n, m in origins(diff, asked).items():
                story.came[n] = m or 0
        assert story is not None
        wanted: set[int] = set()
        for r in ranges:
            wanted |= story.replaced(r)
            for n in numbers([r]):
                wanted |= story.sources(n) or set()
        wanted -= story.at.keys()
        if wanted:
            rev, path = story.back
            run = blame(top, path, ranges_of(sorted(wanted)), rev=rev, deadline=deadline,
                        edge=edge_of(item.head))  # fmt: skip
            for group in run.groups:
                commit = group.commit
                item.commits[commit.hash] = [commit.summary, commit.author_time, commit.boundary]
                previous = group.previous or (None, None)
                for offset in range(group.count):
                    story.at[group.final + offset] = (
                        commit.hash, group.filename, group.orig + offset, *previous
                    )  # fmt: skip
    except BlameError as exc:
        if not exc.ran:
            within.unrun = str(exc)
        return None
    return story


def _restored(item: cache.Entry, owner: Owner | Before) -> tuple[str, str] | None:
    """Where a revert's lines came back from: ``(<the reverted commit>^, path)`` when
    ``owner`` reverts a commit (:data:`memhooks.lines.said.REVERTS`), else None. A revert
    puts back the version before the commit it reverts; the version before the revert
    holds that commit's lines, whose owner is the change undone, not why the lines are so
    (iproute2 2cd0578 "Revert 'ip address: Change print_linkinfo_brief…'": 5d295bb, which
    wrote ``ip/ipaddress.c:880``, is its line's previous owner, not 63891c7)."""
    from .said import REVERTS

    said = item.said(owner.hash)
    if said is None or said.low_signal != REVERTS or owner.previous is None:
        return None
    from ..history.message import reverted

    hashes = reverted(said.subject, said.message)
    return (f"{hashes[0]}^", owner.previous[1]) if hashes else None


