"""The embedded store's state as the state folder keeps it, and the files of rows kept
beside it: what a call learnt of a store, trusted by later calls (of any session) while
the store is still as it was.

A store's state (:func:`store_state`) is its file's key and an empty write-ahead log;
:func:`still` says whether a kept state holds. Two files of the state folder keep rows
keyed by a project's root and a store's real path, each row a list whose first item is
the state it was read at: ``sessions/_quiet.json`` (the store holds only commits'
memories: :mod:`memhooks.session.edits`) and ``sessions/_marks.json`` (what it says of
the project's commits: :mod:`memhooks.session.marks`). :func:`current` reads a row
while its store is as it was, :func:`keep` adds one and drops those whose store changed
since.

Only ``os`` is imported here (and :mod:`memhooks.filestate` to compare a file's state).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def store_state(store: str) -> list[object] | None:
    """The state of the embedded store at ``store`` (its file): ``[store, its key]``
    (:func:`memhooks.filestate.key`). Take it *before* the store is asked. None when there
    is no store, its key is too recent to trust (a write in the same clock tick could keep
    it: :data:`memhooks.filestate.RACY_NS`), or its write-ahead log holds anything — a
    commit there has not reached the file yet (each connection makes and removes an empty
    log: only its size says something; https://sqlite.org/wal.html)."""
    from ..filestate import key, racy

    store = os.path.realpath(store)  # a store reached by a symlink: the database's own
    try:  # state, and its log beside it (lstat of the link never changes)
        st = os.lstat(store)
    except OSError:
        return None
    if racy(st) or _logged(store):
        return None
    return [store, list(key(st))]


def still(state: object) -> bool:
    """Whether the store a kept ``state`` (:func:`store_state`) names is as it was."""
    if not isinstance(state, list) or len(state) != 2 or not isinstance(state[0], str):
        return False
    from ..filestate import unchanged

    return unchanged(state[0], state[1]) and not _logged(state[0])


def _logged(store: str) -> bool:
    """Whether the write-ahead log of ``store`` holds anything (or cannot be read)."""
    try:
        return os.lstat(store + "-wal").st_size > 0
    except FileNotFoundError:
        return False
    except OSError:
        return True


def _file(state_dir: str, name: str) -> str:
    return os.path.join(state_dir, "sessions", f"_{name}.json")  # no session's file name


def current(state_dir: str, name: str, key: str) -> list[Any] | None:
    """The row kept under ``key`` in ``sessions/_<name>.json`` (JSON as it was written)
    while the store its state (``row[0]``) names is as it was (:func:`still`); else None."""
    row = _rows(state_dir, name).get(key)
    return row if isinstance(row, list) and _standing(row) else None


def _standing(row: object) -> bool:
    """Whether ``row`` is a kept row whose store is as it was when it was read."""
    return isinstance(row, list) and bool(row) and still(row[0])


def _rows(state_dir: str, name: str) -> dict[str, object]:
    """The rows kept in ``sessions/_<name>.json`` (``{}``: none, or unreadable)."""
    from .. import cachefile
    from ..fast.jsonfast import loads

    try:
        found = loads(cachefile.read(_file(state_dir, name)))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def keep(state_dir: str, name: str, key: str, row: list[object]) -> None:
    """Keep ``row`` (its first item the state it was read at) under ``key`` in
    ``sessions/_<name>.json``, dropping the rows whose store changed since (:func:`still`).
    Best effort: a failed write only costs the next call a look at the store."""
    from .. import cachefile
    from ..fast.jsonfast import dumps

    kept = {k: found for k, found in _rows(state_dir, name).items() if _standing(found)}
    kept[key] = row
    cachefile.write(_file(state_dir, name), dumps(kept), mode=0o700)
