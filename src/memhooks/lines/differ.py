"""Where two versions of a file differ, bounded in work: the one comparison behind
:mod:`.delta` (lines) and :mod:`.surface_diff` (code units). Loaded only when a commit is
judged for the first time.
"""

from __future__ import annotations

from difflib import SequenceMatcher

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

#: Most work one comparison (:func:`differing`) may take: the units (lines, statements)
#: that differ between the two versions, past their common start and end, multiplied;
#: more is not judged (quadratic where units repeat: a firmware table of 6,000 rows of
#: ``0x00,…`` took 4.9 s — review-lines).
MAX_WORK = 1_000_000


def differing(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int, int, int]] | None:
    """The runs of ``a`` and ``b`` that differ (:class:`difflib.SequenceMatcher`, their
    common start and end set aside unmatched) as ``(i1, i2, j1, j2)`` slices of each, in
    order; None when the work is past :data:`MAX_WORK` (the rest times the rest: a
    comparison is quadratic where items repeat). The one comparison of this rule and of
    :mod:`.surface_diff`'s (:mod:`.delta`, :mod:`.surface`)."""
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    if (len(a) - start - end) * (len(b) - start - end) > MAX_WORK:
        return None
    matcher = SequenceMatcher(None, a[start : len(a) - end], b[start : len(b) - end],
                              autojunk=False)  # fmt: skip
    return [
        (i1 + start, i2 + start, j1 + start, j2 + start)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]
