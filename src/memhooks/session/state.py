"""The state file: one SQLite database of working state that hook processes share.

Every hook call is a fresh process, so what a session did so far (the folders and files
it touched, what it was given, maintenance not yet applied) lives here between calls::

    $MEMHOOKS_STATE_DIR/state.sqlite3          (when set; an absolute directory)
    $XDG_STATE_HOME/memhooks/state.sqlite3     (else; ~/.local/state/memhooks/ when unset)

Never in the repository, and never next to a store the user pointed into a checkout.
WAL mode, ``synchronous=NORMAL``, writers queue on ``BEGIN IMMEDIATE``
(:mod:`memhooks.store.connection`). Tables (layout :data:`VERSION`):

============ =================================================================
``sessions`` one row per host session: host, id, root, epoch (compactions so far),
             latest prompt, characters delivered at tool time this epoch
``touches``  the session's working set: root-relative files and folders, how they
             were touched (read, edit, search, command, prompt), when
``served``   folders and files given tool-time recall, per epoch
``deliveries`` each context the hook delivered (event, target, characters, memories,
             whether at tool time)
``delivered`` the ledger: memory ids (and guidance keys) delivered, per epoch
``journal``  maintenance the hook accepted and has not applied yet (issue 13 item 3)
``captures`` capture's record of the session, per project: prompts, files changed,
             fixes, last reply (:mod:`memhooks.session.capture_record`)
``failures`` capture's failed commands of the session waiting for a later success
============ =================================================================

``served``, ``deliveries`` and ``delivered`` rows with an ``until`` are *held* by a hook
call whose reply may still be dropped at its deadline: they count until that second
and stand only once the call confirms them (``until`` cleared;
:mod:`memhooks.session.record`). Layout 2 added ``until``, 3 capture's tables (until then
in the memory store), 4 ``deliveries.tool`` (a held tool-time delivery counts against
the session's ceiling at once); each is migrated in place
(:data:`memhooks.session.layout.MIGRATE`), the ledgers kept.

It is disposable working state, not memories: a file of another layout version, or one
SQLite cannot read, is moved aside (``state.sqlite3.old``) and a new one started —
losing at most the sessions' ledgers, never a memory. Rows expire (:data:`IDLE_S`) and
are bounded per session (:data:`MAX_TOUCHES`, :data:`MAX_DELIVERIES`).
"""

from __future__ import annotations

import os
import time

from ..fast import caught
from ..fast import sqlite as sqlite3  # memhooks.errors: to raise only (every hook call)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar

    from ..errors import StoreError
    from ..store.failures import Role

    T = TypeVar("T")

from .location import FILENAME, state_dir, state_path

__all__ = ["FILENAME", "State", "state_dir", "state_path"]

VERSION = 4
#: A session untouched this long (seconds) is forgotten with its ledger: 7 days.
IDLE_S = 7 * 24 * 3600.0
#: Per session: working-set entries and deliveries kept (oldest dropped first).
MAX_TOUCHES = 512
MAX_DELIVERIES = 256
#: Seconds between two sweeps of expired rows (any writer may sweep).
SWEEP_S = 3600.0
#: Seconds a writer waits for the state file's write lock.
BUSY_S = 2.0
#: How errors name this file and what they advise (:mod:`memhooks.store.failures`): it is
#: working state, never memories, and MEMHOOKS_STATE_DIR moves it (issue 22 item 4).
ROLE_NAME = "the memhooks state file"
#: WAL pages after which a commit checkpoints the log (SQLite's default is 1,000: 4 MB).
#: Hook processes exit without closing the file (:meth:`memhooks.hook.call.HookCall.close`),
#: so each one opens it as its first connection and SQLite rebuilds the WAL index by
#: reading the whole log (https://sqlite.org/walformat.html#recovery): with a 4 MB log
#: that open took ~1.2 ms more than with a small one (measured in the prompt hook).
#: 64 pages (256 KiB) bounds it; a hook call commits a few pages, so a checkpoint comes
#: every dozen calls or so.
WAL_PAGES = 64
#: Capture's tables (:mod:`memhooks.session.capture_record`), keyed by session too.
CAPTURE = ("captures", "failures")


