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
to the store. A call that opens
the store keeps its answer for every commit of the project
(:meth:`memhooks.store.MemoryStore.commit_marks`) in ``sessions/_marks.json``, keyed
by the project's root and the store's real path, with the store's state taken before it
was asked (:func:`memhooks.session.edits.store_state`: the file's key, an empty
write-ahead log). A later call — of any session — trusts it while the store is still so
(:func:`memhooks.session.edits.still`); a write to the store (``remember``, an import, a
revert marked) sends the next call to the store, which keeps the new answer.

Only ``os`` and the state folder's JSON are loaded here.
"""

from __future__ import annotations

import os

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


def _file(state_dir: str) -> str:
    return os.path.join(state_dir, "sessions", "_marks.json")  # no session's file name


def _known(state_dir: str) -> dict[str, object]:
    from ..fast.jsonfast import loads

    try:
        with open(_file(state_dir), "rb") as fp:
            found = loads(fp.read())
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def load(state_dir: str, root: str, store: str) -> Marks | None:
    """The marks kept for the project at ``root`` in the store file ``store`` (its real
    path) while that store is as it was when they were read; else None (ask the store).
    Never raises."""
    from .edits import still

    row = _known(state_dir).get(f"{root}\n{store}")
    try:
        if not isinstance(row, list) or len(row) != 4 or not still(row[0]):
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
    ``state`` for the project at ``root``; what other stores' rows say is kept while
    they are still as they were. Best effort: a failed write only costs the next call a
    store."""
    from .. import cachefile
    from ..fast.jsonfast import dumps
    from .edits import still

    known = {
        k: row
        for k, row in _known(state_dir).items()
        if isinstance(row, list) and row and still(row[0])
    }
    known[f"{root}\n{state[0]}"] = [state, obsolete, elsewhere, VERSION]
    cachefile.write(_file(state_dir), dumps(known), mode=0o700)
