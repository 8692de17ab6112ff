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

An update for a hook file that does not validate (the root hook, or the folder's hook:
invalid YAML, say) waits for the fix: it is kept, not counted as a failed attempt while
the file is unchanged, said once to the session that made it, and applied by the first
pass after the file changed (:mod:`.waiting`). An update that keeps failing otherwise
(a lock timeout, an I/O error) is retried on the next :data:`MAX_ATTEMPTS` calls and then
dropped with a note that names the diagnostic and the files it was for — never silently.
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
    who: str | None = None,
) -> tuple[list[str], list[str]]:
    """Apply ``root``'s pending updates with ``apply(works) -> hook files written`` until
    none is left or ``deadline`` (monotonic seconds) passes, holding the project's
    applier lock, waited for until ``wait_until`` (default: ``deadline``). Returns (hook
    files written, notes for the caller, each one coded line).

    ``apply`` raising :class:`~memhooks.protocol.hookfile.InvalidHookError` (a hook file
    it had to edit does not validate) leaves the rows waiting for that file
    (:mod:`.waiting`: not tried again, nor counted, until the file changes); a batch of
    several rows is then tried row by row, so an update of another hook file is not held
    with it. Any other :class:`~memhooks.errors.MemhooksError` counts one failed attempt
    for the batch. ``who``: the calling session (the identity journal rows carry), told
    of its own waiting rows once; other sessions' waiting rows are never said to it.
    None (``memhooks maintain``): every waiting row is said."""
    from ..errors import MemhooksError
    from ..protocol.hookfile import InvalidHookError

    written: list[str] = []
    notes: list[str] = []
    lock = _lock(state, root, deadline if wait_until is None else min(deadline, wait_until))
    if lock is None:
        return written, notes  # the holder applies ours before it lets go
    tried: set[int] = set()  # a row is tried once per pass
    try:
        while time.monotonic() < deadline:
            ready, held = _rows(state, root, tried, who=who)
            if held and who is not None and not tried:
                notes += _tell(state, root, held, who)  # what waited since its last call
            if not ready:
                break
            moved = [row for row in ready if "waits" in row[1]]  # ready: changed, or gone
            if moved:  # each alone: a deleted hook's update is said with where it went
                tried.update(i for i, _work in moved)
                notes += _one_by_one(state, root, apply, moved, None, held, who, deadline, written)
                continue
            ids = [i for i, _work in ready]
            tried.update(ids)
            try:
                for path in apply([w for _i, w in ready]):
                    if path not in written:
                        written.append(path)
            except InvalidHookError as exc:
                notes += _one_by_one(state, root, apply, ready, exc, held, who, deadline, written)
                continue
            except MemhooksError as exc:
                notes.append(_failed(state, root, ready, exc))
                break
            state.write(_deleter(ids))
        if who is None:  # a person asked: everything still waiting, said again
            held = _rows(state, root, set(), ready=False)[1]
            notes += _tell(state, root, held, None)
    finally:
        os.close(lock)
    return written, notes


def _tell(state: State, root: str, held: list[Row], who: str | None) -> list[str]:
    """:func:`.waiting.tell`'s notes, its updates written."""
    from . import waiting

    updates, notes = waiting.tell(held, who, root)
    if updates:
        state.write(waiting.store(updates, []))
    return notes


Row = tuple[int, dict[str, object]]


