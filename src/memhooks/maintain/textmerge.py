"""The line merge behind a round-trip edit: the dumper's changes applied to the file's text.

:mod:`.roundtrip` dumps a hook's tree twice — unedited (the *baseline*: the original as
the dumper writes it) and edited — and :func:`merge` applies only the line differences
between those two dumps to the original text, so lines the edit did not touch stay
byte-identical. Pure text; the caller reads the result back before it is trusted.
"""

from __future__ import annotations

import difflib


def merge(original: str, baseline: str, edited: str, *, touching: bool) -> str | None:
    """Apply the line differences ``baseline`` → ``edited`` to ``original``.

    ``baseline`` is ``original`` normalised by the dumper. A change over lines where
    ``original`` and ``baseline`` differ (with ``touching``: also right next to them)
    takes the ``edited`` form of the whole region. Returns None if a hunk cannot be placed.
    """
    o_lines = original.splitlines(keepends=True)
    b_lines = baseline.splitlines(keepends=True)
    e_lines = edited.splitlines(keepends=True)
    norm = [(tag, b1, b2, o1, o2) for tag, o1, o2, b1, b2 in _opcodes(o_lines, b_lines)]
    edits = _opcodes(b_lines, e_lines)
    dirty = [(b1, b2) for tag, b1, b2, _o1, _o2 in norm if tag != "equal"]
    regions = _grow(
        [[b1, b2] for tag, b1, b2, _e1, _e2 in edits if tag != "equal"], dirty, touching
    )
    out: list[str] = []
    o_at = 0
    for b1, b2 in regions:
        o1, o2 = _map(norm, b1, first=touching), _map(norm, b2, first=not touching)
        e1, e2 = _map(edits, b1, first=True), _map(edits, b2, first=False)
        if o1 is None or o2 is None or e1 is None or e2 is None or o1 < o_at or o2 < o1:
            return None
        out += o_lines[o_at:o1] + e_lines[e1:e2]
        o_at = o2
    return "".join(out + o_lines[o_at:])


Opcode = tuple[str, int, int, int, int]


def _opcodes(a: list[str], b: list[str]) -> list[Opcode]:
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return [(tag, a1, a2, b1, b2) for tag, a1, a2, b1, b2 in matcher.get_opcodes()]


def _grow(
    regions: list[list[int]], dirty: list[tuple[int, int]], touching: bool
) -> list[list[int]]:
    """Widen edit regions (baseline line ranges) over overlapping — or with
    ``touching``, adjacent — normalised ranges, and merge touching regions, until stable."""
    changed = True
    while changed:
        changed = False
        for region in regions:
            for d1, d2 in dirty:
                meets = (
                    d1 <= region[1] and region[0] <= d2
                    if touching
                    else d1 < region[1] and region[0] < d2
                )
                if meets and (d1 < region[0] or d2 > region[1]):
                    region[0], region[1] = min(region[0], d1), max(region[1], d2)
                    changed = True
        regions.sort()
        merged: list[list[int]] = []
        for region in regions:
            if merged and region[0] <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], region[1])
                changed = True
            else:
                merged.append(region)
        regions = merged
    return regions


def _map(opcodes: list[Opcode], b: int, *, first: bool) -> int | None:
    """The other side's line boundary matching baseline boundary ``b``.

    Opcodes are ``(tag, b1, b2, other1, other2)``. Where zero-length ranges make several
    positions match, ``first`` picks the earliest, else the latest. None when ``b`` falls
    strictly inside a changed block.
    """
    found = []
    for tag, lo, hi, other_lo, other_hi in opcodes:
        if tag == "equal" and lo <= b <= hi:
            found.append(other_lo + (b - lo))
        elif tag != "equal":
            if b == lo:
                found.append(other_lo)
            if b == hi:
                found.append(other_hi)
    if not found:
        return None
    return found[0] if first else found[-1]
