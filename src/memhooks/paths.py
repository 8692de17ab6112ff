"""Whether a path lies inside a folder, and its name relative to it — the one rule every
package uses (the root's containment is the security boundary: repository text never
reaches past the canonical root, symlinks included; ``docs/security.md``) — and a
path's canonical form (:func:`resolved`).

Only :mod:`os` is imported: the hook's fast path calls these.
"""

from __future__ import annotations

import os

#: Canonical forms this process worked out, once :func:`keep_resolved` was called (a hook
#: process); None: each :func:`resolved` asks the file system.
_KEPT: dict[str, str] | None = None


def keep_resolved() -> None:
    """From now on :func:`resolved` keeps each answer for the rest of the process. Only
    for a process that lives one hook call (:func:`memhooks.commands.hook.process`: at
    most its deadline, seconds): a pre-tool edit that tells asked for the same four
    paths twelve times — the root, the file, the store — and each ``realpath`` is one
    ``lstat`` per component (~30 us for a 7-deep path on the bench machine, ~0.3 ms a
    call; ``docs/performance.md``). A link changed during the call is seen by the next
    call, as a link changed between a check and an open always is."""
    global _KEPT
    if _KEPT is None:
        _KEPT = {}


def resolved(path: str) -> str:
    """:func:`os.path.realpath` of ``path`` (every symlink followed; a missing part kept
    as written), kept for the process after :func:`keep_resolved`."""
    kept = _KEPT
    if kept is None:
        return os.path.realpath(path)
    found = kept.get(path)
    if found is None:
        found = kept[path] = os.path.realpath(path)
    return found


def is_within(path: str, folder: str) -> bool:
    """``path`` is ``folder`` or lies below it, compared as the strings they are (both
    canonical — :func:`os.path.realpath` — when the answer must hold against links)."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def relative(path: str, folder: str) -> str:
    """``path`` relative to ``folder`` with ``/`` separators, ``""`` for the folder
    itself (the form hooks, memories and the session ledger store)."""
    rel = os.path.relpath(path, folder).replace(os.sep, "/")
    return "" if rel == "." else rel


def inside(path: str, folder: str) -> str | None:
    """:func:`relative` name of ``path`` canonicalized, when that lies within the
    canonical ``folder``; None when it does not (a link out of the folder included)."""
    real = resolved(path)
    return relative(real, folder) if is_within(real, folder) else None
