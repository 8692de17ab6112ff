"""Journal rows that wait for a broken hook file (:mod:`.journal`).

An accepted update for a hook file that does not validate as read (invalid YAML, a
wrong schema, not UTF-8, too large:
:class:`~memhooks.protocol.hookfile.InvalidHookError`) cannot be applied until someone
fixes that file, and retrying it on every call of the project
only repeats the same diagnostic. So the row is kept with what it waits for — each
broken hook file and its :func:`memhooks.filestate.key` when the update failed — and is
not tried again, nor counted as a failed attempt, until one of those files changes
(:func:`ready`): the first journal pass after the fix applies it. A key taken within
:data:`memhooks.filestate.RACY_NS` of the file's last change is not trusted (None), so
such a row is simply tried again by the next pass.

The session whose edit made the update (``who`` in the row: host and session id, as
the agent hook gives it: :func:`memhooks.hook.maintenance.maintain_edit`) is told once —
one coded line naming the files, the broken hook file at its line and column, and what
to do — on whichever of its own calls first sees the row waiting; other sessions' calls
never say it. Rows of one session that wait for
the same hook files in the same folder and settings are merged into one, so a session
that keeps editing in a broken hook's folder leaves one row, not one per edit.

A broken hook file deleted instead of fixed (:func:`gone`): the update is applied as if
no hook file had been there — where the next edit in that folder would put its own (a
hook file made anew, kept out of git, under the ``directory`` anchor — unless git has
the deleted one: not made again, :func:`memhooks.maintain.local.deleted`; the nearest
hook above under ``nearest``) — by its own session's next journal pass, which says so once
(:func:`moved`; it was dropped from the waiting rows without a word, newcomer15), or by
``memhooks maintain``; other sessions' passes leave it to them.

Row shape (the work's ``waits``): ``{"on": [[hook path, key or null], ...], "code":
"MH…", "said": diagnostic text with its place and help, "told": bool}``.
"""

from __future__ import annotations

import os

from .. import filestate
from ..errors import code_of, said
from ..fast.jsonfast import dumps
from ..maintain.local import deleted as committed

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Callable

    from ..protocol.hookfile import InvalidHookError

#: Files named in a note, at most (the rest are counted).
NAMED = 3

Row = tuple[int, dict[str, object]]


def ready(work: dict[str, object]) -> bool:
    """Whether a waiting row may be tried again: a hook file it waits for changed (or
    its key was not trusted)."""
    waits = work.get("waits")
    on = waits.get("on") if isinstance(waits, dict) else None
    if not isinstance(on, list) or not on:
        return True
    for entry in on:
        if not isinstance(entry, list) or len(entry) != 2:
            return True
        if not filestate.unchanged(str(entry[0]), entry[1]):
            return True
    return False


def gone(work: dict[str, object]) -> bool:
    """Whether a hook file the waiting row ``work`` waits for is no longer there: deleted
    instead of fixed (:func:`moved`)."""
    return any(not os.path.lexists(path) for path in _paths(work))


def moved(work: dict[str, object], written: list[str], root: str) -> str:
    """The coded line telling the session whose update waited (``work``) for a broken hook
    file that was deleted instead of fixed that the update was applied as if no hook file
    had been there (``written``: the hook files the update wrote, maybe one made anew)."""
    waits = work.get("waits")
    code = waits.get("code") if isinstance(waits, dict) else None
    deleted = ", ".join(_rel(path, root) for path in _paths(work))
    went = ", ".join(_rel(path, root) for path in written)
    opening = (
        f"{code or 'MH000'} hook update for {named(work.get('files'), root)}, which waited for "
        f"{deleted} to be fixed, "
    )
    if not written and committed(root, _paths(work)):
        return opening + (
            f"was not written: {deleted} was deleted, and git has it, so memhooks does not"
            f" make it again (`git checkout -- {deleted}` brings it back)"
        )
    return (
        opening
        + (f"went to {went}" if went else "had nothing left to write")
        + f": {deleted} was deleted, so it was applied as if no hook file were there"
        " (a hook file memhooks makes is kept out of git; `memhooks hooks` lists them)"
    )


def hold(
    rows: list[Row],
    exc: InvalidHookError,
    held: list[Row],
    caller: str | None,
    root: str,
) -> tuple[list[tuple[str, int]], list[int], list[str]]:
    """Mark ``rows`` (which failed with ``exc``) as waiting for the hook files ``exc``
    names; ``held``: the rows already waiting, which a row of the same session, hook
    files, folder and settings is merged into (and which ``rows`` join). Returns the
    rows to update ``(work JSON, id)``, the ids to delete, and the notes for
    ``caller``. Call :func:`store` with the first two."""
    paths = sorted({d.path for d in exc.diagnostics if d.path})
    on = [[path, _key(path)] for path in paths]
    updates: dict[int, dict[str, object]] = {}
    deleted: list[int] = []
    notes: list[str] = []
    for row_id, work in rows:
        was = work.get("waits")
        told = bool(was.get("told")) if isinstance(was, dict) else False
        mine = str(work.get("who", ""))
        told = told or any(_told(w, mine, paths) for _i, w in held)  # said once a session
        waits = {"on": on, "code": code_of(exc), "said": said(exc), "told": told}
        work = {**work, "waits": waits}
        into = next((r for r in held if _same(r[1], work)), None)
        if into is not None:
            merged = {**into[1], "files": _union(into[1].get("files"), work.get("files"))}
            merged["waits"] = waits
            held[held.index(into)] = (into[0], merged)
            updates[into[0]] = merged
            deleted.append(row_id)
            work = merged
        else:
            held.append((row_id, work))
            updates[row_id] = work
        if caller is not None and mine == caller and not told:
            notes.append(note(work, root))
            _mark_told(held, updates, mine, paths)
    return [(dumps(w), i) for i, w in updates.items()], deleted, notes


