"""What an owner did to the lines asked overrules what its subject says, one rule for a
read, an edit and ``memhooks why`` (issue 20 items 2 and 3; :func:`rejudge`):

* an owner that changed them **only in whitespace** (:data:`memhooks.lines.said.SPACE`:
  requests 2d4a89f5 "adding in pep8 fixes" re-aligned ``REDIRECT_STATI``) is
  formatting there, whatever its subject: walked back to the lines' previous owners,
  and never told alone — at a read it was dropped as a surface change, at an edit of
  lines beside it told alone;
* an owner whose subject names a layout change among other words
  (:func:`memhooks.history.layout.names_layout`: iproute2 897772a7 "cmd: use spaces instead of
  tabs for usage indentation") and that changed them only on their surface
  (:mod:`memhooks.lines.surface`: whitespace, comments) is formatting there too
  (:mod:`.why_layout`);
* an owner whose subject says it reshapes code (``"reshapes"``: "Move DigestAuth hash
  algorithms to use usedforsecurity=False", requests a044b020) but that only added words
  to them (:data:`memhooks.lines.said.GAIN`) changed what they do: no reshape there,
  told as itself — unless it relabels code (:func:`memhooks.history.signal.relabels`:
  a typing or lint pass, a rename), whose added words are annotations or new names.

The lines judged are those the owner owns among an edit's changed lines when it owns
any, else among the lines asked — each line by itself as far as whitespace goes: an
owner that changed some of them only in whitespace and others not is formatting on the
first alone (:func:`rejudge` answers them), judged by the rules above on the rest, so a
range gets the union of its lines' answers (a "tune defaults" that re-spaced line 2 and
changed a value on line 4 is walked back at line 2 whether line 2 or lines 2–4 are
asked; issue 20 items 3 and 9). Verdicts are kept with the file version: a warm edit
of lines judged before loads neither git nor :mod:`difflib` for them.
"""

from __future__ import annotations

from ..lines.ranges import numbers, ranges_of
from ..lines.said import GAIN, NOTES, RESHAPES, SPACE, kind, spaced, walked

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from ..lines.ownership import Blamed, Owner, Ownership
    from .why_commit import Commit


def rejudge(
    top: str,
    found: Sequence[Owner],
    commits: dict[str, Commit],
    own: Ownership,
    focused: Ownership | None,
    deadline: float | None,
    limit: int | None = None,
) -> dict[str, set[int]]:
    """Set, in this answer's ``commits`` (what each said, by hash), the low-signal reason
    of the owners of ``found`` (most lines first; at most ``limit`` judged) that what
    they did to their lines overrules (module docstring); ``focused``: the owners of an
    edit's changed lines. Returns, by hash, the lines (numbered in the owner's version)
    of each owner that changed them only in whitespace while its verdict on its other
    lines judged leaves it told as itself: formatting there alone. Raises nothing; past
    ``deadline`` (:func:`time.monotonic`) an owner is not judged."""
    asked: list[tuple[Owner, Commit]] = []
    for owner in found:
        commit = commits.get(owner.hash)
        if commit is None or owner.boundary or owner.previous is None:
            continue
        if commit.low_signal is None or commit.low_signal == RESHAPES:
            start = focused.owner(owner.hash) if focused is not None else None
            asked.append((start or owner, commit))
    if limit is not None:
        asked = asked[:limit]
    parts: dict[str, set[int]] = {}
    layout = judge(top, asked, own, deadline, parts)
    if layout:
        from .why_layout import relayout

        relayout(top, layout, commits, own, deadline)
    # an owner walked back over all its lines after all (its other lines re-laid out, or
    # still a reshape) is walked back from every one: no part of its own
    return {h: lines for h, lines in parts.items() if not walked(commits[h].low_signal)}


