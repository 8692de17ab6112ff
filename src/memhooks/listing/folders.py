"""The folder walk that records a hook listing (:mod:`memhooks.listing.cache`): every
folder below the listed directory with its stats, the files whose changes could change
what git lists there, and the entries named like a hook (the walker's listing itself,
outside git).

It never follows a symlink and skips ``.git``, as the walker does
(:func:`memhooks.listing.discover.list_hooks`). A folder whose stats equal those an
earlier listing recorded is not read again: the names in it are what they were (git's
untracked-cache rule; see :mod:`memhooks.listing.cache`).
"""

from __future__ import annotations

import os
import stat
from array import array

from ..protocol import HOOK_NAME

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .record import Listing

#: A walk of more folders than this, in git, starts again skipping what git ignores
#: (one more git call): checking 20,000 folders costs about what git's own walk does.
UNPRUNED_FOLDERS = 20_000
#: More folders than this and no listing is saved (checking 100,000 folders takes
#: ~250 ms; git's own walk of them several times that).
MAX_FOLDERS = 100_000
#: What :func:`walk` returns past its limit.
MANY = "many"


def walk(
    directory: str, ignored: set[str] | None, limit: int, previous: Listing | None
) -> tuple[list[str], array[int], list[str], list[int], list[str]] | str | None:
    """Every folder below ``directory`` (inclusive) except ``.git`` and ``ignored``
    (absolute paths), never through a symlink: (relative names, their stats flattened,
    files watched in them, the index of the folder each lies in, entries named like a
    hook). Watched: ``.gitignore``, and a nested repository's ``.git`` and ``.git/HEAD``
    (whether git descends there). A folder whose stats equal ``previous``'s (an unpruned
    walk's) is not read again: its names are what they were; nor ``lstat``-ed again when
    ``previous.current`` holds its stats of a moment ago. None when something cannot be
    read, :data:`MANY` past ``limit`` folders."""
    known: dict[str, tuple[int, list[str], list[str], list[str]]] = {}
    current = None
    if previous is not None and not previous.pruned and ignored is None:
        known = _known(previous)
        current = previous.current
    folders: list[str] = []
    stats = array("q")
    watched: list[str] = []
    owners: list[int] = []
    hooks: list[str] = []
    pending = [(directory, "")]
    scandir, lstat, isdir = os.scandir, os.lstat, stat.S_ISDIR
    skip = ignored or ()
    try:
        while pending:
            path, rel = pending.pop()
            same = known.get(rel)
            entry_stats: Any = None
            if same is not None and current is not None and previous is not None:
                at = 3 * same[0]
                if current[at] == previous.stats[at]:  # the same folder (inode): its stats
                    entry_stats = current[at : at + 3]
            if entry_stats is None:
                st = lstat(path)
                if not isdir(st.st_mode):
                    return None
                entry_stats = array("q", (st.st_ino, st.st_mtime_ns, st.st_ctime_ns))
            at = len(folders)
            if at >= limit:
                return MANY
            folders.append(rel)
            stats.extend(entry_stats)
            if same is not None and previous is not None:
                index, children, names, found = same
                if previous.stats[3 * index : 3 * index + 3] == entry_stats:
                    pending += [
                        (os.path.join(path, child.rpartition("/")[2]), child) for child in children
                    ]
                    watched += names
                    owners += [at] * len(names)
                    hooks += found
                    continue
            with scandir(path) as entries:
                for entry in entries:
                    name = entry.name
                    if name == ".git":
                        if rel:
                            watched += (entry.path, entry.path + "/HEAD")
                            owners += (at, at)
                        continue
                    if name == ".gitignore":
                        watched.append(entry.path)
                        owners.append(at)
                    elif name == HOOK_NAME:
                        hooks.append(entry.path)
                    if entry.is_dir(follow_symlinks=False) and entry.path not in skip:
                        pending.append((entry.path, f"{rel}/{name}" if rel else name))
    except OSError:
        return None
    return folders, stats, watched, owners, hooks


def _known(previous: Listing) -> dict[str, tuple[int, list[str], list[str], list[str]]]:
    """For each folder of ``previous``: (its index, its subfolders, the files watched in
    it, the entries named like a hook in it)."""
    known: dict[str, tuple[int, list[str], list[str], list[str]]] = {
        rel: (index, [], [], []) for index, rel in enumerate(previous.folders)
    }
    for rel in previous.folders:
        if rel:
            parent = rel.rpartition("/")[0]
            if parent in known:
                known[parent][1].append(rel)
    for path, owner in zip(previous.watched, previous.owners):
        known[previous.folders[owner]][2].append(path)
    prefix = previous.base.rstrip("/") + "/"
    for hook in previous.hooks:
        folder = os.path.dirname(hook)
        rel = "" if folder == previous.base else folder[len(prefix) :]
        if hook == f"{folder}/{HOOK_NAME}" and rel in known:
            known[rel][3].append(hook)
    return known
