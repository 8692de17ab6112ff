"""A hook listing as the listing cache records it: what was listed, the stats it holds
for, and the one JSON file per (directory, git or walker) that keeps it.

Why a listing holds, and when it is made again, is :mod:`memhooks.listing.cache`. A file
that is unreadable, damaged (its CRC-32 does not match) or made for another key loads as
None; so does one naming a hook outside the listed directory.
"""

from __future__ import annotations

import os
from array import array
from binascii import a2b_base64, b2a_base64, crc32

from .. import __version__, cachefile, dirs
from ..fast import jsonfast

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Bump whenever what :func:`memhooks.listing.discover.list_hooks` lists changes (its
#: rules, not just its speed), or listings made by the old rules outlive the change.
FORMAT = 3  # 3: names as base64, CRC-32 digest


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
        #: the folders' stats as :func:`memhooks.listing.cache.check` found them (taken before git lists, so a
        #: walk may record them: a later change still shows as a difference)
        self.current: array[int] | None = None

    def texts(self) -> list[str]:
        return ["\0".join(part) for part in (self.hooks, self.folders, self.watched, self.files)]


def file_for(directory: str, use_git: bool) -> str:
    name = cachefile.key_name(
        f"{directory}\0{use_git}"
    )  # as cache.for_root: it names what it lists
    return os.path.join(dirs.cache_dir(), "listings", f"{name}.json")


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


def _digest(texts: list[str], stats: bytes) -> str:
    """CRC-32 of ``texts`` and ``stats``: a check against a truncated or damaged file
    (~0.1 ms for 5,000 folders, against SHA-1's ~1.5 ms). No digest could keep out a file
    someone rewrote on purpose: whatever it says, :func:`load` reads nothing outside
    the listed directory, and a stale listing only lists afresh."""
    value = 0
    for text in texts:
        value = crc32(text.encode("utf-8", "surrogateescape") + b"\0\0", value)
    return f"{crc32(stats, value):08x}"


def _pack(text: str) -> str:
    """``text`` as it is written: base64 of its bytes (NUL-separated names would
    otherwise be escaped one by one, ~1 ms to write and to read for 5,000 folders)."""
    return b2a_base64(text.encode("utf-8", "surrogateescape"), newline=False).decode("ascii")


def _unpack(packed: str) -> str:
    return a2b_base64(packed).decode("utf-8", "surrogateescape")


def load(file: str, key: list[Any], directory: str) -> Listing | tuple[int, ...] | None:
    """The listing in ``file`` when it is intact and was made for ``key``, or the stats
    of the top folder when the tree had too many folders to record; else None."""
    try:
        blob = jsonfast.loads(cachefile.read(file))
        if not (isinstance(blob, dict) and blob.get("format") == FORMAT and blob.get("key") == key):
            return None
        if "too_many" in blob:
            top = blob["too_many"]
            if isinstance(top, list) and len(top) == 3 and all(type(v) is int for v in top):
                return tuple(top)
            return None
        packed = [blob["hooks"], blob["folders"], blob["watched"], blob["files"]]
        if not all(isinstance(text, str) for text in packed):
            return None
        raw = a2b_base64(blob["stats"])
        if (
            _digest([repr(key), *packed, repr(blob["owners"]), repr(blob["pruned"])], raw)
            != blob["digest"]
        ):
            return None
        texts = [_unpack(text) for text in packed]
        hooks, folders, watched, files = (text.split("\0") if text else [] for text in texts)
        stats = array("q")
        stats.frombytes(raw)
        owners = blob["owners"]
        inside = directory.rstrip("/") + "/"
        if not (
            len(stats) == 3 * len(folders) + 4 * (len(watched) + len(files))
            and len(owners) == len(watched)
            and all(isinstance(at, int) and 0 <= at < len(folders) for at in owners)
            # whatever the file says, nothing outside the listed directory is read
            and all(hook.startswith(inside) and "/../" not in hook for hook in hooks)
        ):
            return None
        return Listing(
            directory, hooks, folders, watched, owners, files, blob["pruned"] is True, stats
        )
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def save(file: str, key: list[Any], made: Listing) -> None:
    """Write ``made`` atomically; failures are ignored (a cache)."""
    packed = [_pack(text) for text in made.texts()]
    raw = made.stats.tobytes()
    blob = {
        "format": FORMAT,
        "key": key,
        "hooks": packed[0],
        "folders": packed[1],
        "watched": packed[2],
        "files": packed[3],
        "owners": made.owners,
        "pruned": made.pruned,
        "stats": b2a_base64(raw, newline=False).decode("ascii"),
        "digest": _digest([repr(key), *packed, repr(made.owners), repr(made.pruned)], raw),
    }
    write(file, blob)


def write(file: str, blob: dict[str, Any]) -> None:
    """Write ``blob`` to ``file`` atomically; failures are ignored (a cache)."""
    cachefile.write(file, jsonfast.dumps(blob, separators=(",", ":")))
