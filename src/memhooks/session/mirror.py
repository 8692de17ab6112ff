"""Folding a session's claim journal into the state file, and leaving the ledger's mirror
(:mod:`.claims`): what a write of the ledger in SQLite does, the journal locked, when the
session has one (:meth:`memhooks.session.record.Session._write`)."""

from __future__ import annotations

import os
import time

from .. import cachefile
from ..fast.jsonfast import dumps
from .claims import STALE, VERSION, Journal, identity
from .rows import log_delivery, stand

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from typing import Any

#: Seconds a write of the state file waits for the journal (its holders hold it for a
#: few file operations; past it the write fails as a busy state file does).
LOCK_S = 2.0


class Fold:
    """``with Fold(conn, key, (journal, mirror), state_path, now):`` inside a write of
    the state file: the journal locked and folded in (:func:`fold`) on entry, the mirror
    written (:func:`mirror`) when the block ends without an exception, the lock let go
    either way. ``refresh=False``: a write that changes no ledger row (the session's
    open) writes the mirror only when the fold moved, or there is none."""

    __slots__ = ("conn", "journal", "key", "moved", "now", "paths", "refresh", "state_path")

    def __init__(
        self,
        conn: sqlite3.Connection,
        key: str,
        paths: tuple[str, str],
        state_path: str,
        now: float,
        *,
        refresh: bool = True,
    ) -> None:
        self.conn, self.key, self.paths, self.state_path = conn, key, paths, state_path
        self.now, self.refresh, self.moved = now, refresh, False
        self.journal: Journal | None = None

    def __enter__(self) -> None:
        try:
            journal = self.journal = Journal(self.paths[0], time.monotonic() + LOCK_S)
        except OSError:  # no journal can be kept (a folder that takes no file, a FIFO):
            _unlink(self.paths[1])  # no mirror either: the session's edits take the state file
            return
        try:
            self.moved = fold(self.conn, journal, self.key, self.now)
        except BaseException:
            journal.__exit__()
            raise

    def __exit__(self, kind: object, *exc: object) -> None:
        if self.journal is None:
            return
        try:
            if kind is None and (self.refresh or self.moved or not os.path.exists(self.paths[1])):
                mirror(self.conn, self.journal, self.key, self.paths[1], self.state_path, self.now)
        finally:
            self.journal.__exit__()


def fold(conn: sqlite3.Connection, journal: Journal, key: str, now: float) -> bool:
    """Write what the journal holds past where the state file keeps for session ``key``
    into its tables, as :class:`memhooks.session.record.Session` writes a delivery and
    its confirmation, and keep where it reached — inside the caller's write
    transaction, the journal locked. That is kept with the journal's id
    (:class:`.claims.Journal`): a journal made again (swept with an idle session's
    files, removed, emptied or cut short by hand) is read from its start, and folding
    what was folded before writes nothing twice (:func:`_claimed`). A confirmation
    whose held rows went meanwhile (the sweep takes lapsed holds) writes its claim
    again, standing. Returns whether where it reached moved (records folded, or a
    journal made again): the mirror must say so."""
    mark = "claims:" + key
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (mark,)).fetchone()
    kept = str(row[0]) if row is not None else None
    records, end = journal.records(kept)
    whole: list[dict[str, Any]] | None = None  # every claim, read once when one is needed
    for record in records:
        if "ok" not in record:
            _claimed(conn, key, record, record["u"], now)
            continue
        until = float(record["ok"])
        changed = stand(conn, key, until, ("delivered", "deliveries"))
        if not changed:  # its held rows went (swept once lapsed) before this was folded
            if whole is None:
                whole = journal.records(None)[0]
            claims = [r for r in whole if "i" in r and float(r["u"]) == until]
            changed = sum(_claimed(conn, key, claim, None, now) for claim in claims)
        if changed and record.get("c"):
            conn.execute(
                "UPDATE sessions SET tool_chars = tool_chars + ? WHERE key = ?",
                (int(record["c"]), key),
            )
    latest = max((float(r["at"]) for r in records if "at" in r), default=None)
    if latest is not None:  # an edit's hook call is the session's latest too (sessions list)
        conn.execute("UPDATE sessions SET updated = max(updated, ?) WHERE key = ?", (latest, key))
    if end != kept:
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (mark, end))
    journal.folded = end
    return end != kept


def _claimed(
    conn: sqlite3.Connection, key: str, record: dict[str, Any], until: float | None, now: float
) -> bool:
    """Write the claim ``record`` as a delivery of session ``key`` and its items, held
    ``until`` (None: standing) — once: a claim folded already (the same time, target
    and size: a journal read again from its start) is not. Returns whether it wrote."""
    if conn.execute(
        "SELECT 1 FROM deliveries WHERE key = ? AND at = ? AND target = ? AND chars = ? LIMIT 1",
        (key, record["at"], record["t"], record["c"]),
    ).fetchone():
        return False
    log_delivery(conn, key, record["e"], record["at"], record["n"], record["t"], record["c"],
                 record["i"], until, bool(record.get("tool")), now)  # fmt: skip
    return True


def mirror(
    conn: sqlite3.Connection, journal: Journal, key: str, path: str, state_path: str, now: float
) -> None:
    """Write the mirror of session ``key``'s ledger as ``conn``'s write leaves it (the
    journal folded to its end first, :func:`fold`; the journal still locked). When it
    cannot be written, none is left: the next edit takes SQLite."""
    row = conn.execute("SELECT epoch, tool_chars FROM sessions WHERE key = ?", (key,)).fetchone()
    made = None
    if row is not None:
        epoch, tool_chars = int(row[0]), int(row[1])
        items = dict(
            conn.execute(
                "SELECT item, until FROM delivered WHERE key = ? AND epoch = ?"
                " AND (until IS NULL OR until > ?)",
                (key, epoch, now),
            ).fetchall()
        )
        held = conn.execute(
            "SELECT chars, until FROM deliveries WHERE key = ? AND epoch = ? AND tool = 1"
            " AND until > ?",
            (key, epoch, now),
        ).fetchall()
        made = dumps(
            {"v": VERSION, "key": key, "state": identity(state_path), "epoch": epoch,
             "folded": journal.folded, "tool_chars": tool_chars,
             "items": items, "held": [list(h) for h in held]}
        )  # fmt: skip
    written = made is not None and cachefile.write(path, made, mode=0o700)
    if not written and not _unlink(path) and os.path.lexists(path):
        journal.append(STALE)  # a mirror that stays, out of date: no edit trusts it


def _unlink(path: str) -> bool:
    try:
        os.unlink(path)
    except OSError:
        return False
    return True
