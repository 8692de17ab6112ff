"""Line ownership: which commits own given lines of a file in the working tree, and
which commits owned what those commits replaced (issue 20, "why these lines are the way
they are").

Public API::

    owners(top, path, ranges=(), *, state_dir, deadline=None, since=None) -> Ownership
    previous_owners(top, owner, within: Ownership, *, deadline=None) -> list[Before]
    saved_text(top, path, *, state_dir) -> str | None     # the version before an edit
    owners_saved(top, path, ranges, *, state_dir) -> Ownership
    edit_lines(text, old_string, *, replace_all=False) -> list[(first, last)]
    changed_lines(old_text, new_text) -> list[(first, last)]

Modules: ``porcelain`` (parsing ``git blame --incremental``), ``blame`` (running it
under a deadline; a commit's old side), ``cache`` (one file version's blame in the state
directory), ``head`` (HEAD without a process), ``owners`` (the answer), ``ranges`` (the
lines an edit replaces). Nothing here writes into the repository.
"""

from __future__ import annotations

from .owners import Before, Owner, Ownership, owners, owners_saved, previous_owners, saved_text
from .ranges import CONTEXT, changed_lines, edit_lines

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .blame import BlameError


def __getattr__(name: str) -> object:
    # git's runner (``subprocess``) is loaded only by what blames: the hook that finds
    # every line in the cache does not pay for it.
    if name == "BlameError":
        from .blame import BlameError

        globals()[name] = BlameError
        return BlameError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CONTEXT",
    "Before",
    "BlameError",
    "Owner",
    "Ownership",
    "changed_lines",
    "edit_lines",
    "owners",
    "owners_saved",
    "previous_owners",
    "saved_text",
]
