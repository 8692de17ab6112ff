"""What a failing SQLite file means to its user, in words that name the file at fault.

memhooks keeps two kinds of SQLite file: the memory store (memories: never to be moved
away lightly) and the state file (the hook's working state, which can be removed). A
:class:`Role` says how messages name each one and what they advise: :data:`STORE` here,
:data:`memhooks.session.state.ROLE` for the state file (issue 22 item 4: a state-file
problem reported as "the memory store", with "set MEMHOOKS_STORE" or "move the store
away", sent the user to the wrong file).

When SQLite cannot write, it says "unable to open database file" or "attempt to write a
readonly database" whichever file stopped it: the database, one of its side files
(``-wal``, ``-shm``), the folder they must be created in, or a read-only file system.
:func:`unwritable` looks, and the message names that one (issue 22 item 2: after
``chmod 444`` then ``644`` SQLite's leftover 0444 ``-shm`` kept every write failing while
the error blamed the store's permissions). :func:`repair_side_files` fixes what the user
owns.
"""

from __future__ import annotations

import os
import stat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from memhooks.errors import StoreError
    from memhooks.fast import sqlite as sqlite3

#: What to do with a damaged store (every damage message ends with it).
SALVAGE = (
    "save every memory still readable with `memhooks memories export --salvage FILE`, "
    "move the store away, then `memhooks memories import FILE` into a new one"
)
#: The side files SQLite keeps next to a database in WAL mode.
SIDE_FILES = ("-wal", "-shm")


class Role:
    """How messages name one kind of SQLite file: ``name`` (``the memory store``),
    ``setting`` (the variable or flag that moves it), ``damaged`` (what to do when it
    is damaged) and ``elsewhere`` (how to use another file instead)."""

    __slots__ = ("damaged", "elsewhere", "name", "setting")

    def __init__(self, name: str, setting: str, damaged: str, elsewhere: str) -> None:
        self.name = name
        self.setting = setting
        self.damaged = damaged
        self.elsewhere = elsewhere


STORE = Role(
    "the memory store",
    "MEMHOOKS_STORE",
    SALVAGE,
    "point MEMHOOKS_STORE / --store at another path",
)


def to_store_error(
    path: str, exc: sqlite3.Error, timeout: float = 5.0, role: Role = STORE
) -> StoreError:
    """A StoreError that names the file at fault and says what the user can do."""
    from memhooks.errors import StoreError  # to raise only: every hook call opens a file here

    message = str(exc)
    found = kind(exc)
    if found == "notadb":
        return StoreError(
            f"{role.name} {path} is not a SQLite database (SQLite: {message}); move the file away or "
            + role.elsewhere,
            path=path,
        )
    if found == "corrupt":
        return StoreError(
            f"{role.name} {path} is damaged (SQLite: {message}); {role.damaged}", path=path
        )
    if found == "busy":
        return StoreError(
            f"{role.name} {path} stayed locked by another process for over {timeout:g} s "
            f"(SQLite: {message}); try again, and check for a stuck memhooks process",
            path=path,
        )
    if found == "full":
        return StoreError(
            f"{role.name} {path} cannot grow: the disk holding it is full (SQLite: {message}); "
            f"nothing was written: free some space, or {role.elsewhere}",
            path=path,
        )
    if found == "access":
        why = unwritable(path)
        if why is None:
            why = (
                "SQLite could not open it for writing",
                f"check the permissions of the file and its folder, or {role.elsewhere}",
            )
        return StoreError(
            f"cannot write {role.name} {path}: {why[0]} (SQLite: {message}); {why[1]}", path=path
        )
    return StoreError(
        f"{role.name} {path} failed: {message}; if this repeats, the file may be "
        f"damaged: {role.damaged}",
        path=path,
    )


def undecodable(path: str, exc: UnicodeDecodeError, role: Role = STORE) -> StoreError:
    """A text value read back is not UTF-8: memhooks only writes UTF-8, so the file's
    bytes were changed under it (sqlite3 raises UnicodeDecodeError, not sqlite3.Error)."""
    from memhooks.errors import StoreError

    return StoreError(
        f"{role.name} {path} is damaged: a stored text is not valid UTF-8 "
        f"({exc.reason} at byte {exc.start}); {role.damaged}",
        path=path,
    )


