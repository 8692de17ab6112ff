"""What a state file moved aside hands over: the maintenance journal (hook updates the
hook accepted and has not applied yet, issue 22 item 3) is read before the file is moved
aside (:func:`journal_of`), written into the new one (:func:`carry`), and the note saying
so (:func:`carried_note`); the move itself (:func:`move_aside`). Imported only when a
state file is replaced."""

from __future__ import annotations

import os
from urllib.parse import quote

from ..errors import StoreError
from ..fast import sqlite as sqlite3
from ..fast.jsonfast import loads


def journal_of(path: str) -> list[tuple[object, ...]] | None:
    """The journal rows ``(root, at, work)`` of the state file at ``path`` (any layout
    with that table; ``[]`` without one), read before it is moved aside so the hook
    updates they hold are not lost (issue 22 item 3); None when they cannot be read."""
    try:
        conn = sqlite3.connect(f"file:{quote(path)}?mode=ro", uri=True, isolation_level=None)
    except sqlite3.Error:
        return None
    try:
        found = conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'journal'")
        if not found.fetchone()[0]:
            return []
        rows = conn.execute("SELECT root, at, work FROM journal ORDER BY id").fetchall()
        return [r for r in rows if isinstance(r[0], str) and isinstance(r[2], str)]
    except sqlite3.Error:
        return None
    finally:
        conn.close()


def carry(conn: sqlite3.Connection, rows: list[tuple[object, ...]]) -> None:
    """Journal ``rows`` (rescued from the file moved aside) into the new state file."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.executemany("INSERT INTO journal (root, at, work) VALUES (?, ?, ?)", rows)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def carried_note(rows: list[tuple[object, ...]] | None) -> str:
    """What the note says of the journal of a replaced state file."""
    if rows is None:
        return (
            "; its journal could not be read: hook updates accepted and not yet applied are"
            " lost (edit those files again, or run `memhooks event` for them)"
        )
    if not rows:
        return ""
    edited = sorted({str(f[1]) for r in rows for f in _files(_work(r[2]))})
    return (
        f"; the {len(rows)} accepted hook update(s) it held (edits of {', '.join(edited)})"
        " were carried over and are applied by the next hook call"
    )


def _files(work: dict[str, object]) -> list[list[object]]:
    """The ``[action, path, ...]`` entries of a journal row's work."""
    files = work.get("files")
    return (
        [f for f in files if isinstance(f, list) and len(f) > 1] if isinstance(files, list) else []
    )


def _work(text: object) -> dict[str, object]:
    """A journal row's work (``{}`` when it is not a JSON object)."""
    try:
        work = loads(str(text))
    except ValueError:
        return {}
    return work if isinstance(work, dict) else {}


def move_aside(path: str) -> None:
    """Move the state file at ``path`` and its side files to ``<name>.old``. Raises
    StoreError when one cannot be moved."""
    for suffix in ("", "-wal", "-shm"):
        try:
            os.replace(path + suffix, path + ".old" + suffix)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise StoreError(
                f"the memhooks state file {path} is damaged and cannot be moved aside "
                f"({exc.strerror}); remove it (it holds no memories)"
            ) from exc
