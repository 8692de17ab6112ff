"""Cache files: small files memhooks can always rebuild (parsed hooks, hook listings,
search lists, session snapshots, a repository's root commit), written whole or not at
all."""

from __future__ import annotations

import os


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


def write(path: str, text: str | bytes, *, mode: int = 0o777, encoding: str = "utf-8") -> bool:
    """Write ``text`` (or bytes) to ``path`` through a temporary file in its folder and a
    rename, so a reader sees the old file or the new one, never part of one; the folder
    is created first (with ``mode``). Returns False when the file system refused (nothing
    is left behind): a cache that cannot be written only makes the next call slower."""
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), mode=mode, exist_ok=True)
        if isinstance(text, bytes):
            with open(tmp, "wb") as out:
                out.write(text)
        else:
            with open(tmp, "w", encoding=encoding) as fp:
                fp.write(text)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False
    return True
