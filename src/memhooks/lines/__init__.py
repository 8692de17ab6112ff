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
directory), ``head`` (HEAD without a process), ``ownership`` (the answer), ``version`` (which file version a cache entry answers for),
``previous`` (what an owner replaced), ``ranges`` (the
lines an edit replaces), ``tools`` (which lines a tool call reads or replaces),
``names`` (a file version's definitions, kept beside its blame), ``said`` (what a
commit said, kept in a file version's notes), ``warm`` (the blame ahead). Nothing here
writes into the repository.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .blame import BlameError
    from .ownership import Owner, Ownership, owners, owners_saved, saved_text
    from .previous import Before, previous_owners
    from .ranges import CONTEXT, changed_lines, edit_lines

#: Where each public name lives: imported on first use, so the hook's tool-event shortcut
#: can read :mod:`memhooks.lines.tools` without the blame machinery, and a hook that
#: finds every line in the cache never loads git's runner (``subprocess``).
_LAZY = {
    "BlameError": "blame",
    "Before": "previous",
    "Owner": "ownership",
    "Ownership": "ownership",
    "owners": "ownership",
    "owners_saved": "ownership",
    "previous_owners": "previous",
    "saved_text": "ownership",
    "CONTEXT": "ranges",
    "changed_lines": "ranges",
    "edit_lines": "ranges",
}


def __getattr__(name: str) -> object:
    if name not in _LAZY:  # e.g. a submodule being imported (``from .. import x`` asks first)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from ..lazy import attribute  # loaded with the first name asked for (not to say no)

    return attribute(__name__, _LAZY, name, globals())


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
