"""Replace hook files so that a crash never leaves a damaged one.

A hook is replaced, never rewritten in place: the new text goes to a temporary file in
the same directory (``O_CREAT|O_EXCL|O_NOFOLLOW``), is flushed and ``fsync``-ed, gets the
old file's permission bits, and is renamed over the hook with :func:`os.replace`; the
directory is then ``fsync``-ed (best effort). ``rename`` is atomic, so a writer killed
between any two system calls leaves the old file or the new one, never a torn or empty
one. The only debris a killed writer can leave is its temporary file, named
``.<hook name>.<16 hex digits>.tmp``: hidden, never called ``MEMHOOKS.md`` (so no
discovery walk picks it up), and removed by :func:`sweep_stale_temps`, which
:func:`memhooks.maintain.lock.hook_lock` runs as soon as it holds the lock.

Permission bits are kept when a file is replaced (the reference engine leaves every
rewritten hook at 0600 — ``shared/spec/reference-engine.md`` (n)); a new file gets
``0666 & ~umask`` like any file an editor creates. Ownership is kept where the process
may keep it.

Errors (``DiagnosticError``):

* MH029 — the hook path exists and is a symlink (wherever it points) or a special file.
  (Reading a hook safely is :func:`memhooks.protocol.hookfile.read_bytes`.)
* MH031 ("Hook write failed") — the filesystem refused (read-only, full, permission
  denied, ...); its help is replaced by advice for the specific failure. MH000 is not
  used: it tells people to fix the file's content, which is wrong advice for a full disk.
"""

from __future__ import annotations

import errno
import os
import stat
import time

from ..errors import DiagnosticError, fail
from ..protocol.hookfile import UNSAFE

PathLike = str | os.PathLike[str]

#: Default age (seconds) below which :func:`sweep_stale_temps` leaves a temp file alone.
STALE_AFTER_S = 30.0

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_BINARY = getattr(os, "O_BINARY", 0)

_EDQUOT = getattr(errno, "EDQUOT", -1)  # not defined on every platform
_ADVICE = {
    errno.ENOSPC: "free some disk space and run the command again",
    _EDQUOT: "free some space within your disk quota and run the command again",
    errno.EROFS: "the file system is read-only; remount it read-write or work in a writable copy",
    errno.EACCES: "check that you may write to the hook's directory",
    errno.EPERM: "check that you may write to the hook's directory",
}


def temp_name(hook_name: str) -> str:
    """A fresh temporary file name for ``hook_name``: ``.<hook_name>.<16 hex>.tmp``."""
    # os.urandom is what `secrets` uses; importing `secrets` costs the agent hook ~10 ms
    return f".{hook_name}.{os.urandom(8).hex()}.tmp"


def is_temp_name(name: str, hook_name: str = "MEMHOOKS.md") -> bool:
    """True when ``name`` is exactly the shape :func:`temp_name` produces for ``hook_name``.
    (String tests, not a regular expression: the agent hook's lock runs this and must
    not import :mod:`re`, ~4 ms.)"""
    head, tail = f".{hook_name}.", ".tmp"
    digits = name[len(head) : -len(tail)]
    return (
        len(name) == len(head) + 16 + len(tail)
        and name.startswith(head)
        and name.endswith(tail)
        and _HEX.issuperset(digits)
    )


_HEX = frozenset("0123456789abcdef")


def unsafe_path(path: PathLike) -> DiagnosticError:
    """The MH029 error for a symlinked or special hook/lock path."""
    return fail("MH029", UNSAFE, os.fspath(path))


def io_error(action: str, path: PathLike, exc: OSError) -> DiagnosticError:
    """MH031 naming what failed (``action``), the OS reason and what to do about it."""
    reason = exc.strerror or str(exc)
    advice = _ADVICE.get(exc.errno or 0, "check the file system and run the command again")
    return fail("MH031", f"could not {action}: {reason}", os.fspath(path), help=advice)


def write_atomic(path: PathLike, data: str | bytes, *, mode: int | None = None) -> None:
    """Replace (or create) ``path`` with ``data`` atomically; ``str`` is written as UTF-8.

    ``mode`` sets the permission bits; by default an existing file's bits are kept and a
    new file gets ``0666 & ~umask``. On any failure the temporary file is removed and
    ``path`` is untouched. Raises MH029 when ``path`` is a symlink or special file,
    MH031 when the file system refuses.
    """
    path = os.fspath(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    directory, name = os.path.split(os.path.abspath(path))
    old = _lstat_regular(path)
    tmp = os.path.join(directory, temp_name(name))
    # A new file is created with the umask's bits, which it keeps. A replacement starts
    # at 0600 and gets the old bits just before the rename, so text written to a private
    # hook never sits in a more open file.
    create_mode = 0o666 if old is None and mode is None else 0o600
    try:
        fd = os.open(
            tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC | _BINARY, create_mode
        )
    except OSError as exc:
        raise io_error("create a temporary file next to the hook", path, exc) from exc
    try:
        try:
            _write_all(fd, payload)
            _set_metadata(fd, old, mode)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException as exc:
        _remove_quietly(tmp)
        if isinstance(exc, OSError):
            raise io_error("write the hook", path, exc) from exc
        raise
    _fsync_directory(directory)


def sweep_stale_temps(
    directory: PathLike, *, hook_name: str = "MEMHOOKS.md", older_than_s: float = STALE_AFTER_S
) -> list[str]:
    """Remove temporary files that killed writers left in ``directory``.

    Only names :func:`is_temp_name` accepts for ``hook_name``, only regular files (never
    through a symlink), only files last modified more than ``older_than_s`` seconds ago.
    Call it while holding the hook's lock, so no live writer's file can match.
    Returns the removed names, sorted. Errors removing a file are ignored.
    """
    cutoff = time.time() - older_than_s
    removed = []
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    for name in sorted(names):
        if not is_temp_name(name, hook_name):
            continue
        full = os.path.join(os.fspath(directory), name)
        try:
            st = os.lstat(full)
            if stat.S_ISREG(st.st_mode) and st.st_mtime <= cutoff:
                os.unlink(full)
                removed.append(name)
        except OSError:
            continue
    return removed


def _lstat_regular(path: str) -> os.stat_result | None:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise io_error("inspect the hook", path, exc) from exc
    if not stat.S_ISREG(st.st_mode):
        raise unsafe_path(path)
    return st


def _write_all(fd: int, payload: bytes) -> None:
    view = memoryview(payload)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _set_metadata(fd: int, old: os.stat_result | None, mode: int | None) -> None:
    if old is not None and hasattr(os, "fchown"):
        # Keep owner and group where allowed (e.g. a setgid project directory);
        # an unprivileged writer usually cannot change the owner, which is fine.
        try:
            os.fchown(fd, old.st_uid, old.st_gid)
        except OSError:
            pass
    bits = mode if mode is not None else (stat.S_IMODE(old.st_mode) if old is not None else None)
    if bits is not None and hasattr(os, "fchmod"):
        os.fchmod(fd, bits)


def _fsync_directory(directory: str) -> None:
    # Makes the rename durable on POSIX; Windows cannot open directories this way.
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _remove_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
