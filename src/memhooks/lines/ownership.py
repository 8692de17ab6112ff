"""Which commits own given lines of a file in the working tree.

:func:`owners` answers from the cache (:mod:`.cache`) and blames only lines it does not
know yet, within a deadline (:mod:`.version` finds the cache entry of the working file;
:func:`.previous.previous_owners`: the commits that owned the lines an owner replaced).
Uncommitted lines own nothing; lines older than a history window (``since``) are owned
by a boundary commit, reported as such."""

from __future__ import annotations

import time

from . import cache
from .ranges import clip, extend, numbers, ranges_of
from .version import entry_of, saved

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from .porcelain import Group

    Ranges = Sequence[tuple[int, int]]


class Blamed:
    """What blame says of one commit owning lines, walked further back from:
    ``hash``, ``summary`` (its message's first line, as the commit said it: untrusted
    text), ``author_time`` (seconds), ``boundary`` (older than the history window: the
    true owner is older), ``path`` (the file's path in that commit), ``previous``
    (``(hash, path)`` before it, or None), ``origin_lines`` (its lines to follow,
    numbered as in its own version). :class:`Owner` and
    :class:`memhooks.lines.previous.Before` add what each counts."""

    __slots__ = ("author_time", "boundary", "hash", "origin_lines", "path", "previous", "summary")

    def __init__(self, hash: str, summary: str, author_time: int, boundary: bool) -> None:
        self.hash = hash
        self.summary = summary
        self.author_time = author_time
        self.boundary = boundary
        self.path = ""
        self.previous: tuple[str, str] | None = None
        self.origin_lines: list[tuple[int, int]] = []


class Owner(Blamed):
    """One commit owning some of the lines asked about (:class:`Blamed`), with ``lines``
    (1-based inclusive ranges of the working file it owns, ascending; ``origin_lines``
    are the same lines' numbers in that commit's version)."""

    __slots__ = ("lines",)

    def __init__(self, hash: str, summary: str, author_time: int, boundary: bool) -> None:
        super().__init__(hash, summary, author_time, boundary)
        self.lines: list[tuple[int, int]] = []

    @property
    def count(self) -> int:
        """How many of the lines asked about it owns."""
        return sum(last - first + 1 for first, last in self.lines)


