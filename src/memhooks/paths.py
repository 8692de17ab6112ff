"""Whether a path lies inside a folder, and its name relative to it — the one rule every
package uses (the root's containment is the security boundary: repository text never
reaches past the canonical root, symlinks included; ``docs/security.md``).

Only :mod:`os` is imported: the hook's fast path calls these.
"""

from __future__ import annotations

import os


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
    real = os.path.realpath(path)
    return relative(real, folder) if is_within(real, folder) else None
