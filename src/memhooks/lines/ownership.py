"""Which commits own given lines of a file in the working tree.

:func:`owners` answers from the cache (:mod:`.cache`) and blames only lines it does not
know yet, within a deadline; :func:`previous_owners` says, for one owner, which commits
owned the lines it replaced. Uncommitted lines own nothing; lines older than a history
window (``since``) are owned by a boundary commit, reported as such.
"""

from __future__ import annotations

import os
import time

from . import cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

    from .porcelain import Group

    Ranges = Sequence[tuple[int, int]]


class Owner:
    """One commit owning some of the lines asked about: ``hash``, ``summary`` (its
    message's first line, as the commit said it: untrusted text), ``author_time``
    (seconds), ``boundary`` (older than the history window: the true owner is older),
    ``path`` (the file's path in that commit), ``previous`` (``(hash, path)`` before
    it, or None), ``lines`` (1-based inclusive ranges of the working file it owns,
    ascending), ``origin_lines`` (the same lines' numbers in that commit's version)."""

    __slots__ = (
        "author_time", "boundary", "hash", "lines", "origin_lines", "path", "previous", "summary",
    )  # fmt: skip

    def __init__(self, hash: str, summary: str, author_time: int, boundary: bool) -> None:
        self.hash = hash
        self.summary = summary
        self.author_time = author_time
        self.boundary = boundary
        self.path = ""
        self.previous: tuple[str, str] | None = None
        self.lines: list[tuple[int, int]] = []
        self.origin_lines: list[tuple[int, int]] = []

    @property
    def count(self) -> int:
        """How many of the lines asked about it owns."""
        return sum(last - first + 1 for first, last in self.lines)


class Ownership:
    """The answer for ``path`` (relative to the work tree): ``owners`` (most lines
    first, then newest), ``lines`` (how many lines were asked about, within the file),
    ``size`` (the file's lines; None when it is not a text file git could blame),
    ``uncommitted`` and ``unknown`` (lines the deadline left unblamed) counts,
    ``uncommitted_lines`` (the uncommitted lines' ranges), and ``cached`` (no git
    process was needed). ``notes``: what a caller keeps with this file version (saved by :meth:`keep`; gone when the version changes)."""

    __slots__ = (
        "_entry", "_file", "cached", "lines", "owners", "path", "size", "uncommitted",
        "uncommitted_lines", "unknown",
    )  # fmt: skip

    def __init__(self, path: str) -> None:
        self.path = path
        self.owners: list[Owner] = []
        self.lines = 0
        self.size: int | None = None
        self.uncommitted = 0
        self.uncommitted_lines: list[tuple[int, int]] = []
        self.unknown = 0
        self.cached = True
        self._file = ""
        self._entry: cache.Entry | None = None

    @property
    def notes(self) -> dict[str, object]:
        return {} if self._entry is None else self._entry.notes

    def keep(self) -> None:
        """Save :attr:`notes` (and what else was learnt of this file version)."""
        if self._entry is not None:
            cache.save(self._file, self._entry)

    @property
    def complete(self) -> bool:
        """Every line asked about was blamed."""
        return self.unknown == 0


def owners(
    top: str,
    path: str,
    ranges: Ranges = (),
    *,
    state_dir: str,
    deadline: float | None = None,
    since: str | None = None,
) -> Ownership:
    """The owners of lines ``ranges`` (1-based, inclusive; the whole file when empty) of
    ``path`` (relative to the work tree ``top``, ``/`` separators) as the working tree
    has it. Known lines come from the cache in ``state_dir``; the others are blamed
    until ``deadline`` (:func:`time.monotonic`), and what was settled is saved. A path
    that is not a file, or that git does not track, owns nothing. Raises
    :class:`~memhooks.lines.blame.BlameError` only when git cannot run at all."""
    answer = Ownership(path)
    entry = _entry(top, path, state_dir, since)
    if entry is None:
        return answer
    file, item, dirty = entry
    answer._file, answer._entry = file, item
    answer.size = len(item.lines)
    wanted = _clip(ranges, len(item.lines))
    missing = _ranges(n for n in _numbers(wanted) if item.lines[n - 1] is None)
    if missing:
        from .blame import BlameError, blame  # git's runner: only when lines are missing

        answer.cached = False
        whole = len(missing) == 1 and missing[0] == (1, len(item.lines))
        try:
            run = blame(top, path, () if whole else missing, since=since, deadline=deadline)
        except BlameError as exc:
            if not exc.ran:
                raise
            run = None  # a file git does not track: nothing owns its lines
            for n in _numbers(missing):
                item.lines[n - 1] = cache.UNCOMMITTED
        if run is not None:
            _fill(item, run.groups)
            cache.settle(item)
        dirty = True
    if dirty:
        cache.save(file, item)
    return _answer(answer, item, wanted)


