"""The session ledger's claim journal: what a pre-tool edit claims without SQLite.

A pre-tool edit that tells the owners of its lines is the hook call an agent waits on
most; the state file was ~9 M of its ~72 M instructions (the ``sqlite3`` extension, the
state file's modules, ~24 statements; docs/performance.md "Nineteenth session"). Such an
edit claims here instead (:mod:`.edit_session`), and every write of the session's ledger
in SQLite folds what was claimed here first: one ledger, two doors, one lock. Beside the
session's snapshot (:func:`memhooks.session.snapshot.claims_paths`):

=============== =====================================================================
``<id>.claims`` the journal: a JSON line per claim (items, characters, held until,
                epoch, event, target: a ``deliveries`` row to be) and per confirmation
                (the hold it confirms, its characters); appended only. Its ``flock``
                is the lock every claim of the session takes.
``<id>.ledger`` the mirror: the ledger as the last SQLite write left it (epoch, items
                and their holds, tool-time characters spent and held, the state file
                it mirrors, how far of the journal it folded), written whole under
                the lock (:func:`memhooks.cachefile.write`).
=============== =====================================================================

A write of the ledger in SQLite (:class:`memhooks.session.record.Session`, mirrored:
:mod:`.mirror`) takes the lock inside its transaction, folds the journal past the offset the state file
keeps (``meta`` ``claims:<key>``, in the same transaction: a write rolled back folds
again), decides as always, and writes the mirror before letting go. A pre-tool edit
takes the lock alone, reads the mirror and the journal past it (:class:`View`), and
appends. Both see every claim before they make one: each commit still reaches a session
once, parallel calls claim an item once, a hold not confirmed lapses, and the tool-time
ceiling is checked in the step that charges it. Lock order: the state file's write
lock, then this one; the edit takes only this one. A mirror of another state file
(moved aside, ``MEMHOOKS_STATE_DIR`` changed), or none, sends the edit to SQLite, which
writes one; without ``fcntl`` (Windows) edits take SQLite as before. A line that does
not parse (torn by a crash) or holds another shape (changed by hand) is skipped.
"""

from __future__ import annotations

import os
import time

from .. import cachefile
from ..fast.jsonfast import dumps, loads

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Self

#: The mirror's layout (a mirror of another is no mirror: SQLite writes a new one).
VERSION = 1
#: Seconds between two tries of a lock another call holds.
POLL_S = 0.002

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no journal, SQLite alone
    fcntl = None  # type: ignore[assignment]


def available() -> bool:
    """Whether the journal can be locked here (``fcntl``)."""
    return fcntl is not None


class Journal:
    """The session's journal, open and locked (``with``: released at the end). Raises
    OSError when it cannot be opened, or TimeoutError when another call holds its lock
    past ``deadline`` (monotonic seconds)."""

    __slots__ = ("fd", "folded", "path")

    def __init__(self, path: str, deadline: float) -> None:
        self.path = path
        self.folded = 0  # the offset past the last record folded into SQLite (fold)
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        flags = os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC | os.O_NOFOLLOW
        self.fd = os.open(path, flags, 0o600)
        try:
            while True:
                try:
                    fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except (BlockingIOError, InterruptedError):
                    if time.monotonic() >= deadline:
                        raise TimeoutError(f"the session's claim journal {path} stayed locked")
                    time.sleep(POLL_S)
        except BaseException:
            os.close(self.fd)
            raise

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)  # the last descriptor of the open file: the flock goes with it

    def records(self, start: int) -> tuple[list[dict[str, Any]], int]:
        """The records past byte ``start`` and the offset after the last whole line."""
        return _records(self.fd, start)

    def append(self, record: dict[str, object]) -> None:
        """Add ``record`` as a line of its own: after a line a crash left torn too."""
        line = (dumps(record) + "\n").encode("utf-8")
        size = os.fstat(self.fd).st_size
        if size and os.pread(self.fd, 1, size - 1) != b"\n":
            line = b"\n" + line  # the torn line stays unparsable; this one stands
        os.write(self.fd, line)


def _records(fd: int, start: int) -> tuple[list[dict[str, Any]], int]:
    size = os.fstat(fd).st_size
    if size <= start:
        return [], start
    data = os.pread(fd, size - start, start)
    whole = data.rfind(b"\n") + 1
    found = []
    for line in data[:whole].splitlines():
        try:
            record = loads(line)
        except ValueError:
            continue  # torn by a crash: never confirmed, never counted
        if _valid(record):
            found.append(record)
    return found, start + whole


def _valid(record: object) -> bool:
    """Whether ``record`` is a claim or a confirmation as :class:`Journal` writes them (a
    line changed by hand is skipped, as a torn one is: it never blocks the ledger)."""
    if not isinstance(record, dict):
        return False
    number = (int, float)
    if "ok" in record:
        return isinstance(record["ok"], number) and isinstance(record.get("c", 0), int)
    items = record.get("i")
    return (
        isinstance(record.get("e"), int)
        and isinstance(record.get("at"), number)
        and isinstance(record.get("n"), str)
        and isinstance(record.get("t"), str)
        and isinstance(record.get("c"), int)
        and isinstance(record.get("u"), number)
        and isinstance(items, list)
        and all(isinstance(i, dict) and isinstance(i.get("item"), str) for i in items)
    )


def load_mirror(path: str) -> dict[str, Any] | None:
    """The mirror at ``path``, or None (none, unreadable, another layout)."""
    try:
        data = loads(cachefile.read(path))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("v") == VERSION else None


def identity(state_path: str) -> list[int] | None:
    """The state file's ``[device, inode]`` (None: there is none)."""
    try:
        st = os.stat(state_path)
    except OSError:
        return None
    return [st.st_dev, st.st_ino]


class View:
    """The ledger as the mirror and the journal past it say it is at ``now``: ``epoch``,
    ``items`` (live: standing, or held by a call that may still confirm), ``standing``
    (items no call holds), ``tool_chars`` (standing tool-time characters) and ``spent``
    (those and the live held ones: what a ceiling is checked against)."""

    __slots__ = ("epoch", "items", "spent", "standing", "tool_chars")

    def __init__(self, mirror: dict[str, Any], records: list[dict[str, Any]], now: float) -> None:
        self.epoch = int(mirror["epoch"])
        confirmed = {float(r["ok"]): int(r.get("c") or 0) for r in records if "ok" in r}
        held: dict[str, float] = {}
        self.standing: set[str] = set()
        for item, until in mirror["items"].items():
            if until is None or float(until) in confirmed:
                self.standing.add(item)
            elif float(until) > now:
                held[item] = float(until)
        self.tool_chars = int(mirror["tool_chars"])
        spent_held = 0
        for chars, until in mirror["held"]:
            if float(until) in confirmed:
                self.tool_chars += int(chars)
            elif float(until) > now:
                spent_held += int(chars)
        for record in records:
            if "ok" in record or record.get("e") != self.epoch:
                continue
            until = float(record["u"])
            names = [str(i["item"]) for i in record["i"]]
            chars = int(record["c"]) if record.get("tool") else 0
            if until in confirmed:
                self.standing.update(names)
                self.tool_chars += chars
            elif until > now:
                held.update(dict.fromkeys(names, until))
                spent_held += chars
        self.items = self.standing | held.keys()
        self.spent = self.tool_chars + spent_held


def peek(path: str, start: int) -> list[dict[str, Any]]:
    """The journal's records past byte ``start``, read without its lock (a view that the
    claim checks again under it); none when it cannot be read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError:
        return []
    try:
        return _records(fd, start)[0]
    except OSError:
        return []
    finally:
        os.close(fd)
