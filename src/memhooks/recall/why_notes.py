"""What an answer of :mod:`.why` says besides its commits, in plain words: why no commit
explains the lines asked about (:func:`nothing`), and what else to know of the answer
(:func:`notes`: lines past the end, a shallow clone's edge, uncommitted or unblamed
lines, commits left out) — for ``memhooks why`` (human and JSON) and the MCP tool.
"""

from __future__ import annotations

from .why_text import MAX_RANGES, chain, commit_name, ranges_text, short

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .why import Why


def nothing(why: Why) -> str:
    """What to say when no commit explains the lines asked about, and why not."""
    if why.binary:
        return f"{why.path}: not a text file; git blames lines of text, so no commit explains lines of it"
    if why.size is None:
        return f"{why.path}: no commit at HEAD has this file (untracked, ignored or not committed yet — or the project has no commit yet), so none explains its lines"
    if why.size == 0:
        return f"{why.path} is empty: it has no lines to explain"
    if why.cut:
        return f"{why.path}: no commit in this clone explains these lines"
    if why.total and why.uncommitted == why.total:
        return f"{why.path}: {_uncommitted(why)}, so no commit explains {_them(why.total)}"
    if why.unknown and why.unknown + why.uncommitted >= why.total:
        # cli20: `--timeout` spent before git blamed them said "no commit explains these
        # lines" — which it cannot know
        return f"{why.path}: the time limit came before git blamed these lines, so no commit is named for them (raise --timeout)"
    return f"{why.path}: no commit explains these lines"


def notes(why: Why) -> list[str]:
    """What else to know of the answer, in plain words: what the caller met on the way
    (:attr:`~.why.Why.remarks`: a hook file skipped, no HOME), lines past the end of the
    file, lines whose history a shallow clone does not hold, lines not committed yet,
    lines the time limit left unblamed, commits left out."""
    out = list(why.remarks)
    size = why.size or 0
    past = [(max(a, size + 1), b) for a, b in why.lines if b > size]
    if why.total and why.size is not None and past:
        out.append(f"the file has {_lines(why.size)}: {_ranges_are(past)} past its end")
    for hash_, ranges in why.cut:
        out.append(
            f"history before {short(hash_)} is not in this clone (a shallow clone): "
            f"{_ranges_are(ranges)} older — `git fetch --unshallow` to explain "
            + _them(sum(b - a + 1 for a, b in ranges))
        )
    if why.wordless:
        out.append(
            f"{_ranges_are(why.wordless).replace(' is', ' holds').replace(' are', ' hold')} "
            "no word or number (blank or punctuation only): no commit is named for "
            + _them(sum(b - a + 1 for a, b in why.wordless))
        )
    if why.uncommitted and why.uncommitted < why.total:
        out.append(f"{_uncommitted(why)}: no commit explains {_them(why.uncommitted)}")
    for replaced in why.replaced:  # memhooks why: what the uncommitted lines were before
        there = f" (lines {ranges_text(replaced.lines)} there)" if len(why.replaced) > 1 else ""
        out.append(
            f"what the uncommitted change replaced is owned at HEAD by "
            f"{commit_name(replaced.commit)}{there}{chain(replaced)}"
        )
    if why.unknown:
        out.append(f"{_lines(why.unknown)} not blamed before the time limit")
    if why.excluded:
        out.append("left out: " + ", ".join(_left_out(*e) for e in why.excluded))
    return out


def _left_out(hash_: str, reason: str, behind: str | None) -> str:
    """``cf77203c5636 (reverted)``; a previous owner: ``… (reverted; before 627d3bdedbdc)``."""
    return f"{short(hash_)} ({reason}" + (f"; before {short(behind)})" if behind else ")")


def _uncommitted(why: Why) -> str:
    """``line 20 is not committed yet`` / ``lines 18–21 are not committed yet`` (the
    count when the ranges are not known)."""
    if not why.uncommitted_lines:
        return (
            f"{_lines(why.uncommitted)} {'is' if why.uncommitted == 1 else 'are'} not committed yet"
        )
    return f"{_ranges_are(why.uncommitted_lines)} not committed yet"


def _ranges_are(ranges: list[tuple[int, int]]) -> str:
    """``line 20 is``, ``lines 20–21, 30 are``, ``84 lines between 12 and 310 are``."""
    if len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        return f"line {ranges[0][0]} is"
    if len(ranges) > MAX_RANGES:
        return f"{ranges_text(ranges)} are"
    return f"lines {ranges_text(ranges)} are"


def _lines(count: int) -> str:
    return "1 line" if count == 1 else f"{count} lines"


def _them(count: int) -> str:
    return "it" if count == 1 else "them"