def unencodable(path: str, exc: UnicodeEncodeError, role: Role = STORE) -> StoreError:
    """A value handed to the file cannot be written as UTF-8 (a lone surrogate, or
    command-line bytes that were not UTF-8): the caller's input, not the file."""
    from memhooks.errors import StoreError

    return StoreError(
        f"a value given to {role.name} {path} is not valid Unicode at character "
        f"{exc.start + 1} (a lone surrogate, or bytes that were not UTF-8); write it as UTF-8"
    )


# Primary SQLite result codes -> what we tell the user.
_KINDS = {5: "busy", 6: "busy", 8: "access", 11: "corrupt", 13: "full", 14: "access", 26: "notadb"}


def kind(exc: sqlite3.Error) -> str:
    """``busy``, ``access``, ``corrupt``, ``full``, ``notadb`` or ``other``."""
    code = getattr(exc, "sqlite_errorcode", None)  # Python 3.11+
    if isinstance(code, int):
        return _KINDS.get(code & 0xFF, "other")
    message = str(exc).lower()
    for needle, found in (
        ("not a database", "notadb"),
        ("malformed", "corrupt"),
        ("locked", "busy"),
        ("busy", "busy"),
        ("readonly", "access"),
        ("unable to open", "access"),
        ("disk is full", "full"),
    ):
        if needle in message:
            return found
    return "other"


def unwritable(path: str) -> tuple[str, str] | None:
    """``(what stands in the way, what to do)`` when the database at ``path`` cannot be
    written by this process, naming the file or folder at fault — a read-only file
    system, the database file, a side file, or the folder SQLite must create a side file
    in — or None when none of them visibly does."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        read_only_fs = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        read_only_fs = False
    if read_only_fs:
        advice = "remount it read-write, or use a file on a writable disk"
        return (f"the file system holding {folder} is mounted read-only", advice)
    if os.path.exists(path) and not os.access(path, os.W_OK):
        return (f"the file is read-only for you ({_mode(path)})", f"`chmod u+w {path}`")
    stuck = [
        path + suffix
        for suffix in SIDE_FILES
        if os.path.exists(path + suffix) and not os.access(path + suffix, os.W_OK)
    ]
    if stuck:
        what = ", ".join(f"{side} ({_mode(side)})" for side in stuck)
        names = " and ".join(stuck)
        # an index (-shm) and an empty log are rebuilt by SQLite; a log with pages in it
        # holds commits not yet in the database: removing it would lose them
        if all(side.endswith("-shm") or os.path.getsize(side) == 0 for side in stuck):
            advice = f"remove {names} while no memhooks process runs (SQLite makes new ones)"
        else:
            advice = (
                "have their owner run any memhooks command on it once (SQLite folds the log "
                "into the database), then remove them"
            )
        why = f"SQLite's side files are read-only for you: {what}; a read-only open or "
        return (
            why + "another user left them",
            f"{advice}, or have their owner make them writable for you",
        )
    if not os.access(folder, os.W_OK | os.X_OK) and not all(
        os.path.exists(path + suffix) for suffix in SIDE_FILES
    ):
        return (
            f"SQLite must create its side files in {folder}, which is read-only for you",
            f"make {folder} writable for you",
        )
    return None


def repair_side_files(path: str) -> None:
    """Give a side file of ``path`` that this process owns but may not write the
    database's permission bits, as SQLite does when it creates one: a ``-shm`` made
    0444 by a read-only open (the database was 0444 then) would otherwise keep every
    later write failing once the database is writable again. Files of other users are
    left alone (:func:`unwritable` names them); nothing here ever raises."""
    try:
        if not os.access(path, os.W_OK):
            return
        bits = stat.S_IMODE(os.stat(path).st_mode) & 0o666
        for suffix in SIDE_FILES:
            side = path + suffix
            found = os.lstat(side) if os.path.lexists(side) else None
            if (
                found is not None
                and stat.S_ISREG(found.st_mode)
                and found.st_uid == os.geteuid()
                and not os.access(side, os.W_OK)
            ):
                os.chmod(side, bits | stat.S_IWUSR | stat.S_IRUSR)
    except OSError:
        pass


def _mode(path: str) -> str:
    """``mode 0444, owned by uid 1000`` (the owner only when it is not us)."""
    try:
        found = os.stat(path)
    except OSError:
        return "mode unknown"
    owner = "" if found.st_uid == os.geteuid() else f", owned by uid {found.st_uid}"
    return f"mode {stat.S_IMODE(found.st_mode):04o}{owner}"