class State:
    """An open state file. ``clock`` (seconds, wall time) is replaceable for tests.

    Raises :class:`~memhooks.errors.StoreError` (naming the file) when it cannot be
    opened or created at all; a damaged one is replaced (module docstring), and
    ``replaced`` then says so in one line (None otherwise)."""

    def __init__(self, path: str, *, clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self.clock = clock
        self.replaced: str | None = None
        self.conn = _open(path, self)
        if path != ":memory:":
            from ..store.failures import unwritable

            why = unwritable(path)  # SQLite opens a file it may not write, read-only
            if why is not None:
                self.conn.close()
                raise unusable(path, *why)

    def close(self) -> None:
        self.conn.close()

    def read(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        """Rows of one read-only statement."""
        from ..store.connection import retry

        return retry(self.path, BUSY_S, lambda: self.conn.execute(sql, params).fetchall(), role())

    def write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(conn)`` in one write transaction (retried while the file is busy; it
        must have no effect outside the database). Raises StoreError naming the state
        file and ``MEMHOOKS_STATE_DIR``."""
        from ..store.connection import write

        return write(self.conn, self.path, BUSY_S, work, role())

    def sweep(self, conn: sqlite3.Connection) -> None:
        """Forget sessions idle for :data:`IDLE_S`, at most once per :data:`SWEEP_S`
        (call inside :meth:`write`)."""
        now = self.clock()
        row = conn.execute("SELECT value FROM meta WHERE key = 'swept'").fetchone()
        if row is not None and now - float(row[0]) < SWEEP_S:
            return
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('swept', ?)", (str(now),))
        stale = [
            k
            for (k,) in conn.execute("SELECT key FROM sessions WHERE updated < ?", (now - IDLE_S,))
        ]
        for table in ("touches", "served", "deliveries", "delivered", *CAPTURE, "sessions"):
            conn.executemany(f"DELETE FROM {table} WHERE key = ?", [(k,) for k in stale])
        # how far each one's claim journal was folded (memhooks.session.mirror)
        conn.executemany("DELETE FROM meta WHERE key = ?", [("claims:" + k,) for k in stale])
        for table in ("served", "deliveries", "delivered"):  # held, never confirmed: lapsed
            conn.execute(f"DELETE FROM {table} WHERE until < ?", (now,))
        self._sweep_files(now - IDLE_S)

    def _sweep_files(self, before: float) -> None:
        """Remove the per-session files next to the state file (snapshots, touch logs,
        settled-cue records: ``sessions/``) last written before ``before`` (seconds since
        the epoch): their sessions are forgotten. Idempotent, so a sweep whose write is
        retried may run it twice; a file that cannot be removed is left for next time."""
        if self.path == ":memory:":
            return
        folder = os.path.join(os.path.dirname(self.path), "sessions")
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return
        for entry in entries:
            try:
                if (
                    entry.is_file(follow_symlinks=False)
                    and entry.stat(follow_symlinks=False).st_mtime < before
                ):
                    os.unlink(entry.path)
            except OSError:
                continue


def role() -> Role:
    """How errors name the state file (:class:`memhooks.store.failures.Role`)."""
    from ..store.failures import Role

    return Role(
        ROLE_NAME,
        "MEMHOOKS_STATE_DIR",
        "remove it (it holds no memories; the sessions' ledgers start afresh)",
        "point MEMHOOKS_STATE_DIR at another folder",
    )


def _open(path: str, state: State) -> sqlite3.Connection:
    from ..store.connection import connect

    carried: list[tuple[object, ...]] | None = []
    for attempt in (1, 2):
        conn = None
        if path != ":memory:" and not os.path.exists(path):
            _create_private(path)  # also after a damaged file was moved aside
        try:
            conn = connect(path, create=True, timeout=BUSY_S, role=role())
            if _ready(conn):
                conn.execute(f"PRAGMA wal_autocheckpoint = {WAL_PAGES}")
                if carried:
                    from .rescue import carry

                    carry(conn, carried)
                return conn
        except caught("StoreError", sqlite3.DatabaseError) as exc:
            if conn is not None:
                conn.close()
            if attempt == 2 or not _damaged(exc):
                raise _state_error(path, exc) from None
            from .rescue import carried_note, journal_of, move_aside  # only for a file moved aside

            carried = journal_of(path)
            move_aside(path)
            state.replaced = (
                f"the memhooks state file {path} was damaged: moved to {path}.old and started"
                " afresh (sessions' ledgers are empty: memories may come once more)"
                + carried_note(carried)
            )
            continue
        conn.close()
        from .rescue import carried_note, journal_of, move_aside

        carried = journal_of(path)
        move_aside(path)  # another layout: working state only, start again
        state.replaced = (
            f"the memhooks state file {path} was written by another version of memhooks:"
            f" moved to {path}.old and started afresh" + carried_note(carried)
        )
    from ..errors import StoreError

    raise StoreError(
        f"the memhooks state file {path} could not be set up; remove it (it holds no memories)"
    )


def _create_private(path: str) -> None:
    """Create the state file empty, readable by its owner only (it holds prompts and what
    each session was given), in a folder only its owner can enter; SQLite gives its log
    files the database file's permissions. Failures are left to the open that follows."""
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600))
    except OSError:
        pass


def _damaged(exc: Exception) -> bool:
    """Whether ``exc`` says the file is not (or no longer) a database SQLite can read."""
    text = str(exc).lower()
    return any(
        m in text for m in ("not a sqlite database", "not a database", "damaged", "malformed")
    )


def _state_error(path: str, exc: Exception) -> StoreError:
    from ..errors import StoreError

    if isinstance(exc, StoreError) and ROLE_NAME in str(exc):
        return exc
    return unusable(path, getattr(exc, "strerror", None) or str(exc))


def unusable(path: str, reason: str, advice: str = "") -> StoreError:
    """The error for a state file at ``path`` that cannot be used, for ``reason``; what
    to do: ``advice`` (:func:`memhooks.store.failures.unwritable`'s: a read-only file is
    made writable, not its folder) or a writable folder."""
    from ..errors import StoreError

    todo = advice or f"make {os.path.dirname(path)} a writable folder"
    return StoreError(
        f"the memhooks state file {path} cannot be used ({reason}); {todo},"
        " or point MEMHOOKS_STATE_DIR at a writable folder"
    )


def _ready(conn: sqlite3.Connection) -> bool:
    """True when the tables are at :data:`VERSION` (creating them in an empty file,
    migrating an older layout in place: :data:`memhooks.session.layout.MIGRATE`)."""
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    if version == VERSION:
        return True
    from .layout import DDL, MIGRATE

    if version != 0 and version not in MIGRATE:
        return False
    conn.execute("BEGIN IMMEDIATE")
    try:
        (version,) = conn.execute("PRAGMA user_version").fetchone()  # another process won
        if version == 0:
            if conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                conn.execute("ROLLBACK")
                return False
            for statement in DDL:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {VERSION}")
        elif version != VERSION:
            while version in MIGRATE:
                for statement in MIGRATE[version]:
                    conn.execute(statement)
                version += 1
            conn.execute(f"PRAGMA user_version = {version}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return True