def saved_text(top: str, path: str, *, state_dir: str) -> str | None:
    """The text of ``path`` as its cache entry holds it — the version before an edit the
    agent has just made — when it was saved under the HEAD of now; else None. For hosts
    that report an edit only after it is applied (the lines it replaced are gone)."""
    found = _saved(top, path, state_dir)
    return None if found is None else "".join(f"{line}\n" for line in found[1].text)


def owners_saved(top: str, path: str, ranges: Ranges, *, state_dir: str) -> Ownership:
    """The owners of lines ``ranges`` of the saved version (:func:`saved_text`): no git,
    the edit not followed; lines it had not blamed are unknown."""
    answer = Ownership(path)
    found = _saved(top, path, state_dir)
    if found is None:
        return answer
    answer._file, answer._entry = found
    answer.size = len(found[1].lines)
    return _answer(answer, found[1], _clip(ranges, len(found[1].lines)))


def _saved(top: str, path: str, state_dir: str) -> tuple[str, cache.Entry] | None:
    from .head import head_commit

    file = cache.path_of(state_dir, top, path)
    item = cache.load(file)
    if item is None or item.head != (head_commit(top) or ""):
        return None
    return file, item


def previous_owners(
    top: str, owner: Owner | Before, within: Ownership, *, deadline: float | None = None
) -> list[Before]:
    """The commits that owned what ``owner`` (one of ``within.owners``, or one of the
    :class:`Before` this returned: a step further back) replaced in its lines: the old
    side of its diff to the version before it, blamed there (most lines first; renames
    followed, as blame follows them). Lines it only added have no previous owner. The
    answer is kept with the file version (what a commit replaced never changes). A range
    the deadline leaves unblamed gives nothing (a part would mislead)."""
    if owner.previous is None or owner.boundary or within._entry is None:
        return []
    item = within._entry
    keys = {r: f"{owner.hash} {owner.path} {r[0]}-{r[1]}" for r in owner.origin_lines}
    missing = [r for r, key in keys.items() if not _usable(item.before.get(key))]
    if missing:
        found = _blame_before(top, owner, missing, deadline, item)
        for r, rows in found.items():
            item.before[keys[r]] = rows
        if found:
            within.keep()
    merged: dict[str, Before] = {}
    for key in keys.values():
        if not _usable(item.before.get(key)):
            continue
        for hash_, count, path, prev_hash, prev_path, lines in item.before[key]:
            prior = merged.get(str(hash_))
            if prior is None:
                prior = merged[str(hash_)] = Before(str(hash_), *_commit_info(item, str(hash_)))
                prior.path = str(path)
                if prev_hash and prev_path:
                    prior.previous = (str(prev_hash), str(prev_path))
            prior.count += int(count)
            for first, last in lines:
                for n in range(int(first), int(last) + 1):
                    _extend(prior.origin_lines, n)
    return sorted(merged.values(), key=lambda o: (-o.count, -o.author_time))


class Before:
    """A previous owner: ``hash``, ``summary`` (untrusted, as the commit said it),
    ``author_time`` (seconds), ``boundary``, ``count`` (how many of the replaced lines
    it owned), and, to walk further back (:func:`previous_owners` of it), ``path`` (the
    file's path in that commit), ``previous`` (``(hash, path)`` before it, or None) and
    ``origin_lines`` (the lines it owns, numbered as in its own version)."""

    __slots__ = (
        "author_time",
        "boundary",
        "count",
        "hash",
        "origin_lines",
        "path",
        "previous",
        "summary",
    )

    def __init__(self, hash: str, summary: str, author_time: int, boundary: bool) -> None:
        self.hash = hash
        self.summary = summary
        self.author_time = author_time
        self.boundary = boundary
        self.count = 0
        self.path = ""
        self.previous: tuple[str, str] | None = None
        self.origin_lines: list[tuple[int, int]] = []


