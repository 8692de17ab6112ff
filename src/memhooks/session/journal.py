"""The maintenance journal: hook-file updates the hook accepted, kept until applied.

Hosts run hooks for parallel tool calls at once; on a loaded machine twenty PostToolUse
calls queue on the same hook file's lock and most reach their deadline before their turn
(issue 13 item 3: 15–20 of 20 anchor updates were lost). So a hook call first records
the update durably (one row in the state file, a few milliseconds), then applies *every*
pending update of its project in one pass under a per-project applier lock, and deletes
the rows it applied. A call that cannot get the lock in time leaves its row: the holder
applies it before it lets go (it loops until nothing is pending), or the next hook call
of the project does. Applying is idempotent (adding a file already in a cue changes
nothing), so a call killed half-way is simply repeated.

An update that keeps failing (the root hook became invalid, say) is retried on the next
:data:`MAX_ATTEMPTS` calls and then dropped with a note that names the diagnostic —
never silently.
"""

from __future__ import annotations

import os
import time

from ..fast.jsonfast import dumps, loads

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Callable

    from .state import State

MAX_ATTEMPTS = 3
#: Most pending rows applied in one pass (a burst beyond it is applied by later passes).
BATCH = 256


def accept(state: State, root: str, work: dict[str, object]) -> int:
    """Record ``work`` (JSON-able) for ``root``; returns its row id."""
    now = state.clock()
    text = dumps({"attempts": 0, **work})

    def insert(conn: sqlite3.Connection) -> int:
        cursor = conn.execute(
            "INSERT INTO journal (root, at, work) VALUES (?, ?, ?)", (root, now, text)
        )
        return int(cursor.lastrowid or 0)

    return state.write(insert)


def pending(state: State, root: str) -> bool:
    """Whether ``root`` has updates waiting (one indexed read)."""
    return bool(state.read("SELECT 1 FROM journal WHERE root = ? LIMIT 1", (root,)))


def drain(
    state: State,
    root: str,
    apply: Callable[[list[dict[str, object]]], list[str]],
    deadline: float,
    *,
    wait_until: float | None = None,
) -> tuple[list[str], list[str]]:
    """Apply ``root``'s pending updates with ``apply(works) -> hook files written`` until
    none is left or ``deadline`` (monotonic seconds) passes, holding the project's
    applier lock, waited for until ``wait_until`` (default: ``deadline``). Returns (hook
    files written, notes). ``apply`` raising a :class:`~memhooks.errors.MemhooksError`
    counts one failed attempt for the batch."""
    from ..errors import MemhooksError

    written: list[str] = []
    notes: list[str] = []
    lock = _lock(state, root, deadline if wait_until is None else min(deadline, wait_until))
    if lock is None:
        return written, notes  # the holder applies ours before it lets go
    try:
        while time.monotonic() < deadline:
            rows = state.read(
                "SELECT id, work FROM journal WHERE root = ? ORDER BY id LIMIT ?", (root, BATCH)
            )
            if not rows:
                break
            works: list[dict[str, object]] = [loads(str(work)) for _id, work in rows]  # type: ignore[misc]
            ids = [int(i) for i, _work in rows]  # type: ignore[call-overload]
            try:
                for path in apply(works):
                    if path not in written:
                        written.append(path)
            except MemhooksError as exc:
                notes.append(_failed(state, ids, works, exc))
                break
            state.write(_deleter(ids))
    finally:
        os.close(lock)
    return written, notes


def _deleter(ids: list[int]) -> Callable[[sqlite3.Connection], None]:
    """The write deleting rows ``ids`` (a closure: :mod:`functools` is not loaded here)."""

    def delete(conn: sqlite3.Connection) -> None:
        conn.executemany("DELETE FROM journal WHERE id = ?", [(i,) for i in ids])

    return delete


def _failed(state: State, ids: list[int], works: list[dict[str, object]], exc: Exception) -> str:
    """Count a failed attempt on each row; drop those out of attempts. Returns the note."""
    keep: list[tuple[str, int]] = []
    drop: list[tuple[int]] = []
    for row_id, work in zip(ids, works):
        attempts = _attempts(work) + 1
        if attempts < MAX_ATTEMPTS:
            keep.append((dumps({**work, "attempts": attempts}), row_id))
        else:
            drop.append((row_id,))

    def update(conn: sqlite3.Connection) -> None:
        conn.executemany("UPDATE journal SET work = ? WHERE id = ?", keep)
        conn.executemany("DELETE FROM journal WHERE id = ?", drop)

    state.write(update)
    from ..errors import one_line

    # one coded note of the hook's stderr line: the code, then the hook file and what to do
    if drop:
        return one_line(
            exc,
            f"hook maintenance dropped {len(drop)} update(s) after {MAX_ATTEMPTS} failed attempts: ",
        )
    return one_line(exc, "hook maintenance failed (kept, retried by the next hook call): ")


def _attempts(work: dict[str, object]) -> int:
    value = work.get("attempts", 0)
    return value if isinstance(value, int) else 0


def _lock(state: State, root: str, deadline: float) -> int | None:
    """An open file descriptor holding the exclusive applier lock of ``root`` (released
    by closing it), or None when it could not be had before ``deadline``."""
    import fcntl

    from ..cachefile import key_name

    name = "journal-" + key_name(root)
    path = os.path.join(os.path.dirname(state.path), name + ".lock")
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0), 0o600)
    delay = 0.002
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() + delay >= deadline:
                os.close(fd)
                return None
            time.sleep(delay)
            delay = min(delay * 2, 0.05)