def tell(held: list[Row], caller: str | None, root: str) -> tuple[list[tuple[str, int]], list[str]]:
    """The notes for ``caller``'s waiting rows not told yet (once per set of hook files),
    and the updates marking them told. ``caller`` None (a person running ``memhooks
    maintain``): every waiting row is said, and none is marked told."""
    notes: list[str] = []
    updates: dict[int, dict[str, object]] = {}
    said_on: list[list[str]] = []
    for n in range(len(held)):
        work = held[n][1]  # read again: _mark_told replaces the rows it marks
        waits = work.get("waits")
        if not isinstance(waits, dict):
            continue
        paths = _paths(work)
        if caller is None:
            if paths not in said_on:
                said_on.append(paths)
                notes.append(note(work, root, [w for _i, w in held if _paths(w) == paths]))
            continue
        mine = str(work.get("who", ""))
        if waits.get("told") or mine != caller:
            continue
        notes.append(
            note(work, root, [w for _i, w in held if _paths(w) == paths and w.get("who") == mine])
        )
        _mark_told(held, updates, caller, paths)
    return [(dumps(w), i) for i, w in updates.items()], notes


def store(
    updates: list[tuple[str, int]], deleted: list[int]
) -> Callable[[sqlite3.Connection], None]:
    """The state-file write recording :func:`hold`'s or :func:`tell`'s result."""

    def write(conn: sqlite3.Connection) -> None:
        conn.executemany("UPDATE journal SET work = ? WHERE id = ?", updates)
        conn.executemany("DELETE FROM journal WHERE id = ?", [(i,) for i in deleted])

    return write


def note(
    work: dict[str, object], root: str, everyone: list[dict[str, object]] | None = None
) -> str:
    """The coded line saying that ``work`` (or ``everyone``'s rows) waits for its broken
    hook files: the files, the diagnostic at its file, line and column, what to do."""
    waits = work.get("waits")
    assert isinstance(waits, dict)
    files: list[object] = []
    for w in everyone or [work]:
        files = _union(files, w.get("files"))
    names = named(files, root)
    hooks = ", ".join(_rel(str(e[0]), root) for e in waits.get("on") or ())
    return (
        f"{waits.get('code')} hook update for {names} waits until {hooks} is fixed "
        f"(kept): {waits.get('said')}; "
        "once the file validates, the next hook call that maintains hooks (an edit, a "
        "prompt) or `memhooks maintain` applies it"
    )


def named(files: object, root: str) -> str:
    """The files of journal ``files`` entries (``[action, path, old path?]``), root-relative,
    at most :data:`NAMED` of them and the count of the rest."""
    paths: list[str] = []
    for entry in files if isinstance(files, list) else ():
        if isinstance(entry, list) and len(entry) > 1:
            rel = _rel(str(entry[1]), root)
            if rel not in paths:
                paths.append(rel)
    if not paths:
        return "no file"
    more = len(paths) - NAMED
    return ", ".join(paths[:NAMED]) + (f" and {more} more" if more > 0 else "")


def _key(path: str) -> list[int] | None:
    """``path``'s key in JSON form; None when it cannot be read or is too recent to trust."""
    try:
        st = os.lstat(path)
    except (OSError, ValueError):
        return None
    return None if filestate.racy(st) else list(filestate.key(st))


def _paths(work: dict[str, object]) -> list[str]:
    waits = work.get("waits")
    on = waits.get("on") if isinstance(waits, dict) else None
    return [str(e[0]) for e in on if isinstance(e, list) and e] if isinstance(on, list) else []


def _told(work: dict[str, object], mine: str, paths: list[str]) -> bool:
    waits = work.get("waits")
    return (
        isinstance(waits, dict)
        and bool(waits.get("told"))
        and str(work.get("who", "")) == mine
        and _paths(work) == paths
    )


def _same(a: dict[str, object], b: dict[str, object]) -> bool:
    """Rows that one row can hold: one session, hook files, folder and settings."""
    same = all(a.get(k) == b.get(k) for k in ("who", "folder", "settings"))
    return same and _paths(a) == _paths(b)


def _mark_told(
    held: list[Row], updates: dict[int, dict[str, object]], mine: str, paths: list[str]
) -> None:
    for n, (row_id, work) in enumerate(held):
        if str(work.get("who", "")) == mine and _paths(work) == paths:
            waits = work.get("waits")
            if isinstance(waits, dict) and not waits.get("told"):
                work = {**work, "waits": {**waits, "told": True}}
                held[n] = (row_id, work)
                updates[row_id] = work


def _union(a: object, b: object) -> list[object]:
    out = list(a) if isinstance(a, list) else []
    for entry in b if isinstance(b, list) else ():
        if entry not in out:
            out.append(entry)
    return out


def _rel(path: str, root: str) -> str:
    if os.path.isabs(path) and (path == root or path.startswith(root.rstrip(os.sep) + os.sep)):
        return os.path.relpath(path, root)
    return path
