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

from memhooks import sqlite as sqlite3
from memhooks.errors import MissingStoreError, StoreError

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
#: What to do with a damaged store (every damage message ends with it).
SALVAGE = (
    "save every memory still readable with `memhooks memories export --salvage FILE`, "
    "move the store away, then `memhooks memories import FILE` into a new one"
)


def connect(path: str, *, create: bool = True, timeout: float = BUSY_TIMEOUT) -> sqlite3.Connection:
    """Open ``path`` (creating its directory when ``create``) in WAL mode.

    Raises :class:`StoreError` when the path is a directory, is missing and
    ``create`` is false, cannot be created, or is not a SQLite database.
    """
    if path != MEMORY:
        _prepare(path, create)
    try:
        # isolation_level=None: we issue BEGIN/COMMIT ourselves. check_same_thread=False
        # lets a caller run a query in a worker thread to enforce a deadline.
        conn = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise to_store_error(path, exc) from exc
    try:
        with Translated(path):
            # Reading the journal mode is the first read of the file: a non-SQLite
            # file fails here, before anything is written to it.
            if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal" and path != MEMORY:
                retry(path, timeout, lambda: conn.execute("PRAGMA journal_mode=WAL").fetchone())
            # NORMAL is durable across application crashes in WAL mode and skips an
            # fsync per commit, which matters when every prompt writes.
            conn.execute("PRAGMA synchronous=NORMAL")
    except BaseException:
        conn.close()
        raise
    return conn


def write(
    conn: sqlite3.Connection, path: str, timeout: float, work: Callable[[sqlite3.Connection], T]
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

    return retry(path, timeout, attempt)


def retry(path: str, timeout: float, attempt: Callable[[], T]) -> T:
    """Call ``attempt`` until it does not fail with SQLITE_BUSY/LOCKED or ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    delay = 0.002
    while True:
        try:
            return attempt()
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc) or time.monotonic() >= deadline:
                raise to_store_error(path, exc, timeout) from exc
        except sqlite3.Error as exc:
            raise to_store_error(path, exc, timeout) from exc
        except UnicodeDecodeError as exc:
            raise undecodable(path, exc) from exc
        except UnicodeEncodeError as exc:
            raise unencodable(path, exc) from exc
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
    :class:`DamagedRow` — into a StoreError."""

    __slots__ = ("path",)

    def __init__(self, path: str) -> None:
        self.path = path

    def __enter__(self) -> None:
        return None

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if isinstance(exc, sqlite3.Error):
            raise to_store_error(self.path, exc) from exc
        if isinstance(exc, UnicodeDecodeError):
            raise undecodable(self.path, exc) from exc
        if isinstance(exc, UnicodeEncodeError):
            raise unencodable(self.path, exc) from exc
        if isinstance(exc, DamagedRow):
            raise StoreError(
                f"the memory store {self.path} is damaged: {exc}; forget that memory, or "
                + SALVAGE
            ) from exc


def undecodable(path: str, exc: UnicodeDecodeError) -> StoreError:
    """A text value read back is not UTF-8: memhooks only writes UTF-8, so the file's
    bytes were changed under it (sqlite3 raises UnicodeDecodeError, not sqlite3.Error)."""
    return StoreError(
        f"the memory store {path} is damaged: a stored text is not valid UTF-8 "
        f"({exc.reason} at byte {exc.start}); " + SALVAGE
    )


def unencodable(path: str, exc: UnicodeEncodeError) -> StoreError:
    """A value handed to the store cannot be written as UTF-8 (a lone surrogate, or
    command-line bytes that were not UTF-8): the caller's input, not the file."""
    return StoreError(
        f"a value given to the memory store {path} is not valid Unicode at character "
        f"{exc.start + 1} (a lone surrogate, or bytes that were not UTF-8); write it as UTF-8"
    )


def to_store_error(path: str, exc: sqlite3.Error, timeout: float = BUSY_TIMEOUT) -> StoreError:
    """A StoreError that names the store file and says what the user can do."""
    message = str(exc)
    kind = _kind(exc)
    if kind == "notadb":
        return StoreError(
            f"{path} is not a SQLite database (SQLite: {message}); move the file away "
            "or point MEMHOOKS_STORE / --store at another path"
        )
    if kind == "corrupt":
        return StoreError(
            f"the memory store {path} is damaged (SQLite: {message}); " + SALVAGE
        )
    if kind == "busy":
        return StoreError(
            f"the memory store {path} stayed locked by another process for over {timeout:g} s "
            f"(SQLite: {message}); try again, and check for a stuck memhooks process"
        )
    if kind == "access":
        return StoreError(
            f"cannot open the memory store {path} for writing (SQLite: {message}); check the "
            "permissions of the file and its directory, or set MEMHOOKS_STORE"
        )
    return StoreError(
        f"the memory store {path} failed: {message}; if this repeats, the file may be "
        "damaged: " + SALVAGE
    )


# Primary SQLite result codes -> what we tell the user.
_KINDS = {5: "busy", 6: "busy", 8: "access", 11: "corrupt", 14: "access", 26: "notadb"}


def _kind(exc: sqlite3.Error) -> str:
    code = getattr(exc, "sqlite_errorcode", None)  # Python 3.11+
    if isinstance(code, int):
        return _KINDS.get(code & 0xFF, "other")
    message = str(exc).lower()
    for needle, kind in (
        ("not a database", "notadb"),
        ("malformed", "corrupt"),
        ("locked", "busy"),
        ("busy", "busy"),
        ("readonly", "access"),
        ("unable to open", "access"),
    ):
        if needle in message:
            return kind
    return "other"


def _is_busy(exc: sqlite3.Error) -> bool:
    return _kind(exc) == "busy"


def _prepare(path: str, create: bool) -> None:
    if os.path.isdir(path):
        raise StoreError(f"the memory store path {path} is a directory; give the path of a file")
    if os.path.exists(path):
        if not os.path.isfile(path):
            raise StoreError(
                f"the memory store path {path} is not a regular file (a device, a pipe or a "
                "socket); give the path of a file"
            )
        if not create and os.path.getsize(path) == 0:  # SQLite would write a schema into it
            raise MissingStoreError(
                f"the memory store {path} is an empty file; record a memory or import some first"
            )
        return
    if not create:
        raise MissingStoreError(
            f"there is no memory store at {path}; record a memory or import some first"
        )
    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    except OSError as exc:
        raise StoreError(
            f"cannot create the directory for the memory store {path}: {exc.strerror}; "
            "set MEMHOOKS_STORE to a writable location"
        ) from exc
