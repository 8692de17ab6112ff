"""The one durable atomic file writer: a crash never leaves a damaged file.

The new bytes go to a temporary file in the same folder (``O_CREAT|O_EXCL|O_NOFOLLOW``,
named ``.<name>.<16 hex digits>.tmp``: hidden, never the file's own name), are flushed
and ``fsync``-ed, get the old file's permission bits (and owner, where allowed), and the
temporary file is renamed over the file with :func:`os.replace`; the folder is then
``fsync``-ed (best effort). ``rename`` is atomic, so a writer killed between any two
system calls leaves the old file or the new one. Hook files
(:mod:`memhooks.maintain.atomic`, which adds their errors and the sweep of a killed
writer's temporary files), the agents' configuration files
(:mod:`memhooks.install.files`) and the capture switch are written here.
:mod:`memhooks.cachefile` is the other writer, on purpose not durable: what it writes
can always be rebuilt, and an ``fsync`` per hook call would cost more than the cache
saves.

Only ``os`` and ``stat`` are imported.
"""

from __future__ import annotations

import os
import stat

_FLAGS = (
    os.O_WRONLY
    | os.O_CREAT
    | os.O_EXCL
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
_HEX = frozenset("0123456789abcdef")


class TempFileError(OSError):
    """The temporary file could not be created next to the file: nothing was written."""


def temp_name(name: str) -> str:
    """A fresh temporary file name for the file ``name``: ``.<name>.<16 hex>.tmp``."""
    # os.urandom is what `secrets` uses; importing `secrets` costs the agent hook ~10 ms
    return f".{name}.{os.urandom(8).hex()}.tmp"


def is_temp_name(name: str, of: str) -> bool:
    """``name`` is exactly the shape :func:`temp_name` gives for the file ``of``. (String
    tests, not a regular expression: the agent hook's lock runs this and must not import
    :mod:`re`, ~4 ms.)"""
    head, tail = f".{of}.", ".tmp"
    digits = name[len(head) : -len(tail)]
    return (
        len(name) == len(head) + 16 + len(tail)
        and name.startswith(head)
        and name.endswith(tail)
        and _HEX.issuperset(digits)
    )


def write(
    path: str,
    data: str | bytes,
    *,
    mode: int | None = None,
    new_mode: int = 0o666,
    old: os.stat_result | None = None,
) -> None:
    """Replace (or create) ``path`` with ``data`` (``str`` as UTF-8), durably and
    atomically (see the module docstring). ``mode``: the permission bits; by default an
    existing file's are kept (``old``: its ``lstat``, when the caller took it) and a new
    file gets ``new_mode & ~umask``. On any failure the temporary file is removed and
    ``path`` is untouched and the OSError raised (:class:`TempFileError` when the
    temporary file could not be created)."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    directory, name = os.path.split(os.path.abspath(path))
    if old is None:
        try:
            old = os.stat(path)
        except FileNotFoundError:
            old = None
    tmp = os.path.join(directory, temp_name(name))
    # A new file is created with the umask's bits, which it keeps. A replacement starts
    # at 0600 and gets its bits just before the rename, so text written to a private
    # file never sits in a more open one.
    try:
        fd = os.open(tmp, _FLAGS, new_mode if old is None and mode is None else 0o600)
    except OSError as exc:
        raise TempFileError(exc.errno, exc.strerror, tmp) from exc
    try:
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view) :]
            _set_metadata(fd, old, mode)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    fsync_directory(directory)


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


def fsync_directory(directory: str) -> None:
    """Make a rename or removal in ``directory`` durable (POSIX; best effort)."""
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
