"""What an owner did to the lines asked overrules what its subject says, one rule for a
read, an edit and ``memhooks why`` (issue 20 items 2 and 3; :func:`rejudge`):

* an owner that changed them **only in whitespace** (:data:`memhooks.lines.delta.SPACE`:
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
  to them (:data:`memhooks.lines.delta.GAIN`) changed what they do: no reshape there,
  told as itself — unless it relabels code (:func:`memhooks.history.signal.relabels`:
  a typing or lint pass, a rename), whose added words are annotations or new names.

The lines judged are those the owner owns among an edit's changed lines when it owns
any, else among the lines asked. Verdicts are kept with the file version: a warm edit
of lines judged before loads neither git nor :mod:`difflib` for them.
"""

from __future__ import annotations

from ..lines.delta import GAIN, NOTES, SPACE, kind
from ..lines.said import RESHAPES

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
) -> None:
    """Set, in this answer's ``commits`` (what each said, by hash), the low-signal reason
    of the owners of ``found`` (most lines first; at most ``limit`` judged) that what
    they did to their lines overrules (module docstring); ``focused``: the owners of an
    edit's changed lines. Raises nothing; past ``deadline`` (:func:`time.monotonic`) an
    owner is not judged."""
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
    layout = judge(top, asked, own, deadline)
    if layout:
        from .why_layout import relayout

        relayout(top, layout, commits, own, deadline)


def judge(
    top: str, asked: Sequence[tuple[Blamed, Commit]], own: Ownership, deadline: float | None
) -> list[Blamed]:
    """Set the low-signal reason of each commit of ``asked`` (a commit blamed for lines —
    an owner, or a previous owner with the lines followed to it — and what it said, this
    answer's copy) where what it did to those lines overrules it: formatting where it
    changed them only in whitespace; none where its subject reshapes code but it only
    added words to them. Returns those of ``asked`` left to the layout rule (a subject
    naming a layout change: :mod:`.why_layout`). Raises nothing."""
    if not asked:
        return []
    from ..lines.cache import ABSENT

    known: Mapping[str, object] = {b.hash: own.note(NOTES, b.hash) for b, _ in asked}  # alone
    if any(verdict is ABSENT for verdict in known.values()):
        from ..lines.delta import verdicts  # git and difflib: only for an owner not judged

        known = verdicts(top, [blamed for blamed, _ in asked], own, deadline=deadline)
    layout: list[Blamed] = []
    for blamed, commit in asked:
        found_kind = kind(known.get(blamed.hash), blamed.origin_lines)
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


def rejudge_before(
    top: str, before: Sequence[tuple[Blamed, Commit]], own: Ownership, deadline: float | None
) -> None:
    """Judge previous owners (each with what it said, this answer's copy) by what they did
    to the lines followed to them, as owners are (:func:`judge`): a whitespace-only one is
    walked past too (requests' ``models.py`` 96–98: behind the formatter stood 2d4a89f5
    "adding in pep8 fixes", which only re-aligned them). Raises nothing; past
    ``deadline`` none is judged."""
    if before and not _late(deadline):
        judge(top, [(b, c) for b, c in before if c.low_signal in (None, RESHAPES)], own, deadline)


def _late(deadline: float | None) -> bool:
    if deadline is None:
        return False
    import time

    return time.monotonic() >= deadline
