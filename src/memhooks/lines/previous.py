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
Answers are kept with the file version (what a commit replaced never changes).
"""

from __future__ import annotations

from .head import edge_of
from .ownership import Blamed, commit_info
from .ranges import extend, numbers, ranges_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from . import cache
    from .ownership import Owner, Ownership
    from .porcelain import Group


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


#: A previous-owner row kept in the cache: ``[hash, lines counted, path there, previous
#: hash, previous path, [[first, last], ...] (its own line numbers: those the owner's
#: lines came from, and those the owner replaced next to them), [[first, last], ...]
#: (those the owner's lines came from), how many of the owner's lines came from them]``.
_ROW = 8


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
    keys = {r: f"{owner.hash} {owner.path} {r[0]}-{r[1]}" for r in owner.origin_lines}
    missing = [r for r, key in keys.items() if not usable(item.previous(key))]
    if missing:
        found = _blame_before(top, owner, missing, deadline, item, within)
        for r, rows in found.items():
            item.before[keys[r]] = rows
        if found:
            within.keep()
    merged: dict[str, Before] = {}
    for key in keys.values():
        kept = item.previous(key)
        if not usable(kept):
            continue
        assert isinstance(kept, list)
        for hash_, count, path, prev_hash, prev_path, _lines, followed, lines in kept:
            prior = merged.get(str(hash_))
            if prior is None:
                prior = merged[str(hash_)] = Before(str(hash_), *commit_info(item, str(hash_)))
                prior.path = str(path)
                if prev_hash and prev_path:
                    prior.previous = (str(prev_hash), str(prev_path))
            prior.count += int(count)
            prior.matched += int(lines)
            for n in numbers(_pairs(followed)):
                extend(prior.origin_lines, n)
    return sorted(merged.values(), key=lambda o: (-o.matched, -o.count, -o.author_time))


def _pairs(field: object) -> list[tuple[int, int]]:
    """A row's ``[[first, last], ...]`` as ranges."""
    return [(int(a), int(b)) for a, b in field] if isinstance(field, list) else []


def usable(rows: object) -> bool:
    """Whether cached previous owners hold what a step needs (rows kept by an earlier
    version held less, or something else: blamed again)."""
    if not isinstance(rows, list):
        return False
    return all(isinstance(r, list) and len(r) == _ROW and isinstance(r[6], list) for r in rows)


def _blame_before(
    top: str,
    owner: Owner | Before,
    ranges: list[tuple[int, int]],
    deadline: float | None,
    item: cache.Entry,
    within: Ownership,
) -> dict[tuple[int, int], list[list[Any]]]:
    """Previous-owner rows per range of ``ranges`` (``owner``'s own line numbers): one
    diff, each line followed by its text (:func:`.origin.origins`), one blame of the
    version before at the lines followed and those replaced; a range the deadline left
    unsettled is absent; none when git failed (when it could not be started at all,
    said in ``within.unrun``)."""
    from .blame import BlameError, blame, hunks
    from .origin import origins, rewrote

    assert owner.previous is not None
    restored = _restored(item, owner)
    back = restored or owner.previous
    try:
        try:
            diff = hunks(top, back, (owner.hash, owner.path))
        except BlameError:
            if restored is None:
                raise
            back = owner.previous  # the commit it reverts is not in this history
            diff = hunks(top, back, (owner.hash, owner.path))
        came = origins(diff, numbers(ranges))
        # each of the owner's lines: the lines it came from (its hunk's old side when it
        # was written afresh by a hunk that rewrote them); each range: the old side of
        # the hunks next to it
        rewriting = [h for h in diff if h.new and rewrote(h)]
        sources: dict[int, set[int]] = {}
        replaced: dict[tuple[int, int], set[int]] = {}
        for r in ranges:
            replaced[r] = {m for h in diff if h.replaces(*r) for m in h.old_lines}
            for n in numbers([r]):
                source = came.get(n)
                sources[n] = (
                    {m for h in rewriting if h.replaces(n, n) for m in h.old_lines}
                    if source is None
                    else {source}
                )
        wanted = ranges_of(sorted(set().union(*sources.values(), *replaced.values())))
        run = (
            blame(top, back[1], wanted, rev=back[0], deadline=deadline, edge=edge_of(item.head))
            if wanted
            else None
        )
    except BlameError as exc:
        if not exc.ran:
            within.unrun = str(exc)
        return {}
    at = _by_line(item, [] if run is None else run.groups)
    out: dict[tuple[int, int], list[list[Any]]] = {}
    for r in ranges:
        followed = set().union(*(sources[n] for n in numbers([r])))
        lines = followed | replaced[r]
        if any(n not in at for n in lines):
            continue  # not settled before the deadline: the next call may finish it
        rows: dict[str, list[Any]] = {}
        for n in numbers([r]):  # how many of the owner's lines came from each commit
            for group in {at[m][0].commit.hash: at[m][0] for m in sources[n]}.values():
                _row(rows, group)[7] += 1
        for n in sorted(lines):
            group, there = at[n]
            if group.commit.hash in rows:
                _add(rows, group, there, 5)
                if n in followed:
                    _add(rows, group, there, 6)
        out[r] = list(rows.values())
    return out


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


def _by_line(item: cache.Entry, groups: list[Group]) -> dict[int, tuple[Group, int]]:
    """Blame ``groups`` by final line: (group, the line's number in its commit); each
    commit's summary, time and boundary kept in ``item``."""
    at: dict[int, tuple[Group, int]] = {}
    for group in groups:
        commit = group.commit
        item.commits[commit.hash] = [commit.summary, commit.author_time, commit.boundary]
        for offset in range(group.count):
            at[group.final + offset] = (group, group.orig + offset)
    return at


def _row(rows: dict[str, list[Any]], group: Group) -> list[Any]:
    """The row of ``group``'s commit in ``rows``, made (no lines yet) when missing."""
    row = rows.get(group.commit.hash)
    if row is None:
        previous = group.previous or (None, None)
        row = rows[group.commit.hash] = [
            group.commit.hash, 0, group.filename, *previous, [], [], 0
        ]  # fmt: skip
    return row


def _add(rows: dict[str, list[Any]], group: Group, there: int, field: int) -> None:
    """Count line ``there`` of ``group``'s commit in its row of ``rows`` (made when
    missing): among the lines counted (``field`` 5) or the lines followed (6)."""
    row = _row(rows, group)
    if field == 5:
        row[1] += 1
    lines = row[field]
    if lines and lines[-1][1] + 1 == there:
        lines[-1][1] = there
    else:
        lines.append([there, there])