def _rows(
    state: State, root: str, tried: set[int], *, ready: bool = True, who: str | None = None
) -> tuple[list[Row], list[Row]]:
    """``root``'s rows to apply now (at most :data:`BATCH`, none of ``tried``), and the
    rows waiting for a broken hook file that did not change (:func:`.waiting.ready`), or
    that was deleted, on a call of another session than ``who``'s (:func:`.waiting.gone`:
    its own session's pass applies it and says so). ``ready=False``: every waiting row is
    held, changed or not."""
    out: list[Row] = []
    held: list[Row] = []
    after = 0
    while len(out) < BATCH:
        rows = state.read(
            "SELECT id, work FROM journal WHERE root = ? AND id > ? ORDER BY id LIMIT ?",
            (root, after, BATCH),
        )
        for row_id, text in rows:
            after = int(row_id)  # type: ignore[call-overload]
            work: dict[str, object] = loads(str(text))  # type: ignore[assignment]
            if "waits" in work:
                from .waiting import gone
                from .waiting import ready as may

                if (
                    after in tried
                    or not ready
                    or not may(work)
                    or (who is not None and work.get("who") != who and gone(work))
                ):
                    held.append((after, work))
                    continue
            elif after in tried:
                continue
            if len(out) < BATCH:
                out.append((after, work))
        if len(rows) < BATCH:
            break
    return out, held


def _one_by_one(
    state: State,
    root: str,
    apply: Callable[[list[dict[str, object]]], list[str]],
    rows: list[Row],
    exc: Exception | None,
    held: list[Row],
    who: str | None,
    deadline: float,
    written: list[str],
) -> list[str]:
    """After a batch failed on a broken hook file (``exc``), or for rows that waited for
    one (``exc`` None): each row on its own (until ``deadline``; the rest wait for the
    next pass) — applied and deleted, left waiting for the file (:func:`.waiting.hold`),
    or counted as a failed attempt. A waiting row whose hook file was deleted, applied on
    its session's call, is said with where it went (:func:`.waiting.moved`). Returns
    notes."""
    from ..errors import MemhooksError
    from ..protocol.hookfile import InvalidHookError
    from . import waiting

    notes: list[str] = []
    for n, row in enumerate(rows):
        failed = exc
        if exc is None or len(rows) > 1:
            if n and time.monotonic() >= deadline:
                break
            gone = exc is None and who is not None and waiting.gone(row[1])
            try:
                done = apply([row[1]])
            except InvalidHookError as one:
                failed = one
            except MemhooksError as one:
                notes.append(_failed(state, root, [row], one))
                continue
            else:
                written += [path for path in done if path not in written]
                state.write(_deleter([row[0]]))
                if gone:
                    notes.append(waiting.moved(row[1], done, root))
                continue
        assert isinstance(failed, InvalidHookError)
        updates, deleted, told = waiting.hold([row], failed, held, who, root)
        state.write(waiting.store(updates, deleted))
        notes += told
    return notes


def _deleter(ids: list[int]) -> Callable[[sqlite3.Connection], None]:
    """The write deleting rows ``ids`` (a closure: :mod:`functools` is not loaded here)."""

    def delete(conn: sqlite3.Connection) -> None:
        conn.executemany("DELETE FROM journal WHERE id = ?", [(i,) for i in ids])

    return delete


def _failed(state: State, root: str, rows: list[Row], exc: Exception) -> str:
    """Count a failed attempt on each row; drop those out of attempts. Returns the note,
    which names the files of the updates dropped."""
    keep: list[tuple[str, int]] = []
    drop: list[tuple[int]] = []
    dropped: list[object] = []
    for row_id, work in rows:
        attempts = _attempts(work) + 1
        if attempts < MAX_ATTEMPTS:
            keep.append((dumps({**work, "attempts": attempts}), row_id))
        else:
            drop.append((row_id,))
            files = work.get("files")
            dropped += files if isinstance(files, list) else []

    def update(conn: sqlite3.Connection) -> None:
        conn.executemany("UPDATE journal SET work = ? WHERE id = ?", keep)
        conn.executemany("DELETE FROM journal WHERE id = ?", drop)

    state.write(update)
    from ..errors import one_line

    # one coded note of the hook's stderr line: the code, then the hook file and what to do
    if drop:
        from .waiting import named

        return one_line(
            exc,
            f"hook maintenance dropped {len(drop)} update(s)"
            + (f" (edits of {named(dropped, root)})" if dropped else "")
            + f" after {MAX_ATTEMPTS} failed attempts: ",
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
