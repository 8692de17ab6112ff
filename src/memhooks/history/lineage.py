"""Which path a file a commit touched has now: renames followed forward through history.

A memory of a commit answers for the paths it touched *and* for the paths those files
have at the tip of the imported range (issue 20: requests moved its package to ``src/``,
and 119 of ``auth.py``'s 125 commits touched ``requests/auth.py``). git's rename
detection (``git log -M --name-status``) gives each commit's renames; walking the
history newest first, :class:`Lineage` keeps, for every path as it was just after the
commit being walked, the path its file has now:

* ``R old new`` — before the commit, ``old`` is the file now at ``now(new)``, and
  ``new`` is not that file (another one, or none);
* ``A path`` — before the commit, ``path`` was another file, gone since (or none);
* ``D path`` — before the commit, ``path`` is a file that is gone now;
* ``C old new`` (a copy) — ``new`` as for an add; ``old`` stays what it was.

All of one commit's changes are read against the state after it (a swap of two names in
one commit resolves both ways). A path never seen in a change is where it was. A history
with branches is walked in the order ``git log`` prints it, which follows each rename
on the line of history it was made on; a file renamed differently on two branches keeps
the rename met first.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    #: One change of a commit: git's status letter, the path, and for a rename the old path.
    Change = tuple[str, str, "str | None"]


class Lineage:
    """The walk's state: :meth:`files` of a commit, then :meth:`step` back over it."""

    __slots__ = ("_now",)

    def __init__(self) -> None:
        # path just after the commit being walked -> its path now (None: gone since)
        self._now: dict[str, str | None] = {}

    def now(self, path: str) -> str | None:
        """Where the file at ``path`` (just after the commit being walked) is now."""
        return self._now.get(path, path)

    def files(self, changes: Sequence[Change]) -> list[tuple[str, str | None]]:
        """``(touched path, where its file is now)`` for each path a commit with these
        ``changes`` names (a rename both its paths), in git's order; None: gone since."""
        pairs: list[tuple[str, str | None]] = []
        for status, path, old in changes:
            here = None if status == "D" else self.now(path)
            if old is not None and status == "R":  # a copy leaves its source alone
                pairs.append((old, here))
            pairs.append((path, here))
        return pairs

    def step(self, changes: Sequence[Change]) -> None:
        """Move the state to just before the commit with these ``changes``."""
        sources = [(old, self.now(path)) for status, path, old in changes if status == "R" and old]
        for status, path, _ in changes:
            if status in ("A", "D", "R", "C"):
                self._now[path] = None
        for old, now in sources:
            self._now[old] = now
