"""Which git work tree holds a file, and where in it: the one answer line ownership,
the pre-tool edit's shortcut (:mod:`.told`), the hook (:mod:`memhooks.hook.lines`) and
``memhooks why`` (:mod:`memhooks.recall.why`) all go by. Read from ``.git`` with no
process (:func:`memhooks.git.find_repository`); only ``os`` is imported until a file is
placed.
"""

from __future__ import annotations

import os

from ..paths import resolved


def place(path: str) -> tuple[str, str] | None:
    """``(top, rel)`` of the existing file ``path`` (absolute): the canonical top of the
    git work tree holding it (symlinks resolved) and its path there, ``/``-separated —
    or None when ``path`` is not a file or no work tree holds it."""
    if not os.path.isfile(path):
        return None
    from ..git import find_repository

    real = resolved(path)
    repo = find_repository(os.path.dirname(real))
    if repo is None:
        return None
    top = resolved(repo.top)
    return top, os.path.relpath(real, top).replace(os.sep, "/")