#: A previous-owner row kept in the cache: ``[hash, lines owned, path there, previous
#: hash, previous path, [[first, last], ...] (its own line numbers)]``.
_ROW = 6


def _usable(rows: object) -> bool:
    """Whether cached previous owners hold what a further step needs (rows kept before
    the walk went further back held only ``[hash, count]``: blamed again)."""
    return isinstance(rows, list) and all(isinstance(r, list) and len(r) == _ROW for r in rows)


def _blame_before(
    top: str,
    owner: Owner | Before,
    ranges: list[tuple[int, int]],
    deadline: float | None,
    item: cache.Entry,
) -> dict[tuple[int, int], list[list[Any]]]:
    """Previous-owner rows per range of ``ranges`` (``owner``'s own line numbers): one
    diff and one blame for all of them; a range the deadline left unsettled is absent."""
    from .blame import BlameError, blame, old_side

    assert owner.previous is not None
    try:
        olds = old_side(top, owner.previous, (owner.hash, owner.path), ranges)
        wanted = _ranges(_numbers([r for old in olds.values() for r in old]))
        run = (
            blame(top, owner.previous[1], wanted, rev=owner.previous[0], deadline=deadline)
            if wanted
            else None
        )
    except BlameError:
        return {}
    at: dict[int, tuple[Group, int]] = {}
    for group in [] if run is None else run.groups:
        commit = group.commit
        item.commits[commit.hash] = [commit.summary, commit.author_time, commit.boundary]
        for offset in range(group.count):
            at[group.final + offset] = (group, group.orig + offset)
    out: dict[tuple[int, int], list[list[Any]]] = {}
    for r, old in olds.items():
        numbers = _numbers(old)
        if any(n not in at for n in numbers):
            continue  # not settled before the deadline: the next call may finish it
        rows: dict[str, list[Any]] = {}
        for n in numbers:
            group, there = at[n]
            row = rows.get(group.commit.hash)
            if row is None:
                previous = group.previous or (None, None)
                row = rows[group.commit.hash] = [
                    group.commit.hash,
                    0,
                    group.filename,
                    *previous,
                    [],
                ]
            row[1] += 1
            lines = row[5]
            if lines and lines[-1][1] + 1 == there:
                lines[-1][1] = there
            else:
                lines.append([there, there])
        out[r] = list(rows.values())
    return out


def _commit_info(item: cache.Entry | None, hash_: str) -> tuple[str, int, bool]:
    info = None if item is None else item.commits.get(hash_)
    if not info:
        return "", 0, False
    summary, author_time, boundary = info
    return str(summary), int(author_time), bool(boundary)


def _entry(
    top: str, path: str, state_dir: str, since: str | None
) -> tuple[str, cache.Entry, bool] | None:
    """(cache file, entry valid for the working file, whether it needs saving)."""
    from .head import head_commit

    full = os.path.join(top, *path.split("/"))
    try:
        st = os.stat(full)
        if not os.path.isfile(full):
            return None
    except OSError:
        return None
    head = head_commit(top)
    if not head:
        return None  # no commit yet (or none git can name): nothing owns a line
    if since:
        head += f" since={since}"
    file = cache.path_of(state_dir, top, path)
    item = cache.load(file)
    if item is not None and item.head != head and not _same_file(top, path, item.head, head):
        item = None
    if item is not None and item.head == head and cache.unchanged(item, st):
        return file, item, False
    raw = _read(full)
    text = None if raw is None else _lines(raw)
    if text is None:
        return None
    if item is None:
        fresh = cache.Entry(head, cache.stat_key(st), text)
        fresh.committed = _is_head_blob(top, path, head.partition(" ")[0], raw)
        return file, fresh, True
    item.head = head
    item.stat = cache.stat_key(st)
    cache.follow_edit(item, text)
    return file, item, True


def _same_file(top: str, path: str, before: str, after: str) -> bool:
    """Whether ``path`` is the same at two HEADs (both plain hashes, the same window)."""
    old, _, old_window = before.partition(" ")
    new, _, new_window = after.partition(" ")
    if not old or not new or old_window != new_window:
        return False
    from ..git import run

    try:
        return run(top, "diff", "--quiet", "--no-ext-diff", old, new, "--", path).returncode == 0
    except OSError:
        return False


