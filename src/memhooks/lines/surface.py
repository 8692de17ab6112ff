"""Whether a commit changed the lines it owns only on their surface (issue 20 item 2):
comments, docstrings, type annotations, layout — what says nothing about why the code
does what it does. Reviewers on requests found "Add inline types", "Document bunch of
return types" and "Add HTTPAdapter to API docs." told as the top owners of the lines an
agent read: their subjects pass the low-signal rule (:mod:`memhooks.history.signal`),
but what they did to those lines is no decision.

The rule looks at what the commit changed, not at its subject: the file's *code* before
and after the commit — each line's tokens with the surface taken away — is compared line
by line (:mod:`.surface_diff`, loaded only for an owner not judged before); a line of the commit's version is
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

import time

from .delta import kept
from .language import language
from .ranges import ranges_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from .ownership import Blamed, Ownership

#: Largest file judged (characters, either version): a bigger one is not judged.
MAX_CHARS = 400_000
NOTES = "surface"


def surface_owners(
    top: str, owners: Sequence[Blamed], own: Ownership, *, deadline: float | None = None
) -> set[str]:
    """The hashes of ``owners`` that changed the lines they own only on their surface
    (module docstring), in the work tree ``top`` whose answer ``own`` keeps the verdicts
    with its file version: one ``git cat-file --batch`` for those not judged before.
    An owner that cannot be judged is not surface (nor, past ``deadline``
    (:func:`time.monotonic`), is one not judged yet: asked again later). Raises nothing."""
    judged = [o for o in owners if o.previous is not None and not o.boundary and o.origin_lines]
    verdicts = kept(own, NOTES, judged, lambda wanted: _judged(top, wanted, deadline))
    return {o.hash for o in judged if _surface(verdicts[o.hash], o.origin_lines)}


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
    from .blame import show

    texts = show(top, [spec for _, *specs in pairs.values() for spec in specs], deadline, MAX_CHARS)
    out: dict[str, list[list[int]] | None] = {o.hash: None for o in owners}
    from .surface_diff import substantive_lines

    for hash_, (kind, before, after) in pairs.items():
        if deadline is not None and time.monotonic() >= deadline:
            del out[hash_]  # not judged in time: asked again later (told meanwhile)
            continue
        old, new = texts.get(before), texts.get(after)
        found = None if old is None or new is None else substantive_lines(old, new, kind)
        out[hash_] = None if found is None else [[a, b] for a, b in ranges_of(sorted(found))]
    return out
