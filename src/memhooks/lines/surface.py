"""Whether a commit changed the lines it owns only on their surface (issue 20 item 2):
comments, docstrings, type annotations, layout — what says nothing about why the code
does what it does. Reviewers on requests found "Add inline types", "Document bunch of
return types" and "Add HTTPAdapter to API docs." told as the top owners of the lines an
agent read: their subjects pass the low-signal rule (:mod:`memhooks.history.signal`),
but what they did to those lines is no decision.

The rule looks at what the commit changed, not at its subject: the file's *code* before
and after the commit — each line's tokens with the surface taken away — is compared line
by line (:class:`difflib.SequenceMatcher`); a line of the commit's version is
*substantive* where its code differs (or code next to it was removed). An owner whose
lines (numbered in its own version: :attr:`~.ownership.Blamed.origin_lines`) hold none
is a surface owner.

What is surface, by language (the file's extension):

* **Python** (:mod:`.python_code`: ``tokenize``, the standard library's own tokenizer): comments (``# type:
  ignore`` too), a statement that is only a string (a docstring), annotations of
  parameters, returns and assignments (``x: int = 0`` is ``x = 0``; ``x: int`` alone is
  nothing), imports from ``typing``, ``typing_extensions`` and ``__future__``, an ``if
  TYPE_CHECKING:`` block, an ``@overload`` stub. Indentation is layout.
* **C-like** (C, C++, Java, JavaScript, TypeScript, Go, Rust, C#, …): ``/* */`` and
  ``//`` comments (outside string literals) and whitespace. Types are code there.
* anything else, a file git cannot show, or text the tokenizer refuses: not judged —
  never called surface (nothing is hidden on a guess).

A file the commit created has no before: its lines are never surface. Verdicts are kept
in the file version's notes (``notes["surface"][hash]``: the commit's substantive line
ranges, or None when not judged): what a commit changed never changes.
"""

from __future__ import annotations

import os
import re
import time
from difflib import SequenceMatcher

from .blame import BlameError, show
from .python_code import python_code
from .ranges import ranges_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from .ownership import Blamed, Ownership

PYTHON = frozenset({".py", ".pyi"})
C_LIKE = frozenset(
    {".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx", ".java", ".js", ".jsx", ".mjs",
     ".ts", ".tsx", ".go", ".rs", ".cs", ".swift", ".kt", ".scala", ".m", ".mm"}
)  # fmt: skip
#: Largest file judged (characters, either version): a bigger one is not judged.
MAX_CHARS = 400_000
#: Most work one comparison may take: the units (statements, lines) that differ between
#: the two versions, past their common start and end, multiplied; more is not judged
#: (a comparison is quadratic where lines repeat: a firmware table of 6,000 rows of
#: ``0x00,…`` took 4.9 s — review-lines).
MAX_WORK = 1_000_000
NOTES = "surface"


def language(path: str) -> str | None:
    """``"python"``, ``"c"`` or None (not judged) for a file ``path``."""
    ext = os.path.splitext(path)[1].lower()
    return "python" if ext in PYTHON else "c" if ext in C_LIKE else None


def surface_owners(
    top: str, owners: Sequence[Blamed], own: Ownership, *, deadline: float | None = None
) -> set[str]:
    """The hashes of ``owners`` that changed the lines they own only on their surface
    (module docstring), in the work tree ``top`` whose answer ``own`` keeps the verdicts
    with its file version: one ``git cat-file --batch`` for those not judged before.
    An owner that cannot be judged is not surface (nor, past ``deadline``
    (:func:`time.monotonic`), is one not judged yet: asked again later). Raises nothing."""
    kept = own.notes.get(NOTES)
    verdicts: dict[str, object] = kept if isinstance(kept, dict) else {}
    judged = [o for o in owners if o.previous is not None and not o.boundary and o.origin_lines]
    wanted = [o for o in judged if o.hash not in verdicts]
    if wanted:
        try:
            verdicts.update(_judged(top, wanted, deadline))
        except BlameError:
            pass  # git failed or the deadline came: not judged, asked again later
        else:
            own.notes[NOTES] = verdicts
            own.keep()
    return {o.hash for o in judged if _surface(verdicts.get(o.hash), o.origin_lines)}


def _surface(found: object, lines: list[tuple[int, int]]) -> bool:
    """Whether none of ``lines`` is among the substantive ranges ``found`` (a verdict;
    anything else: not judged)."""
    if not isinstance(found, list):
        return False
    substantive = {n for first, last in found for n in range(first, last + 1)}
    return not any(n in substantive for first, last in lines for n in range(first, last + 1))


def _judged(
    top: str, owners: Sequence[Blamed], deadline: float | None
) -> dict[str, list[list[int]] | None]:
    """Each of ``owners``' verdict: the substantive line ranges of its version of its
    file, or None (not judged). Raises :class:`.blame.BlameError` (git failed, or
    ``deadline`` passed)."""
    pairs = {}
    for owner in owners:
        assert owner.previous is not None
        kind = language(owner.path)
        if kind is not None and language(owner.previous[1]) == kind:
            pairs[owner.hash] = (kind, owner.previous, (owner.hash, owner.path))
    texts = show(top, [spec for _, *specs in pairs.values() for spec in specs], deadline, MAX_CHARS)
    out: dict[str, list[list[int]] | None] = {o.hash: None for o in owners}
    for hash_, (kind, before, after) in pairs.items():
        if deadline is not None and time.monotonic() >= deadline:
            del out[hash_]  # not judged in time: asked again later (told meanwhile)
            continue
        old, new = texts.get(before), texts.get(after)
        found = None if old is None or new is None else substantive_lines(old, new, kind)
        out[hash_] = None if found is None else [[a, b] for a, b in ranges_of(sorted(found))]
    return out


def substantive_lines(before: str, after: str, kind: str) -> set[int] | None:
    """Lines of ``after`` (1-based) whose code differs from ``before``'s, or next to
    code ``after`` removed; ``kind`` ``"python"`` (compared statement by statement) or
    ``"c"`` (line by line). None when either text cannot be read as code of that kind."""
    read = python_code if kind == "python" else _c_code
    old, new = read(before), read(after)
    if old is None or new is None:
        return None
    a, b = [c for c, _, _ in old], [c for c, _, _ in new]
    start = 0  # the common start and end need no matching
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    if (len(a) - start - end) * (len(b) - start - end) > MAX_WORK:
        return None  # too much to compare: not judged
    matcher = SequenceMatcher(None, a[start : len(a) - end], b[start : len(b) - end],
                              autojunk=False)  # fmt: skip
    found: set[int] = set()
    lines = after.split("\n")
    coded = {n for _, first, last in new for n in (first, last)}  # a statement's ends
    for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
        j1, j2 = j1 + start, j2 + start
        if tag == "equal":
            continue
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
    pattern = re.compile(
        # strings first (a URL's // in a JavaScript template or Go raw string is no comment)
        r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|`(?:\\.|[^`\\])*`|/\*.*?\*/|//[^\n]*',
        re.DOTALL,
    )

    def blank(match: re.Match[str]) -> str:
        found = match.group(0)
        if found.startswith(("/*", "//")):
            return "\n" * found.count("\n") or " "
        return found

    code = pattern.sub(blank, text)
    return [
        (" ".join(line.split()), n, n) for n, line in enumerate(code.split("\n"), 1) if line.strip()
    ]
