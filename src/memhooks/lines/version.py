"""Which file version a blame cache entry answers for: the working file's, found or made
(:func:`entry_of`), or the one saved before an edit (:func:`saved`) — the bookkeeping
under :mod:`.ownership`'s answers (git is asked only when HEAD moved or the file is new
to the cache).
"""

from __future__ import annotations

import os
import stat

from . import cache


def saved(top: str, path: str, state_dir: str) -> tuple[str, cache.Entry] | None:
    """(cache file, entry) of ``path`` as its cache entry holds it — the version
    before an edit just applied — when it was saved under the HEAD of now; else None."""
    from .head import blame_key

    file = cache.path_of(state_dir, top, path)
    item = cache.load(file)
    if item is None or item.head != (blame_key(top) or ""):
        return None
    return file, item


def entry_of(
    top: str, path: str, state_dir: str, since: str | None
) -> tuple[str, cache.Entry, bool] | None:
    """(cache file, the cache entry valid for the working file ``path`` under ``top``,
    whether it needs saving), or None: not a file, no commit yet, not in HEAD (a file git
    does not track, or one not committed yet: no commit owns a line of it, and nothing of
    it is kept in the state directory), larger than ``MAX_READ_BYTES``
    (:mod:`memhooks.limits`), not text. An entry saved under another HEAD stands when git says
    the file did not change between them; one saved for another version of the file
    follows the edit."""
    from ..limits import MAX_READ_BYTES
    from .head import blame_key

    full = os.path.join(top, *path.split("/"))
    try:
        st = os.stat(full)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_READ_BYTES:
        return None  # a folder, a device; or too large to read whole on a hook's path
    head = blame_key(top)  # HEAD, and a shallow clone's edge
    if not head:
        return None  # no commit yet (or none git can name): nothing owns a line
    if since:
        head += f" since={since}"
    file = cache.path_of(state_dir, top, path)
    item = cache.load(file)
    if item is not None and item.head != head and not _same_file(top, path, item.head, head):
        item = None
    if item is not None and item.head == head and cache.unchanged(item, st):
        return file, item, False
    if item is not None and len(item.text) != item.size:
        # the kept text is not the version the owners were blamed for (emptied or cut by
        # hand, not UTF-8): a miss — compared with the file, every line read as an edit,
        # "not committed yet" (newcomer11); read here only when the stat moved
        item = None
    oid = _head_blob(top, path, head.partition(" ")[0]) if item is None else None
    if oid == "":
        return None  # untracked, ignored or new: its text is not the state's to keep
    raw = _read(full)
    text = None if raw is None else _lines(raw)
    if raw is None or text is None:
        return None
    if item is None:
        fresh = cache.Entry(head, cache.stat_key(st), text)
        fresh.committed = None if oid is None else blob_id(raw, len(oid)) == oid
        return file, fresh, True
    item.head = head
    item.stat = cache.stat_key(st)
    if text != item.text:  # lines changed (not only its stat): followed, with difflib
        from .follow import follow_edit

        follow_edit(item, text)
    return file, item, True


def _same_file(top: str, path: str, before: str, after: str) -> bool:
    """Whether ``path`` is the same at two HEADs (keys of :func:`.head.blame_key`, the
    same window and shallow edge)."""
    old, _, old_window = before.partition(" ")
    new, _, new_window = after.partition(" ")
    if not old or not new or old_window != new_window:
        return False
    from ..git import run

    try:
        return run(top, "diff", "--quiet", "--no-ext-diff", old, new, "--", path).returncode == 0
    except OSError:
        return False


def _head_blob(top: str, path: str, head: str) -> str | None:
    """The object id of ``path`` in commit ``head``; ``""`` when ``head`` has no such
    file, None when git could not say. One ``git rev-parse``, on the path that blames
    anyway (:attr:`memhooks.lines.cache.Entry.committed` compares it with the file)."""
    from ..git import run

    try:
        done = run(top, "rev-parse", "--verify", "--quiet", f"{head}:{path}")
    except OSError:
        return None
    oid = done.stdout.strip()
    return oid if done.returncode == 0 and len(oid) in (40, 64) else ""


def _read(full: str) -> bytes | None:
    try:
        with open(full, "rb") as fp:
            return fp.read()
    except OSError:
        return None


#: How many bytes from a file's start git's binary test reads (git's ``buffer_is_binary``).
BINARY_PROBE = 8000


def is_binary(raw: bytes) -> bool:
    """Whether a file starting with ``raw`` is binary as git tells: a NUL byte in its
    first :data:`BINARY_PROBE` bytes. Git blames no lines of it that could be shown."""
    return b"\0" in raw[:BINARY_PROBE]


def _lines(raw: bytes) -> list[str] | None:
    """The file's lines as git counts them (a last line without a newline counts)."""
    if is_binary(raw):
        return None
    lines = raw.decode("utf-8", "replace").split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def blob_id(raw: bytes, size: int) -> str:
    """Git's object id of a blob holding ``raw`` (sha1, or sha256 when ``size`` is 64)."""
    import hashlib

    digest = hashlib.sha256() if size == 64 else hashlib.sha1()
    digest.update(b"blob %d\0" % len(raw))
    digest.update(raw)
    return digest.hexdigest()
