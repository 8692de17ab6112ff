"""A hook listing as the listing cache records it: what was listed, the stats it holds
for, and the one file per (directory, git or walker) that keeps it (:func:`save` says
its format).

Why a listing holds, and when it is made again, is :mod:`memhooks.listing.cache`. A file
that is unreadable, damaged (its CRC-32 does not match) or made for another key loads as
None; so does one naming a hook outside the listed directory.
"""

from __future__ import annotations

import os
from array import array
from binascii import crc32

from .. import __version__, cachefile, dirs
from ..fast import jsonfast

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Bump whenever what :func:`memhooks.listing.discover.list_hooks` lists changes (its
#: rules, not just its speed), or listings made by the old rules outlive the change.
FORMAT = 4  # 4: a JSON header line, then the names and stats as bytes
ABSENT = (-1, -1, -1, -1)


class Listing:
    """One listing as recorded: the listed directory (``base``), the hooks, the walked
    folders (relative, ``/``-separated, ``""`` for ``base``), the files watched in them
    with the index of the folder each lies in (``owners``), the other files the listing
    depends on (``files``), whether ignored folders were skipped (``pruned``), and
    ``stats``: each folder's (inode, mtime, ctime) then each watched and other file's
    (inode, size, mtime, ctime), flattened."""

    __slots__ = (
        "base", "current", "files", "folders", "hooks", "owners", "pruned", "stats", "watched"
    )  # fmt: skip

    def __init__(
        self,
        base: str,
        hooks: list[str],
        folders: list[str],
        watched: list[str],
        owners: list[int],
        files: list[str],
        pruned: bool,
        stats: array[int],
    ) -> None:
        self.base, self.hooks, self.folders, self.watched = base, hooks, folders, watched
        self.owners, self.files, self.pruned, self.stats = owners, files, pruned, stats
        #: the folders' stats as the listing cache's check found them (taken before git
        #: lists, so a walk may record them: a later change still shows as a difference)
        self.current: array[int] | None = None

    def texts(self) -> list[str]:
        return ["\0".join(part) for part in (self.hooks, self.folders, self.watched, self.files)]


def top_stat(directory: str) -> tuple[int, int, int] | None:
    """(inode, mtime, ctime) of ``directory`` (``lstat``; nanoseconds), or None when it
    cannot be read: what a tree with too many folders to record is kept by."""
    try:
        st = os.lstat(directory)
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_ctime_ns)


def folder_stats(base: str, folders: list[str]) -> array[int]:
    """(inode, mtime, ctime) of each folder (``lstat``), flattened; raises OSError."""
    prefix = base.rstrip("/") + "/"
    stats = array("q")
    add = stats.extend
    for st in map(os.lstat, [prefix + rel if rel else base for rel in folders]):
        add((st.st_ino, st.st_mtime_ns, st.st_ctime_ns))
    return stats


def file_stat(path: str) -> tuple[int, int, int, int]:
    """(inode, size, mtime, ctime) of what ``path`` names (links followed, as git reads
    its files), or all -1 when nothing is there."""
    try:
        st = os.stat(path)
    except OSError:
        return ABSENT
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def files_stats(files: list[str]) -> array[int]:
    """:func:`file_stat` of each of ``files``, flattened."""
    stats = array("q")
    for path in files:
        stats.extend(file_stat(path))
    return stats


def file_for(directory: str, use_git: bool) -> str:
    name = cachefile.key_name(
        f"{directory}\0{use_git}"
    )  # as cache.for_root: it names what it lists
    return os.path.join(dirs.cache_dir(), "listings", f"{name}.listing")


def key(directory: str, use_git: bool) -> list[Any]:
    """What a listing depends on besides the files it checks: the directory, the mode,
    this memhooks, and the environment git reads (``GIT_*``, ``HOME``, ``XDG_CONFIG_HOME``)
    and finds git by (``PATH``) — as a digest: ``GIT_*`` variables can carry tokens
    (``GIT_ASKPASS``, ``GIT_CONFIG_VALUE_n``), which a cache file must not hold."""
    try:
        from _sha1 import sha1  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        from hashlib import sha1

    env = sorted(
        f"{name}\0{value}"
        for name, value in os.environ.items()
        if name.startswith("GIT_") or name in ("HOME", "XDG_CONFIG_HOME", "PATH")
    )
    digest = sha1("\0\0".join(env).encode("utf-8", "surrogateescape")).hexdigest()
    return [directory, use_git, __version__, digest]


