"""Which commits owned the lines an owner replaced: a step back in the lines' history
(issue 20 item 3: where an owner only reshaped its lines, the previous owner says why
they are so).

:func:`previous_owners` answers for one :class:`~.ownership.Owner` (or one of its own
answers, a step further back). Two views of that step, both from git:

* the **old side** of the owner's diff to the version before it, blamed there: every
  commit whose lines the owner replaced or removed next to its lines (a decision that
  the owner deleted is in it) — by hunk, so a reformatted block brings the owners of
  all its lines;
* **line by line**, ``git blame --ignore-rev OWNER``: git's own matching of each of the
  owner's lines to the line it was made from (added lines match none). It says which
  of those commits each line comes from, so a walk further back follows the lines
  asked about, not the lines of the same hunk around them (requests' ``auth.py``: a
  formatting commit over a rename over the fix; the lines around the fix came from
  another commit, and by hunk they outnumbered it).

Previous owners come most lines matched first, then most lines of the old side (where
the old side of a range is one commit's, its lines are all matched: they came from
nothing else); a further step starts from the lines matched when git matched any.
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
    many of the replaced lines it owned) and ``matched`` (how many of the owner's lines
    git matched to lines of it); its ``origin_lines`` are those matched when git matched
    any, else those the owner replaced."""

    __slots__ = ("count", "matched")

    def __init__(self, hash: str, summary: str, author_time: int, boundary: bool) -> None:
        super().__init__(hash, summary, author_time, boundary)
        self.count = 0
        self.matched = 0


#: A previous-owner row kept in the cache: ``[hash, lines owned, path there, previous
#: hash, previous path, [[first, last], ...] (its own line numbers), [[first, last],
#: ...] (those git matched line by line; ``true``: not matched yet; ``false``: git could
#: not match them, followed by hunk)]``.
_ROW = 7


def previous_owners(
    top: str,
    owner: Owner | Before,
    within: Ownership,
    *,
    deadline: float | None = None,
    line_by_line: bool = True,
) -> list[Before]:
    """The commits that owned what ``owner`` (one of ``within.owners``, or one of the
    :class:`Before` this returned: a step further back) replaced in its lines (module
    docstring): most lines matched first, then most lines replaced, then newest;
    renames followed, as blame follows them. Lines it only added have no previous
    owner. A range the deadline leaves unblamed gives nothing (a part would mislead).
    ``line_by_line``: match lines one by one too (one more blame where the old side
    names more than one commit; rows kept without it are matched when asked again).
    Raises nothing: git's failures give nothing."""
    if owner.previous is None or owner.boundary or within.entry is None:
        return []
    item = within.entry
    keys = {r: f"{owner.hash} {owner.path} {r[0]}-{r[1]}" for r in owner.origin_lines}
    missing = [r for r, key in keys.items() if not usable(item.before.get(key), line_by_line)]
    if missing:
        found = _blame_before(top, owner, missing, deadline, item, line_by_line)
        for r, rows in found.items():
            item.before[keys[r]] = rows
        if found:
            within.keep()
    merged: dict[str, Before] = {}
    follow: dict[str, list[tuple[int, int]]] = {}
    for key in keys.values():
        if not usable(item.before.get(key)):
            continue
        rows = item.before[key]
        # an old side of one commit needs no matching: every line of the range that came
        # from anywhere came from it (each line's chain, not only the matched ranges')
        lone = len(rows) == 1
        # several commits, not matched yet (True) or that git could not match (False)
        by_hunk = bool(rows) and isinstance(rows[0][6], bool)
        for hash_, count, path, prev_hash, prev_path, lines, matched in rows:
            prior = merged.get(str(hash_))
            if prior is None:
                prior = merged[str(hash_)] = Before(str(hash_), *commit_info(item, str(hash_)))
                prior.path = str(path)
                if prev_hash and prev_path:
                    prior.previous = (str(prev_hash), str(prev_path))
            prior.count += int(count)
            for n in numbers(_pairs(lines)):
                extend(prior.origin_lines, n)
            for n in numbers(_pairs(lines if lone or by_hunk else matched)):
                prior.matched += 0 if by_hunk else 1
                extend(follow.setdefault(prior.hash, []), n)
    for hash_, lines in follow.items():
        merged[hash_].origin_lines = lines
    return sorted(merged.values(), key=lambda o: (-o.matched, -o.count, -o.author_time))


