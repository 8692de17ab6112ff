"""The embedded store's marks on commits, kept beside its state so a warm pre-tool edit
need not open the store (issue 20 item 7).

Before it tells the owners of an edit's lines, line-level recall asks the store two
things of the commits about to be told (:func:`memhooks.hook.owners.tell`): is one's
memory obsolete (reverted, superseded), and was one given to the session as a memory
(its id in the ledger)? Opening the store for that — its modules, the SQLite file, the
project's id — was the largest part of a warm edit past the shortcut. A commit's memory
given to a session claims, in the same write, the commit its source names
(:func:`memhooks.hook.deliver.deliver`), so a commit about to be told (none the session
has) was given only by a memory that names another commit — a change cherry-picked, a
history rewritten since the import: those commits are kept, and only they send an edit
to the store.

A call that opens the store keeps its answer for every commit of the project
(:meth:`memhooks.store.MemoryStore.commit_marks`) in ``sessions/_marks.json``, keyed by
the project's root and the store's real path, with the store's state taken before it
was asked (:mod:`memhooks.session.storestate`: the file's key, an empty write-ahead
log). A later call — of any session — trusts it while the store is still so; a write to
the store (``remember``, an import, a revert marked) sends the next call to the store,
which keeps the new answer. Nothing is imported here until a function runs.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection, Iterable


#: What a kept row says, in order (a row of another version is read again from the store).
VERSION = 2


class Marks:
    """What the store says of a project's commits: ``obsolete`` (full hashes whose one
    memory is obsolete) and ``elsewhere`` (hashes whose memory names another commit)."""

    __slots__ = ("elsewhere", "obsolete")

    def __init__(self, obsolete: Iterable[str], elsewhere: Iterable[str]) -> None:
        self.obsolete = frozenset(obsolete)
        self.elsewhere = frozenset(elsewhere)

    def untouched(self, commits: Collection[str]) -> bool:
        """Whether the store would change nothing of what telling ``commits`` (full
        hashes the session was not told) says: none is obsolete, and none could have
        reached the session as a memory without its commit being claimed."""
        return self.obsolete.isdisjoint(commits) and self.elsewhere.isdisjoint(commits)


def load(state_dir: str, root: str, store: str) -> Marks | None:
    """The marks kept for the project at ``root`` in the store file ``store`` (its real
    path) while that store is as it was when they were read; else None (ask the store).
    Never raises."""
    from .storestate import current

    row = current(state_dir, "marks", f"{root}\n{store}")
    try:
        if row is None or len(row) != 4:
            return None
        state, obsolete, elsewhere, version = row
        if state[0] != store or version != VERSION:
            return None
        return Marks([str(h) for h in obsolete], [str(h) for h in elsewhere])
    except (TypeError, ValueError, IndexError):
        return None


def keep(
    state_dir: str, root: str, state: list[object], obsolete: list[str], elsewhere: list[str]
) -> None:
    """Keep the marks read from the store whose state (taken before they were read) is
    ``state`` for the project at ``root`` (:func:`memhooks.session.storestate.keep`)."""
    from . import storestate

    row = [state, obsolete, elsewhere, VERSION]
    storestate.keep(state_dir, "marks", f"{root}\n{state[0]}", row)