def _is_head_blob(top: str, path: str, head: str, raw: bytes) -> bool | None:
    """Whether a line not in ``raw`` is surely uncommitted: ``raw`` is HEAD's version of
    ``path`` byte for byte, or HEAD has no such file (None: git could not say). One
    ``git rev-parse``, on the path that blames anyway."""
    from ..git import run

    try:
        done = run(top, "rev-parse", "--verify", "--quiet", f"{head}:{path}")
    except OSError:
        return None
    oid = done.stdout.strip()
    if done.returncode != 0 or len(oid) not in (40, 64):
        return True  # not in HEAD: none of its lines is committed
    return cache.blob_id(raw, len(oid)) == oid


def _read(full: str) -> bytes | None:
    try:
        with open(full, "rb") as fp:
            return fp.read()
    except OSError:
        return None


def _lines(raw: bytes) -> list[str] | None:
    """The file's lines as git counts them (a last line without a newline counts)."""
    if b"\0" in raw[:8000]:
        return None  # binary: git blames no lines of it we could show
    lines = raw.decode("utf-8", "replace").split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def _fill(item: cache.Entry, groups: Iterable[Group]) -> None:
    from . import porcelain  # a blame ran: its parser is loaded already

    index: dict[tuple[str, str], int] = {}
    for number, known in enumerate(item.origins):
        index[(str(known[0]), str(known[1]))] = number
    for group in groups:
        commit = group.commit
        if commit.hash == porcelain.UNCOMMITTED:
            for n in range(group.final, group.final + group.count):
                if n <= len(item.lines):
                    item.lines[n - 1] = cache.UNCOMMITTED
            continue
        key = (commit.hash, group.filename)
        origin = index.get(key)
        if origin is None:
            origin = index[key] = len(item.origins)
            previous = group.previous or (None, None)
            item.origins.append([commit.hash, group.filename, *previous])
        item.commits[commit.hash] = [commit.summary, commit.author_time, commit.boundary]
        for offset in range(group.count):
            n = group.final + offset
            if n <= len(item.lines):
                item.lines[n - 1] = cache.known(origin, group.orig + offset)


def _answer(answer: Ownership, item: cache.Entry, wanted: Ranges) -> Ownership:
    by_hash: dict[str, Owner] = {}
    for n in _numbers(wanted):
        answer.lines += 1
        known = item.lines[n - 1]
        if known is None:
            answer.unknown += 1
            continue
        if known < 0:
            answer.uncommitted += 1
            _extend(answer.uncommitted_lines, n)
            continue
        origin, there = cache.origin_of(known)
        hash_, path, prev_hash, prev_path = item.origins[origin]
        assert isinstance(hash_, str) and isinstance(path, str)
        owner = by_hash.get(hash_)
        if owner is None:
            owner = by_hash[hash_] = Owner(hash_, *_commit_info(item, hash_))
            owner.path = path
            if prev_hash and prev_path:
                owner.previous = (prev_hash, prev_path)
        _extend(owner.lines, n)
        _extend(owner.origin_lines, there)
    answer.owners = sorted(by_hash.values(), key=lambda o: (-o.count, -o.author_time))
    return answer


def _extend(ranges: list[tuple[int, int]], n: int) -> None:
    """Add line ``n`` to ``ranges`` (kept sorted, adjacent lines merged)."""
    for i, (first, last) in enumerate(ranges):
        if first - 1 <= n <= last + 1:
            ranges[i] = (min(first, n), max(last, n))
            if i + 1 < len(ranges) and ranges[i + 1][0] <= ranges[i][1] + 1:
                ranges[i] = (ranges[i][0], ranges.pop(i + 1)[1])
            return
        if n < first:
            ranges.insert(i, (n, n))
            return
    ranges.append((n, n))


def _clip(ranges: Ranges, size: int) -> list[tuple[int, int]]:
    if not ranges:
        return [(1, size)] if size else []
    out = [(max(1, a), min(size, b)) for a, b in ranges if a <= size and b >= 1 and a <= b]
    return _ranges(_numbers(out))


def _numbers(ranges: Ranges) -> list[int]:
    return sorted({n for first, last in ranges for n in range(first, last + 1)})


def _ranges(numbers: Iterable[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for n in numbers:
        if out and out[-1][1] + 1 == n:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return out


def deadline_in(seconds: float) -> float:
    """A deadline ``seconds`` from now, for :func:`owners`."""
    return time.monotonic() + seconds