def _digest(header: list[Any], payload: bytes) -> str:
    """CRC-32 of the header's fields and the payload: a check against a truncated or
    damaged file (~0.1 ms for 5,000 folders, against SHA-1's ~1.5 ms). No digest could
    keep out a file someone rewrote on purpose: whatever it says, :func:`load` reads
    nothing outside the listed directory, and a stale listing only lists afresh."""
    return f"{crc32(payload, crc32(repr(header).encode('utf-8', 'surrogateescape'))):08x}"


def load(file: str, key: list[Any], directory: str) -> Listing | tuple[int, ...] | None:
    """The listing in ``file`` when it is intact and was made for ``key``, or the stats
    of the top folder when the tree had too many folders to record; else None."""
    try:
        data = cachefile.read(file)
        end = data.find(b"\n")
        blob = jsonfast.loads(data if end < 0 else data[:end])
        if not (isinstance(blob, dict) and blob.get("format") == FORMAT and blob.get("key") == key):
            return None
        if "too_many" in blob:
            top = blob["too_many"]
            if isinstance(top, list) and len(top) == 3 and all(type(v) is int for v in top):
                return tuple(top)
            return None
        sizes, counts = blob["sizes"], blob["counts"]
        owners, pruned = blob["owners"], blob["pruned"]
        payload = data[end + 1 :] if end >= 0 else b""
        if not (
            isinstance(sizes, list)
            and len(sizes) == 5
            and all(type(size) is int and size >= 0 for size in sizes)
            and sum(sizes) == len(payload)
            and isinstance(counts, list)
            and len(counts) == 4
            and _digest([key, sizes, counts, owners, pruned], payload) == blob["digest"]
        ):
            return None
        parts, at = [], 0
        for size, count in zip(sizes, counts):
            text = payload[at : at + size].decode("utf-8", "surrogateescape")
            names = text.split("\0") if count else []  # one name may be "" (the base)
            if len(names) != count:
                return None
            parts.append(names)
            at += size
        hooks, folders, watched, files = parts
        stats = array("q")
        stats.frombytes(payload[at:])
        inside = directory.rstrip("/") + "/"
        if not (
            len(stats) == 3 * len(folders) + 4 * (len(watched) + len(files))
            and isinstance(owners, list)
            and len(owners) == len(watched)
            and all(type(index) is int and 0 <= index < len(folders) for index in owners)
            # whatever the file says, nothing outside the listed directory is read
            and all(hook.startswith(inside) and "/../" not in hook for hook in hooks)
        ):
            return None
        return Listing(directory, hooks, folders, watched, owners, files, pruned is True, stats)
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def save(file: str, key: list[Any], made: Listing) -> None:
    """Write ``made`` atomically; failures are ignored (a cache). The file is one line
    of JSON — the format, the key, the sizes of the payload's five parts and the number
    of names in each of the first four (a part holding one name, "", is not one holding
    none), the owners, whether the walk was pruned, the digest — then the payload: the
    hooks, the folders, the watched and the other files, each part its names joined by
    NUL (UTF-8, undecodable bytes kept), then the stats as native 8-byte integers.
    Base64 in JSON (format 3) cost ~10 M instructions to decode for 5,000 folders, ~6 %
    of a warm ``validate --all`` (callgrind; ``bench/bench_engine.py`` validate_warm)."""
    parts = [text.encode("utf-8", "surrogateescape") for text in made.texts()]
    parts.append(made.stats.tobytes())
    payload = b"".join(parts)
    sizes = [len(part) for part in parts]
    counts = [len(names) for names in (made.hooks, made.folders, made.watched, made.files)]
    header = {
        "format": FORMAT,
        "key": key,
        "sizes": sizes,
        "counts": counts,
        "owners": made.owners,
        "pruned": made.pruned,
        "digest": _digest([key, sizes, counts, made.owners, made.pruned], payload),
    }
    cachefile.write(file, jsonfast.dumps(header, separators=(",", ":")).encode() + b"\n" + payload)


def write(file: str, blob: dict[str, Any]) -> None:
    """Write ``blob`` to ``file`` atomically; failures are ignored (a cache)."""
    cachefile.write(file, jsonfast.dumps(blob, separators=(",", ":")))
