"""Opening the SQLite file, write transactions that survive contention, and the
one place where ``sqlite3`` exceptions become :class:`~memhooks.errors.StoreError`.

Many short-lived hook processes write to one file at once. WAL lets readers run
beside a writer; writers queue on ``BEGIN IMMEDIATE`` (taking the write lock up
front, so no transaction ever has to upgrade a read lock and deadlock), wait in
SQLite's busy handler, and are retried here when SQLite gives up early.
"""

from __future__ import annotations

import os
import time

# memhooks.errors is imported to raise only: every hook call opens the state file
# through here, and the error tree cost ~1 M instructions of a call that raised nothing
from memhooks.fast import caught
from memhooks.fast import sqlite as sqlite3

from .failures import (
    SALVAGE,
    STORE,
    Role,
    kind,
    repair_side_files,
    to_store_error,
    undecodable,
    unencodable,
    unwritable,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import TracebackType
    from typing import TypeVar

    T = TypeVar("T")

#: Seconds a writer waits for the write lock before giving up (SQLite busy timeout
#: plus our own retries, which use the same deadline).
BUSY_TIMEOUT = 5.0
MEMORY = ":memory:"
__all__ = [
    "SALVAGE",
    "STORE",
    "CommittedInterrupt",
    "DamagedRow",
    "Role",
    "Translated",
    "connect",
    "connect_reader",
    "retry",
    "to_store_error",
    "write",
]


def connect(
    path: str, *, create: bool = True, timeout: float = BUSY_TIMEOUT, role: Role = STORE
) -> sqlite3.Connection:
    """Open ``path`` (creating its directory when ``create``) in WAL mode; ``role`` says
    how errors name the file (:mod:`memhooks.store.failures`).

    Raises :class:`StoreError` when the path is a directory, is missing and
    ``create`` is false, cannot be created, or is not a SQLite database.
    """
    if path != MEMORY:
        _prepare(path, create, role)
        repair_side_files(path)
    try:
        # isolation_level=None: we issue BEGIN/COMMIT ourselves. check_same_thread=False
        # lets a caller run a query in a worker thread to enforce a deadline.
        conn = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise to_store_error(path, exc, timeout, role) from exc
    try:
        with Translated(path, role):
            # Reading the journal mode is the first read of the file: a non-SQLite
            # file fails here, before anything is written to it.
            if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal" and path != MEMORY:
                retry(
                    path, timeout, lambda: conn.execute("PRAGMA journal_mode=WAL").fetchone(), role
                )
            # NORMAL is durable across application crashes in WAL mode and skips an
            # fsync per commit, which matters when every prompt writes.
            conn.execute("PRAGMA synchronous=NORMAL")
    except BaseException:
        conn.close()
        raise
    return conn


def connect_reader(
    path: str, *, timeout: float = BUSY_TIMEOUT
) -> tuple[sqlite3.Connection, str | None]:
    """Open an existing store to read it: ``(connection, None)`` as :func:`connect` does
    when the file can be written, else ``(read-only connection, why)`` — a read-only
    file system, folder or file, or a side file another user left (issue 22 item 2: a
    store on a read-only mount could not even be read). A write on a read-only
    connection fails with the error naming the file at fault.

    Raises :class:`StoreError` as :func:`connect` (``create=False``) does, and when the
    file cannot be read either.
    """
    try:
        return connect(path, create=False, timeout=timeout), None
    except caught("StoreError") as exc:
        cause = exc.__cause__
        if not (isinstance(cause, sqlite3.Error) and kind(cause) == "access"):
            raise
        opened = _read_only(path, timeout)
        if opened is None:
            raise
    why = unwritable(path)
    return opened, (why[0] if why else "SQLite could not open it for writing")


def _read_only(path: str, timeout: float) -> sqlite3.Connection | None:
    """A read-only connection to ``path``, or None. A WAL database with no ``-shm`` that
    can be made is opened as immutable — only when it has no log with pages in it, whose
    commits an immutable reader would miss."""
    from urllib.parse import quote

    uri = f"file:{quote(path)}?mode=ro"
    for immutable in (False, True):
        if immutable and os.path.exists(path + "-wal") and os.path.getsize(path + "-wal") > 0:
            return None
        try:
            conn = sqlite3.connect(
                uri + ("&immutable=1" if immutable else ""),
                uri=True,
                timeout=timeout,
                isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.Error:
            continue
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error:
            conn.close()
            continue
        return conn
    return None


def write(
    conn: sqlite3.Connection,
    path: str,
    timeout: float,
    work: Callable[[sqlite3.Connection], T],
    role: Role = STORE,
) -> T:
    """Run ``work(conn)`` inside ``BEGIN IMMEDIATE`` ... ``COMMIT``; roll back on any error.

    ``work`` may be run more than once (after a rollback) when the lock is busy,
    so it must not have effects outside the database. Raises :class:`StoreError`
    for SQLite failures, including a lock still held after ``timeout`` seconds.
    A ``KeyboardInterrupt`` leaves nothing written, except a :class:`CommittedInterrupt`
    (the interrupt came after the commit).
    """

    def attempt() -> T:
        conn.execute("BEGIN IMMEDIATE")
        try:
            result = work(conn)
            conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            elif isinstance(exc, KeyboardInterrupt) and not isinstance(exc, CommittedInterrupt):
                # Ctrl-C is acted on between bytecodes: one that arrives while COMMIT runs
                # surfaces after it, when the change is already in the file.
                raise CommittedInterrupt() from exc
            raise
        return result

    return retry(path, timeout, attempt, role)


def retry(path: str, timeout: float, attempt: Callable[[], T], role: Role = STORE) -> T:
    """Call ``attempt`` until it does not fail with SQLITE_BUSY/LOCKED or ``timeout``
    passes; other failures raise :class:`StoreError` naming the file as ``role`` does."""
    deadline = time.monotonic() + timeout
    delay = 0.002
    while True:
        try:
            return attempt()
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc) or time.monotonic() >= deadline:
                raise to_store_error(path, exc, timeout, role) from exc
        except sqlite3.Error as exc:
            raise to_store_error(path, exc, timeout, role) from exc
        except UnicodeDecodeError as exc:
            raise undecodable(path, exc, role) from exc
        except UnicodeEncodeError as exc:
            raise unencodable(path, exc, role) from exc
        # Jitter so that processes woken together do not collide again together.
        time.sleep(delay * (0.5 + os.urandom(1)[0] / 255))
        delay = min(delay * 2, 0.05)


class CommittedInterrupt(KeyboardInterrupt):
    """Ctrl-C (SIGINT) that arrived once the write had committed: unlike any other
    ``KeyboardInterrupt`` out of :func:`write`, the change is in the store."""


class DamagedRow(ValueError):
    """A stored value of a memory is not what memhooks writes (see :func:`undecodable`)."""

    def __init__(self, memory_id: object, field: str) -> None:
        super().__init__(f"memory {memory_id!r} has an unreadable `{field}`")
        self.memory_id = memory_id
        self.field = field


class Translated:
    """``with Translated(path):`` turns any ``sqlite3.Error`` raised inside — and the
    ``UnicodeDecodeError`` sqlite3 raises for a damaged text value, and a
    :class:`DamagedRow` — into a StoreError naming the file as ``role`` does."""

    __slots__ = ("path", "role")

    def __init__(self, path: str, role: Role = STORE) -> None:
        self.path = path
        self.role = role

    def __enter__(self) -> None:
        return None

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if isinstance(exc, sqlite3.Error):
            raise to_store_error(self.path, exc, role=self.role) from exc
        if isinstance(exc, UnicodeDecodeError):
            raise undecodable(self.path, exc, self.role) from exc
        if isinstance(exc, UnicodeEncodeError):
            raise unencodable(self.path, exc, self.role) from exc
        if isinstance(exc, DamagedRow):
            from memhooks.errors import StoreError

            raise StoreError(
                f"{self.role.name} {self.path} is damaged: {exc}; forget that memory, or "
                + self.role.damaged,
                path=self.path,
            ) from exc


def _is_busy(exc: sqlite3.Error) -> bool:
    return kind(exc) == "busy"


def _prepare(path: str, create: bool, role: Role = STORE) -> None:
    problem = _problem(path, create, role)
    if problem is None:
        return
    from memhooks.errors import MissingStoreError, StoreError  # to raise only (imports)

    missing, text, cause = problem
    raise (MissingStoreError if missing else StoreError)(text, path) from cause


def _problem(path: str, create: bool, role: Role) -> tuple[bool, str, OSError | None] | None:
    """Why ``path`` cannot be opened as a SQLite file — ``(no store yet, message,
    cause)`` — or None, its folder made when ``create``."""
    if os.path.isdir(path):
        return False, f"{role.name} path {path} is a directory; give the path of a file", None
    if os.path.exists(path):
        if not os.path.isfile(path):
            text = f"{role.name} path {path} is not a regular file (a device, a pipe or a socket)"
            return False, text + "; give the path of a file", None
        if not create and os.path.getsize(path) == 0:  # SQLite would write a schema into it
            return (
                True,
                f"{role.name} {path} is an empty file; record a memory or import some first",
                None,
            )
        return None
    if not create:
        return (
            True,
            f"there is no memory store at {path}; record a memory or import some first",
            None,
        )
    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    except OSError as exc:
        text = f"cannot create the folder for {role.name} {path}: {exc.strerror}; "
        return False, text + role.elsewhere, exc
    return None
