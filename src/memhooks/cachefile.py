"""Cache files: small files memhooks can always rebuild (parsed hooks, hook listings,
search lists, session snapshots, blame entries, a repository's root commit), written
whole or not at all (:func:`write`), and read without waiting on what is not a file
(:func:`read`)."""

from __future__ import annotations

import os
import stat

#: How a cache file is opened to read: a FIFO (or device) in its place opens at once
#: instead of waiting for a writer, and is then refused (:func:`read`).
_READ = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def key_name(key: str) -> str:
    """A file name for the cache or lock file of ``key`` (a store's path, a project
    root): 16 hex digits, the 64-bit FNV-1a hash of its UTF-8 bytes
    (http://www.isthe.com/chongo/tech/comp/fnv/). Pure Python on purpose: a hook process
    would otherwise load a hashing extension module (binascii, _sha1: ~0.2-0.3 ms each)
    for one short key. Not for anything a collision could harm: a cache file names what
    it caches (a collision costs a miss), a shared lock only serializes two keys."""
    value = 0xCBF29CE484222325
    for byte in key.encode("utf-8", "surrogateescape"):
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{value:016x}"


def read(path: str) -> bytes:
    """The bytes of the cache file ``path``, whole. Raises OSError when there is none to
    read: missing, unreadable, or not a regular file — a FIFO put in a cache file's place
    made ``open`` wait for a writer, so a hook call gave up at its deadline, or hung for
    good before its watchdog started (newcomer17); now that is a miss, and the next
    :func:`write` replaces it."""
    return read_stat(path)[0]


def read_stat(path: str) -> tuple[bytes, os.stat_result]:
    """:func:`read`, and the file's status as it was read (``fstat``; for
    :func:`memhooks.filestate.key`)."""
    fd = os.open(path, _READ)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(f"not a regular file: {path}")
        data = os.read(fd, st.st_size + 1)  # one read, unless it grew since the fstat
        if len(data) <= st.st_size:
            return data, st
        parts = [data]
        while more := os.read(fd, 1 << 16):
            parts.append(more)
        return b"".join(parts), st
    finally:
        os.close(fd)


def write(path: str, text: str | bytes, *, mode: int = 0o777, encoding: str = "utf-8") -> bool:
    """Write ``text`` (or bytes) to ``path`` through a temporary file in its folder and a
    rename, so a reader sees the old file or the new one, never part of one; the folder
    is created first (with ``mode``); an empty folder in the file's place goes first (one
    made every later call miss and redo the work for good, newcomer20). Returns False
    when the file system refused (nothing is left behind): a cache that cannot be written
    only makes the next call slower."""
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), mode=mode, exist_ok=True)
        if isinstance(text, bytes):
            with open(tmp, "wb") as out:
                out.write(text)
        else:
            with open(tmp, "w", encoding=encoding) as fp:
                fp.write(text)
        try:
            os.replace(tmp, path)
        except IsADirectoryError:
            os.rmdir(path)  # only when empty: a folder with something in it stays
            os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False
    return True