def judge(
    top: str,
    asked: Sequence[tuple[Blamed, Commit]],
    own: Ownership,
    deadline: float | None,
    parts: dict[str, set[int]] | None = None,
) -> list[Blamed]:
    """Set the low-signal reason of each commit of ``asked`` (a commit blamed for lines —
    an owner, or a previous owner with the lines followed to it — and what it said, this
    answer's copy) where what it did to those lines overrules it: formatting where it
    changed them only in whitespace; none where its subject reshapes code but it only
    added words to them. With ``parts`` (owners only), each line is judged by itself for
    whitespace: a commit that changed some of the lines only in whitespace and not all
    has those (numbered in its version) put in ``parts`` by hash and is judged on the
    others alone. Returns those of ``asked`` left to the layout rule (a subject naming a
    layout change: :mod:`.why_layout`), each with the lines judged. Raises nothing."""
    if not asked:
        return []
    from ..lines.cache import ABSENT

    known: Mapping[str, object] = {b.hash: own.note(NOTES, b.hash) for b, _ in asked}  # alone
    if any(verdict is ABSENT for verdict in known.values()):
        from ..lines.delta import verdicts  # git and difflib: only for an owner not judged

        known = verdicts(top, [blamed for blamed, _ in asked], own, deadline=deadline)
    layout: list[Blamed] = []
    for blamed, commit in asked:
        verdict = known.get(blamed.hash)
        space = spaced(verdict, blamed.origin_lines) if parts is not None else set()
        if space and any(n not in space for n in numbers(blamed.origin_lines)):
            assert parts is not None
            parts[blamed.hash] = space  # formatting there alone: the rest judged below
            blamed = _rest(blamed, space)
        found_kind = kind(verdict, blamed.origin_lines)
        if found_kind == SPACE:
            from ..history.reasons import FORMATTING  # the name's one home, loaded only here

            commit.low_signal = FORMATTING  # this answer's copy of what it said
        elif found_kind == GAIN and commit.low_signal == RESHAPES:
            from ..history.signal import relabels

            if not relabels(commit.subject):
                commit.low_signal = None
        elif commit.low_signal is None:
            from ..history.layout import names_layout

            if names_layout(commit.subject):
                layout.append(blamed)
    return layout


def part_of(
    own: Ownership, owner: Owner, there: set[int] | None
) -> tuple[Owner | None, list[tuple[int, int]]]:
    """``owner`` (one of ``own.owners``) split by :func:`rejudge`'s answer for it: the
    part whose lines are numbered ``there`` in its version (only re-spaced: an owner of
    its own, its ``lines`` those of the working file) and the lines of the rest;
    ``(None, owner.lines)`` when ``there`` is None or empty, no line of the owner is
    numbered so, or nothing is known of the file version. No git."""
    item = own.entry
    if not there or item is None:
        return None, owner.lines
    from ..lines.cache import origin_of

    part: list[int] = []
    rest: list[int] = []
    for n in numbers(owner.lines):
        value = item.known(n)
        known = value is not None and value >= 0 and origin_of(value)[1] in there
        (part if known else rest).append(n)
    if not part:
        return None, owner.lines
    return own.within(ranges_of(part)).owner(owner.hash), ranges_of(rest)


def worded_part(own: Ownership, owner: Owner | None) -> Owner | None:
    """``owner`` (of ``own``) on its lines that hold a word, or None when none does: a
    blank or punctuation-only line (``}``, ``);``: no letter, no digit) has no text to
    follow to the line it came from, so what its hunk replaced would stand for it —
    seven blank lines of requests' "Cleanup #800" named 5017aeb before it at a
    whole-file Read of ``auth.py``, where its one comment came from 53d454c8
    (newcomer22). No git."""
    if owner is None:
        return None
    worded = [n for n in numbers(owner.lines) if not own.wordless([(n, n)])]
    if len(worded) == len(numbers(owner.lines)):
        return owner
    return own.within(ranges_of(worded)).owner(owner.hash) if worded else None


def reshaped(commit: Commit) -> Commit:
    """This answer's copy of ``commit`` as formatting (walked back to its lines' previous
    owners): what it is on the lines it changed only in whitespace, while it is itself on
    its others (:func:`rejudge`)."""
    from ..history.reasons import FORMATTING  # the name's one home, loaded only here
    from .why_commit import Commit

    copy = Commit(commit.hash, commit.subject, commit.time, commit.message)
    copy.email, copy.root, copy.files = commit.email, commit.root, commit.files
    copy.low_signal = FORMATTING
    return copy


def _rest(blamed: Blamed, space: set[int]) -> Blamed:
    """``blamed`` with its lines but ``space`` (numbered in its version)."""
    from ..lines.ownership import Blamed

    rest = Blamed(blamed.hash, blamed.summary, blamed.author_time, blamed.boundary)
    rest.path, rest.previous = blamed.path, blamed.previous
    rest.origin_lines = ranges_of([n for n in numbers(blamed.origin_lines) if n not in space])
    return rest


def rejudge_before(
    top: str, before: Sequence[tuple[Blamed, Commit]], own: Ownership, deadline: float | None
) -> None:
    """Judge previous owners (each with what it said, this answer's copy) by what they did
    to the lines followed to them, as owners are (:func:`judge`): a whitespace-only one is
    walked past too (requests' ``models.py`` 96–98: behind the formatter stood 2d4a89f5
    "adding in pep8 fixes", which only re-aligned them). Raises nothing; past
    ``deadline`` none is judged."""
    if before and not late(deadline):
        judge(top, [(b, c) for b, c in before if c.low_signal in (None, RESHAPES)], own, deadline)


def late(deadline: float | None) -> bool:
    """Whether ``deadline`` (:func:`time.monotonic`) has passed: no more git to start."""
    if deadline is None:
        return False
    import time

    return time.monotonic() >= deadline