class Ownership:
    """The answer for ``path`` (relative to the work tree): ``owners`` (most lines first, then
    newest), ``lines`` (lines asked about, in the file), ``size`` (the file's lines; None: no
    text git could blame), ``uncommitted``/``unknown`` (unblamed by the deadline) counts and
    ``uncommitted_lines``, ``cached`` (no git ran), ``notes`` (kept with the version: :meth:`keep`),
    ``unrun`` (git could not start for a part, left out, not kept: ``why`` says MH032)."""

    __slots__ = (
        "_entry", "_file", "cached", "lines", "owners", "path", "size", "uncommitted",
        "uncommitted_lines", "unknown", "unrun",
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
        self.unrun: str | None = None
        self._file = ""
        self._entry: cache.Entry | None = None

    @property
    def entry(self) -> cache.Entry | None:
        """The cache entry of the file version answered for (None: nothing to cache)."""
        return self._entry

    @property
    def notes(self) -> dict[str, object]:
        return {} if self._entry is None else self._entry.notes  # whole (note(): one item)

    def note(self, name: str, key: str) -> object:  # one item: lines.cache.Entry.note
        return cache.ABSENT if self._entry is None else self._entry.note(name, key)

    def keep(self) -> None:
        """Save :attr:`notes` (and what else was learnt of this file version)."""
        if self._entry is not None:
            cache.save(self._file, self._entry)

    def within(self, ranges: Ranges) -> Ownership:
        """The owners of lines ``ranges`` of the same file version, from what this answer
        already knows (no git; lines not known are unknown there too)."""
        part = Ownership(self.path)
        part._file, part._entry, part.cached = self._file, self._entry, self.cached
        if self._entry is None:
            return part
        part.size = self.size
        return _answer(part, self._entry, clip(ranges, self._entry.size))

    def wordless(self, ranges: Ranges) -> bool:
        """Whether every line of ``ranges`` holds no word (:meth:`.cache.Entry.wordless`)."""
        return self._entry is not None and self._entry.wordless(numbers(ranges))

    def owner(self, hash_: str) -> Owner | None:
        """The owner ``hash_`` among :attr:`owners` (None: it owns none of these lines)."""
        return next((o for o in self.owners if o.hash == hash_), None)

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
    entry = entry_of(top, path, state_dir, since)
    if entry is None:
        return Ownership(path)
    file, item, dirty = entry
    wanted = clip(ranges, item.size)
    for again in (False, True):
        answer = Ownership(path)
        answer._file, answer._entry, answer.size = file, item, item.size
        missing = ranges_of(n for n in numbers(wanted) if item.known(n) is None)
        if missing:
            from .blame import BlameError, blame  # git's runner: only when lines are missing
            from .head import edge_of

            answer.cached, dirty = False, True
            whole = len(missing) == 1 and missing[0] == (1, item.size)
            try:
                run = blame(top, path, () if whole else missing, since=since, deadline=deadline,
                            edge=edge_of(item.head))  # fmt: skip
                _fill(item, run.groups)
                cache.settle(item)
            except BlameError as exc:
                if not exc.ran:
                    raise
                for n in numbers(missing):  # a file git does not track: nothing owns its lines
                    item.lines[n - 1] = cache.UNCOMMITTED
        _answer(answer, item, wanted)
        if again or not answer.unknown or not item.forget_damaged(numbers(wanted)):
            break  # else lines of a damaged origin row (a file edited by hand): blamed again
    if dirty:
        cache.save(file, item)
    return answer


def saved_text(top: str, path: str, *, state_dir: str) -> str | None:
    """The text of ``path`` as its cache entry holds it — the version before an edit the
    agent has just made — when it was saved under the HEAD of now; else None. For hosts
    that report an edit only after it is applied (the lines it replaced are gone)."""
    found = saved(top, path, state_dir)
    return None if found is None else "".join(f"{line}\n" for line in found[1].text)


def owners_saved(top: str, path: str, ranges: Ranges, *, state_dir: str) -> Ownership:
    """The owners of lines ``ranges`` of the saved version (:func:`saved_text`): no git,
    the edit not followed; lines it had not blamed are unknown."""
    answer = Ownership(path)
    found = saved(top, path, state_dir)
    if found is None:
        return answer
    answer._file, answer._entry = found
    answer.size = found[1].size
    return _answer(answer, found[1], clip(ranges, found[1].size))


#: What the cache key of a file as HEAD has it starts with (:func:`owners_at_head`): its
#: entry lives beside the working file's, never mistaken for it.
AT_HEAD = "\0HEAD:"


def owners_at_head(
    top: str, path: str, ranges: Ranges, *, state_dir: str, deadline: float | None = None
) -> Ownership:
    """The owners of lines ``ranges`` of ``path`` as the commit HEAD names has it (the
    lines an uncommitted change replaced: ``memhooks why``), kept in the state directory
    under their own key — for :func:`.previous.previous_owners` a step further back, as
    for :func:`owners`. ``size`` is not known (None). Raises
    :class:`~memhooks.lines.blame.BlameError`."""
    from .blame import blame
    from .head import blame_key, edge_of

    answer = Ownership(path)
    head = blame_key(top)
    wanted = list(ranges)
    if not head or not wanted:
        return answer
    file = cache.path_of(state_dir, top, AT_HEAD + path)
    item = cache.load(file)
    if item is None or item.head != head:
        item = cache.Entry(head, [], None)
    reach = max(last for _, last in wanted)
    item.lines += [None] * (reach - len(item.lines))
    missing = ranges_of(n for n in numbers(wanted) if item.lines[n - 1] is None)
    if missing:
        run = blame(top, path, missing, rev="HEAD", deadline=deadline, edge=edge_of(head))
        _fill(item, run.groups)
        answer.cached = False
        cache.save(file, item)
    answer._file, answer._entry = file, item
    return _answer(answer, item, wanted)


def commit_info(item: cache.Entry | None, hash_: str) -> tuple[str, int, bool]:
    info = None if item is None else item.commit(hash_)
    if not info:
        return "", 0, False
    summary, author_time, boundary = info
    return str(summary), int(author_time), bool(boundary)


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
    for n in numbers(wanted):
        answer.lines += 1
        known = item.known(n)
        if known is None:
            answer.unknown += 1
            continue
        if known < 0:
            answer.uncommitted += 1
            extend(answer.uncommitted_lines, n)
            continue
        row = item.owner(known)
        if row is None:
            answer.unknown += 1  # a row that does not parse: not known (a damaged file)
            continue
        (hash_, path, prev_hash, prev_path), there = row, cache.origin_of(known)[1]
        owner = by_hash.get(hash_)
        if owner is None:
            owner = by_hash[hash_] = Owner(hash_, *commit_info(item, hash_))
            owner.path = path
            if prev_hash and prev_path:
                owner.previous = (prev_hash, prev_path)
        extend(owner.lines, n)
        extend(owner.origin_lines, there)
    answer.owners = sorted(by_hash.values(), key=lambda o: (-o.count, -o.author_time))
    return answer


def deadline_in(seconds: float) -> float:
    """A deadline ``seconds`` from now, for :func:`owners`."""
    return time.monotonic() + seconds
