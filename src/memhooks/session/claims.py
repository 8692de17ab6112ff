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
import stat
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
    """The session's journal, open and locked (``with``: released at the end); ``ident``:
    the id its first line gave it when it was made (a journal made again — removed,
    emptied, swept — has another, so no offset kept for the old one is read in it).
    Raises OSError when it cannot be opened (or is not a regular file: a FIFO in its
    place never blocks a call), :class:`~memhooks.errors.StoreError` (MH037) when another
    call holds its lock past ``deadline`` (monotonic seconds)."""

    __slots__ = ("fd", "folded", "ident", "path")

    def __init__(self, path: str, deadline: float) -> None:
        self.path = path
        self.folded = ""  # where the fold reached: "ident:offset" (mirror.fold)
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        self.fd = _open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND)
        try:
            while True:
                try:
                    fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except (BlockingIOError, InterruptedError):
                    if time.monotonic() >= deadline:
                        from ..errors import StoreError  # to raise only

                        raise StoreError(
                            f"the session's claim journal {path} stayed locked by another"
                            " memhooks process; if none is running, remove the file"
                            " (its claims not yet folded come again)",
                            path,
                        )
                    time.sleep(POLL_S)
            self.ident = _ident(self.fd)
            if not self.ident and not os.fstat(self.fd).st_size:  # made now, or emptied: its
                # id first, under the lock (one whose first line is no id keeps "" as its id)
                self.ident = os.urandom(8).hex()
                os.write(self.fd, (dumps({"journal": self.ident}) + "\n").encode("utf-8"))
        except BaseException:
            os.close(self.fd)
            raise

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)  # the last descriptor of the open file: the flock goes with it

    def records(self, kept: str | None) -> tuple[list[dict[str, Any]], str]:
        """The records past ``kept`` (``"ident:offset"``) and where they end, as ``kept``
        says it: from the start when it names another journal, or an offset past the
        end (the journal cut short since: what was appended after the cut lies below
        it; folding is idempotent, :func:`memhooks.session.mirror.fold`)."""
        return _records(self.fd, kept, self.ident)[:2]

    def whole(self, kept: str | None) -> bool:
        """Whether the journal still reaches ``kept``: not made again, not cut short —
        a view of the ledger from a mirror that folded to there holds (an edit's)."""
        return _records(self.fd, kept, self.ident)[2]

    def append(self, record: dict[str, object]) -> None:
        """Add ``record`` as a line of its own: after a line a crash left torn too."""
        line = (dumps(record) + "\n").encode("utf-8")
        size = os.fstat(self.fd).st_size
        if size and os.pread(self.fd, 1, size - 1) != b"\n":
            line = b"\n" + line  # the torn line stays unparsable; this one stands
        os.write(self.fd, line)


def _open(path: str, flags: int) -> int:
    """A descriptor of the regular file ``path`` (never through a symlink, never
    waiting on a FIFO in its place). Raises OSError."""
    fd = os.open(path, flags | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK, 0o600)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(f"not a regular file: {path}")
    return fd


def _ident(fd: int) -> str:
    """The id the journal's first line gives it ("": none, it is empty)."""
    head = os.pread(fd, 64, 0).partition(b"\n")[0]
    try:
        found: object = loads(head) if head.startswith(b"{") else None
    except ValueError:
        found = None
    ident = found.get("journal") if isinstance(found, dict) else None
    return ident if isinstance(ident, str) else ""


#: The line a write of the state file appends when it could neither write the mirror nor
#: remove it (a ``sessions/`` folder that takes no file): the mirror before it is stale.
STALE: dict[str, object] = {"stale": 1}


def _records(fd: int, kept: str | None, ident: str) -> tuple[list[dict[str, Any]], str, bool]:
    """The records past ``kept``, where they end, and whether ``kept`` still held (the
    same journal, an offset within it — else the records are all of them — and no
    :data:`STALE` line past it)."""
    size = os.fstat(fd).st_size
    given, _, offset = (kept or "").partition(":")
    holds = given == ident and offset.isdigit() and int(offset) <= size
    start = int(offset) if holds else 0
    data = os.pread(fd, size - start, start) if size > start else b""
    whole = data.rfind(b"\n") + 1
    found: list[dict[str, Any]] = []
    for line in data[:whole].splitlines():
        try:
            record = loads(line)
        except ValueError:
            continue  # torn by a crash: never confirmed, never counted
        if record == STALE:
            holds = False
        elif _valid(record):
            found.append(record)  # type: ignore[arg-type]  # a dict: _valid
    return found, f"{ident}:{start + whole}", holds


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
    if not isinstance(data, dict) or data.get("v") != VERSION:
        return None
    shaped = (
        isinstance(data.get("epoch"), int)
        and isinstance(data.get("tool_chars"), int)
        and isinstance(data.get("folded"), str)
        and isinstance(data.get("items"), dict)
        and isinstance(data.get("held"), list)
        and all(isinstance(h, list) and len(h) == 2 for h in data["held"])
    )
    return data if shaped else None  # one changed by hand: the state file writes another


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


def peek(
    path: str, kept: str | None, *, write: bool = False
) -> tuple[str, list[dict[str, Any]]] | None:
    """``(the journal's id, its records past kept)`` read without its lock (a view the
    claim checks again under it); None when it cannot be read — or, with ``write``,
    written, or does not reach ``kept`` any more (made again, cut short): a session
    whose journal cannot be used that way takes the state file."""
    try:
        fd = _open(path, os.O_RDWR | os.O_APPEND if write else os.O_RDONLY)
    except OSError:
        return None
    try:
        ident = _ident(fd)
        records, _end, holds = _records(fd, kept, ident)
        if write and not (holds and ident):  # one with no id of its own: the state file's
            return None
        return ident, records
    except OSError:
        return None
    finally:
        os.close(fd)