def _pairs(field: object) -> list[tuple[int, int]]:
    """A row's ``[[first, last], ...]`` as ranges (``true``/``false``: none)."""
    return [(int(a), int(b)) for a, b in field] if isinstance(field, list) else []


def usable(rows: object, line_by_line: bool = False) -> bool:
    """Whether cached previous owners hold what a step needs: rows kept by an earlier
    version held less, and rows kept without their lines matched (a commit, not
    ``True``, in their matched field) when matching is asked for — blamed again."""
    if not isinstance(rows, list):
        return False
    if not all(isinstance(r, list) and len(r) == _ROW for r in rows):
        return False
    return not line_by_line or all(r[6] is not True for r in rows)


def _blame_before(
    top: str,
    owner: Owner | Before,
    ranges: list[tuple[int, int]],
    deadline: float | None,
    item: cache.Entry,
    line_by_line: bool,
) -> dict[tuple[int, int], list[list[Any]]]:
    """Previous-owner rows per range of ``ranges`` (``owner``'s own line numbers): one
    diff and one blame of the old side for all of them, and (``line_by_line``) where that
    names more than one commit, one blame ignoring the owner (the lines matched); a range
    the deadline left unsettled is absent."""
    from .blame import BlameError, blame, old_side

    assert owner.previous is not None
    try:
        olds = old_side(top, owner.previous, (owner.hash, owner.path), ranges)
        wanted = ranges_of(numbers([r for old in olds.values() for r in old]))
        back = owner.previous
        edge = edge_of(item.head)
        run = (
            blame(top, back[1], wanted, rev=back[0], deadline=deadline, edge=edge)
            if wanted
            else None
        )
    except BlameError:
        return {}
    at = _by_line(item, [] if run is None else run.groups)
    out: dict[tuple[int, int], list[list[Any]]] = {}
    for r, old in olds.items():
        lines = numbers(old)
        if any(n not in at for n in lines):
            continue  # not settled before the deadline: the next call may finish it
        rows: dict[str, list[Any]] = {}
        for n in lines:
            group, there = at[n]
            _add(rows, group, there, 5)
        out[r] = list(rows.values())
    several = {r: found for r, found in out.items() if len(found) > 1}
    for found in several.values():
        for row in found:
            row[6] = True  # not matched yet (a lone commit needs no matching)
    if several and line_by_line:
        _match(top, owner, several, deadline, item)
    return out


def _match(
    top: str,
    owner: Owner | Before,
    out: dict[tuple[int, int], list[list[Any]]],
    deadline: float | None,
    item: cache.Entry,
) -> None:
    """Add to the rows of ``out`` the lines git matches one by one (``blame
    --ignore-rev``): each of the owner's lines to the line it was made from. Left
    unmatched when the deadline cuts it short or git fails to start or is killed (asked
    again next time); when git cannot match them, matched to nothing — kept, so the edits that follow do not ask again,
    and followed by hunk (:func:`previous_owners`)."""
    from .blame import BlameError, blame

    try:
        run = blame(top, owner.path, list(out), rev=owner.hash, ignore=owner.hash,
                    deadline=deadline, edge=edge_of(item.head))  # fmt: skip
    except BlameError as exc:
        if not exc.refused:
            return  # git could not start or was killed: asked again next time
        # git cannot match them: by hunk, remembered with the file version
        for rows in out.values():
            for row in rows:
                row[6] = False
        return
    if not run.complete:
        return  # cut short by the deadline: the next call may finish it
    at = _by_line(item, run.groups)
    for r, rows in out.items():
        for row in rows:
            row[6] = []
        by_hash = {row[0]: row for row in rows}
        for n in numbers([r]):
            found = at.get(n)
            if found is None or found[0].commit.hash == owner.hash:
                continue  # a line the owner added: it matches none
            group, there = found
            if group.commit.hash not in by_hash:  # a line the old side did not hold
                rows.append(_row(by_hash, group))
            _add(by_hash, group, there, 6)


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
        row = rows[group.commit.hash] = [group.commit.hash, 0, group.filename, *previous, [], []]
    return row


def _add(rows: dict[str, list[Any]], group: Group, there: int, field: int) -> None:
    """Count line ``there`` of ``group``'s commit in its row of ``rows`` (made when
    missing): among the replaced lines (``field`` 5, counted) or the matched ones (6)."""
    row = _row(rows, group)
    if field == 5:
        row[1] += 1
    lines = row[field]
    if lines and lines[-1][1] + 1 == there:
        lines[-1][1] = there
    else:
        lines.append([there, there])
