"""Memories from a project's own git history (``memhooks history import``).

One memory per non-merge commit: the message without trailers that name people, e-mail
addresses and secrets scrubbed, bounded; the files it touched; their common folder as
scope; the commit time; a kind and tags where the subject follows a convention; the
commit hash as provenance. Re-running adds only changes not seen before (ids name the
change, so a rebase does not double them); a revert marks what it reverts obsolete.
Nothing is written into the repository.

Public API::

    open_checkout(directory, root) -> Checkout     # MH032 when git cannot be read
    import_history(store, project, repo, *, revisions=(), since=None, max_count=None,
                   dry_run=False, progress=None) -> ImportReport

Modules: ``gitlog`` (the three reads of ``git log``), ``process`` (running git),
``message`` (message -> text, reverted hashes), ``cut`` (how long a commit's text may be), ``conventions`` (subject -> kind, tags),
``mapping`` (commit -> memory, change ids), ``layout`` (words that name a change of layout), ``signal`` (the low-signal rule: merges,
bots, dependency and version bumps, formatting, one-line chores), ``importer`` (the
import itself). The
library never prints: progress goes to a callback.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .gitlog import Checkout, open_checkout
    from .importer import import_history, memory_ids
    from .report import ImportReport

#: Where each public name lives, imported on first use: line-level recall in the hook
#: reads ``message``, ``signal`` and ``blame_ignore`` of this package, and an eager
#: import here loaded the importer with them (git's runner, hashing, the mapping: ~10 ms
#: of a cold pre-tool Edit at load 7, speed20's ``-X importtime``).
_LAZY = {
    "Checkout": "gitlog",
    "open_checkout": "gitlog",
    "import_history": "importer",
    "memory_ids": "importer",
    "ImportReport": "report",
}


def __getattr__(name: str) -> object:
    if name not in _LAZY:  # e.g. a submodule being imported (``from .. import x`` asks first)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from ..lazy import attribute  # loaded with the first name asked for (not to say no)

    return attribute(__name__, _LAZY, name, globals())


__all__ = ["Checkout", "ImportReport", "import_history", "memory_ids", "open_checkout"]
