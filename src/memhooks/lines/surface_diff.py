"""The comparison behind :mod:`.surface`: which lines of a commit's version of a file
hold code that differs from the version before it (:class:`difflib.SequenceMatcher`
over the code units of :mod:`.python_code`, or of C-like lines), bounded in work.
Loaded only when an owner is judged for the first time: a Read whose verdicts are kept
loads neither difflib nor tokenize.
"""

from __future__ import annotations

import re

from .differ import differing
from .python_code import python_code


def substantive_lines(before: str, after: str, kind: str) -> set[int] | None:
    """Lines of ``after`` (1-based) whose code differs from ``before``'s, or next to
    code ``after`` removed; ``kind`` ``"python"`` (compared statement by statement) or
    ``"c"`` (line by line). None when either text cannot be read as code of that kind."""
    read = python_code if kind == "python" else _c_code
    old, new = read(before), read(after)
    if old is None or new is None:
        return None
    runs = differing([c for c, _, _ in old], [c for c, _, _ in new])
    if runs is None:
        return None  # too much to compare: not judged
    found: set[int] = set()
    lines = after.split("\n")
    coded = {n for _, first, last in new for n in (first, last)}  # a statement's ends
    for _i1, _i2, j1, j2 in runs:
        if j2 > j1:  # new code: its lines, and the comments between them
            first, last = new[j1][1], new[j2 - 1][2]
        else:  # code removed: the code around it, and what lies between
            first = new[j1 - 1][1] if j1 > 0 else 1
            last = new[j1][2] if j1 < len(new) else len(lines)
        # and the comment written with it: the lines right above and below (no blank
        # line between) that hold no code (review-lines: a fix whose comment explains the
        # guard it added stays the owner of that comment once the guard is rewritten)
        while first > 1 and lines[first - 2].strip() and first - 1 not in coded:
            first -= 1
        while last < len(lines) and lines[last].strip() and last + 1 not in coded:
            last += 1
        found.update(range(first, last + 1))
    return found


def _c_code(text: str) -> list[tuple[str, int, int]]:
    """The lines of C-like ``text`` that hold code, comments and whitespace taken away:
    ``(its code, line, line)``."""

    def blank(match: re.Match[str]) -> str:
        found = match.group(0)
        if found.startswith(("/*", "//")):
            return "\n" * found.count("\n") or " "
        return found

    code = _COMMENTS.sub(blank, text)
    # each line with its nesting: the braces open before it and whether a braceless
    # if/for/while/else/do header governs it (its condition may span lines) — code
    # re-nested under a new condition is changed code, a re-indent at the same nesting
    # is layout (review-lines 11:31: iproute2 7418335b4b re-nested close_vni_port())
    out: list[tuple[str, int, int]] = []
    depth, governed = 0, False
    header: int | None = None  # in a header: its parens still open
    for n, line in enumerate(code.split("\n"), 1):
        words = " ".join(line.split())
        if not words:
            continue
        out.append((f"{depth}|{int(governed)}|{words}", n, n))
        if words.startswith("#"):
            continue  # a preprocessor line governs nothing and ends no header
        bare = _LITERAL.sub('""', words)
        depth += bare.count("{") - bare.count("}")
        if header is None and _HEADER.match(bare):
            header = 0
        governed = False
        if header is not None:
            header += bare.count("(") - bare.count(")")
            ended = bare.endswith((";", "{", "}"))
            if header <= 0 or ended:  # whole: braceless unless it ends a statement or opens
                governed = header <= 0 and not ended
                header = None
    return out


#: C-like comments and the strings they may hide in: strings first (a URL's // in a
#: JavaScript template or Go raw string is no comment).
_COMMENTS = re.compile(
    r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|`(?:\\.|[^`\\])*`|/\*.*?\*/|//[^\n]*',
    re.DOTALL,
)
_LITERAL = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'')
_HEADER = re.compile(r"^(?:\}\s*)?(?:if|for|while|else|do)\b")
