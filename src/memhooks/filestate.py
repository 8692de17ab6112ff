"""Whether a file is still the one a cache read: one key, one "unchanged" test, one racy
window — for every cache that trusts ``lstat`` instead of reading again (the parsed-hook
cache, settled writes, the validated root hook, the hook listing's own files, the kept
chains' exclude phrases).

The key is what an ``lstat`` says of the file's identity and content: mode, device,
inode, size, mtime and ctime, in nanoseconds (a rewrite that keeps size and mtime —
``cp -p``, a checkout — still moves ctime). A file modified within :data:`RACY_NS` of
the moment it was read is not trusted by its key: on a file system with coarse
timestamps a second write in the same tick would keep it (git's "racy clean" problem).

The hook listing packs its folders' stats as (inode, mtime, ctime) triples in arrays
(:mod:`memhooks.listing.record`): its walker child is a standalone script that cannot
import this module, and 5,000 folders are saved in ~2.5 ms that way.

Only ``os`` is imported here: the hook's fast path calls it.
"""

from __future__ import annotations

import os

#: Nanoseconds within which a change is too recent for its key to be trusted.
RACY_NS = 2_000_000_000

Key = tuple[int, int, int, int, int, int]


def key(st: os.stat_result) -> Key:
    """The key of ``st``: mode, device, inode, size, mtime and ctime (ns)."""
    return (st.st_mode, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def key_of(path: str) -> Key | None:
    """The key of what ``path`` names (not following a last symlink), or None when
    nothing can be read there."""
    try:
        return key(os.lstat(path))
    except (OSError, ValueError):
        return None


def unchanged(path: str, known: Key | list[int] | None) -> bool:
    """``path`` still has the key ``known`` (a key kept in JSON is a list)."""
    return known is not None and stands(path, known)


def stands(path: str, known: Key | list[int] | None) -> bool:
    """``path`` is as a cache saw it: :func:`unchanged`, or, where ``known`` is None,
    still nothing there (a cache that relied on a file's absence, such as a folder of a
    chain without a hook file: :mod:`memhooks.hook.exclusions`)."""
    found = key_of(path)
    if known is None or found is None:
        return found is None and known is None
    return list(found) == list(known)


def racy(st: os.stat_result, now_ns: int | None = None) -> bool:
    """``st`` changed within :data:`RACY_NS` of ``now_ns`` (default: now)."""
    if now_ns is None:
        import time

        now_ns = time.time_ns()
    return now_ns - st.st_mtime_ns < RACY_NS
