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
from difflib import SequenceMatcher

from .blame import BlameError, show
from .python_code import python_code
from .ranges import ranges_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .ownership import Blamed, Ownership

PYTHON = frozenset({".py", ".pyi"})
C_LIKE = frozenset(
    {".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx", ".java", ".js", ".jsx", ".mjs",
     ".ts", ".tsx", ".go", ".rs", ".cs", ".swift", ".kt", ".scala", ".m", ".mm"}
)  # fmt: skip
#: Largest file judged (characters, either version): a bigger one is not judged.
MAX_CHARS = 400_000
NOTES = "surface"


def language(path: str) -> str | None:
    """``"python"``, ``"c"`` or None (not judged) for a file ``path``."""
    ext = os.path.splitext(path)[1].lower()
    return "python" if ext in PYTHON else "c" if ext in C_LIKE else None


def surface_only(top: str, owner: Blamed, own: Ownership, *, deadline: float | None = None) -> bool:
    """Whether ``owner`` changed the lines it owns only on their surface (module
    docstring), in the work tree ``top`` whose answer ``own`` keeps the verdict with its
    file version. False when it cannot be judged (``deadline``, :func:`time.monotonic`:
    git not done by then: not judged, nor kept). Raises nothing."""
    if owner.previous is None or owner.boundary or not owner.origin_lines:
        return False  # created the file (or older than the history window): no before
    notes = own.notes
    kept = notes.get(NOTES)
    verdicts: dict[str, object] = kept if isinstance(kept, dict) else {}
    found = verdicts.get(owner.hash, False)
    if found is False:
        try:
            found = _judged(top, owner, deadline)
        except BlameError:
            return False  # git failed or the deadline came: not judged, asked again later
        verdicts[owner.hash] = found
        notes[NOTES] = verdicts
        own.keep()
    if not isinstance(found, list):
        return False
    substantive = {n for first, last in found for n in range(first, last + 1)}
    return not any(
        n in substantive for first, last in owner.origin_lines for n in range(first, last + 1)
    )


def _judged(top: str, owner: Blamed, deadline: float | None) -> list[list[int]] | None:
    """The substantive line ranges of ``owner``'s version of its file, or None (not
    judged). Raises :class:`.blame.BlameError` (git failed, or ``deadline`` passed)."""
    assert owner.previous is not None
    kind = language(owner.path)
    if kind is None or language(owner.previous[1]) != kind:
        return None
    before = show(top, owner.previous[0], owner.previous[1], deadline, MAX_CHARS)
    after = show(top, owner.hash, owner.path, deadline, MAX_CHARS)
    if before is None or after is None:
        return None
    found = substantive_lines(before, after, kind)
    return None if found is None else [[a, b] for a, b in ranges_of(sorted(found))]


def substantive_lines(before: str, after: str, kind: str) -> set[int] | None:
    """Lines of ``after`` (1-based) whose code differs from ``before``'s, or next to
    code ``after`` removed; ``kind`` ``"python"`` or ``"c"``. None when either text
    cannot be read as code of that kind."""
    read = python_code if kind == "python" else _c_code
    old, new = read(before), read(after)
    if old is None or new is None:
        return None
    lines = sorted(new)
    matcher = SequenceMatcher(None, [old[n] for n in sorted(old)], [new[n] for n in lines],
                              autojunk=False)  # fmt: skip
    found: set[int] = set()
    for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if j2 > j1:  # new code: its lines, and the comments between them
            found.update(range(lines[j1], lines[j2 - 1] + 1))
        else:  # code removed: the code lines around it, and what lies between them
            first = lines[j1 - 1] if j1 > 0 else 1
            last = lines[j1] if j1 < len(lines) else after.count("\n") + 1
            found.update(range(first, last + 1))
    return found


# -- C-like ---------------------------------------------------------------------------


def _c_code(text: str) -> dict[int, str] | None:
    """``{line: its code}`` of C-like ``text``: comments and whitespace taken away."""
    pattern = re.compile(
        r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|/\*.*?\*/|//[^\n]*', re.DOTALL
    )

    def blank(match: re.Match[str]) -> str:
        found = match.group(0)
        if found.startswith(("/*", "//")):
            return "\n" * found.count("\n") or " "
        return found

    code = pattern.sub(blank, text)
    out = {}
    for n, line in enumerate(code.split("\n"), 1):
        words = line.split()
        if words:
            out[n] = " ".join(words)
    return out
