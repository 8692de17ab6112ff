"""A pre-tool edit's session without the state file: the ledger read from its mirror and
claim journal (:mod:`.claims`), claims appended there.

A pre-tool edit the shortcut did not settle (:mod:`memhooks.hook.told`) tells the owners
of the lines it replaces that the session lacks. It needs of the session only its ledger
(what was delivered, what tool-time characters are spent) and a way to claim: the
:class:`EditSession` gives those as :class:`memhooks.session.record.Session` does —
:meth:`~EditSession.record_made`, :meth:`~EditSession.record`, held until
:meth:`~EditSession.confirm` — for the calls :func:`open_edit` finds it can serve: a
session whose mirror is the state file's, whose snapshot (:mod:`.snapshot`) names the
same root, and whose store the code's names could find nothing in (the names' search
claims served targets, which only the state file keeps). Any other goes to SQLite.
Only ``os``, :mod:`.claims` and ``fcntl`` load.
"""

from __future__ import annotations

import time

from . import keys
from .claims import Journal, View, available, identity, load_mirror, peek
from .snapshot import claims_paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any

#: Most times an answer is made again when parallel calls overtake it (as the state
#: file's: :data:`memhooks.session.record.MAKES`).
MAKES = 3


class EditSession:
    """The session of a pre-tool edit, its ledger the mirror's and journal's (see the
    module docstring). ``hold_until``: wall-clock seconds its claims are held until
    :meth:`confirm`; ``deadline``: monotonic seconds the journal's lock is waited for."""

    anonymous = False
    started = 0.0

    def __init__(
        self,
        paths: tuple[str, str],
        mirror: dict[str, Any],
        records: list[dict[str, Any]],
        snapshot: dict[str, Any],
        session_id: str,
        host: str,
        root: str,
    ) -> None:
        self._journal_path, self._mirror_path = paths
        self._mirror = mirror
        self.key = self.id = session_id
        self.host = host
        self.root = root
        self.prompt: str | None = snapshot.get("prompt")
        self._served = {str(t) for t in snapshot["served"]}
        self._told = {keys.commit(str(h)) for h in snapshot["told"]}
        self.hold_until: float | None = None
        self.deadline = 0.0
        self.pending_chars = 0
        self._holds = False
        self._view = View(mirror, records, time.time())
        self.epoch = self._view.epoch
        self.tool_chars = self._view.tool_chars
        self._mine: set[str] = set()

    def delivered(self) -> set[str]:
        """Items delivered in this epoch, or held by a call that may still confirm them."""
        return self._view.items

    def served(self) -> set[str]:
        return set(self._served)

    def settled(self) -> set[str]:
        """The served targets that stand, as the snapshot had them (an edit serves none)."""
        return set(self._served)

    def told(self) -> set[str]:
        """Full hashes of the commits told in this epoch whose claims stand."""
        standing = self._view.standing | (self._mine if not self._holds else set())
        return keys.of(keys.COMMIT, standing | self._told)

    @property
    def pending(self) -> bool:
        return self._holds

    def record_made(
        self,
        native_event: str,
        target: str,
        answer: Callable[[set[str], int | None], tuple[int, list[dict[str, object]]]],
        *,
        tool_time: bool = False,
        ceiling: int | None = None,
    ) -> set[str]:
        """:meth:`memhooks.session.record.Session.record_made`, claimed in the journal: the
        answer made outside the lock, claimed under it only when none of its items was
        taken since and it fits the room the ceiling leaves; else made again from what
        stands then, at most :data:`MAKES` times."""
        taken = set(self._view.items)
        room: int | None = None
        for _ in range(MAKES):
            chars, items = answer(taken, room)
            if not items:
                return set()
            wanted = {str(i["item"]) for i in items}
            with self._locked() as journal:
                view = self._fresh(journal)
                if view.epoch != self.epoch:
                    return set()  # the host compacted meanwhile: this answer is another epoch's
                left = None if ceiling is None or not tool_time else ceiling - view.spent
                if not wanted & view.items and (left is None or chars <= left):
                    self._claim(journal, native_event, target, chars, items, tool_time)
                    return wanted
            taken, room = set(view.items), (None if left is None else max(0, left))
        return set()

    def record(
        self,
        native_event: str,
        target: str,
        items: list[dict[str, object]],
        size: Callable[[set[str]], int],
        *,
        tool_time: bool = False,
        serve: Iterable[str] = (),
        ceiling: int | None = None,
    ) -> set[str]:
        """:meth:`memhooks.session.record.Session.record` for what an edit says beside its
        owners (uncharged: no ``ceiling``, no targets served), claimed in the journal."""
        assert not serve and ceiling is None, "an edit's session serves no target"
        with self._locked() as journal:
            view = self._fresh(journal)
            claimed = {str(i["item"]) for i in items} - view.items
            if not claimed or view.epoch != self.epoch:
                return set()
            chars = size(claimed)
            logged = [i for i in items if str(i["item"]) in claimed]
            self._claim(journal, native_event, target, chars, logged, tool_time)
        return claimed

    def confirm(self) -> None:
        """The reply goes out: what this call claimed stands (one confirmation line)."""
        if not self._holds:
            return
        # past the call's deadline too: the reply went out (the hold allows for it)
        with Journal(self._journal_path, max(self.deadline, time.monotonic() + 1.0)) as journal:
            journal.append({"ok": self.hold_until, "c": self.pending_chars})
        self.tool_chars += self.pending_chars
        self.pending_chars = 0
        self._holds = False

    def _locked(self) -> Journal:
        return Journal(self._journal_path, self.deadline)

    def _fresh(self, journal: Journal) -> View:
        """The ledger now, the journal locked: the mirror as it is now (a write of the
        state file may have left another since) and the journal past it."""
        mirror = load_mirror(self._mirror_path) or self._mirror
        if mirror.get("state") != self._mirror.get("state") or not journal.whole(
            str(mirror["folded"])
        ):
            raise OSError(
                f"the session's ledger changed under {self._journal_path} while this edit"
                " read it (its journal or state file made again, or cut short); nothing told"
            )
        self._mirror = mirror
        self._view = View(mirror, journal.records(str(mirror["folded"]))[0], time.time())
        return self._view

    def _claim(
        self,
        journal: Journal,
        native_event: str,
        target: str,
        chars: int,
        items: list[dict[str, object]],
        tool_time: bool,
    ) -> None:
        assert self.hold_until is not None
        journal.append(
            {"e": self.epoch, "at": time.time(), "n": native_event, "t": target, "c": chars,
             "i": items, "u": self.hold_until, "tool": tool_time}
        )  # fmt: skip
        names = {str(i["item"]) for i in items}
        self._view.items |= names
        self._mine |= names
        self._holds = True
        if tool_time:
            self.pending_chars += chars


def open_edit(
    state_dir: str,
    state_path: str,
    session_id: str,
    host: str,
    root: str,
    snapshot: dict[str, Any] | None,
) -> EditSession | None:
    """The :class:`EditSession` of ``session_id`` when its mirror is ``state_path``'s and
    its ``snapshot`` (:func:`memhooks.session.snapshot.load`) was left at ``root`` by a
    call that told the lines read before edits (a pre-tool channel); None: SQLite's."""
    if snapshot is None or not available():
        return None
    try:
        if snapshot["root"] != root or not snapshot["reads"] or snapshot["edits"]:
            return None
        paths = claims_paths(state_dir, session_id)
        mirror = load_mirror(paths[1])
        if mirror is None or mirror.get("key") != session_id:
            return None
        if mirror.get("state") != identity(state_path):
            return None
        if int(mirror["epoch"]) != int(snapshot["epoch"]):
            return None  # a compaction since: SQLite knows the new epoch's ledger
        # one this call can write, and the one the mirror folded (made again: SQLite's)
        found = peek(paths[0], str(mirror["folded"]), write=True)
        if found is None:
            return None
        return EditSession(paths, mirror, found[1], snapshot, session_id, host, root)
    except (KeyError, TypeError, ValueError):
        return None
