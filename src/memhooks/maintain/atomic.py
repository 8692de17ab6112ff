"""Replace hook files so that a crash never leaves a damaged one: the durable atomic
writer (:func:`memhooks.atomicfile.write`) with a hook's own rules and errors. The only
debris a killed writer can leave is its temporary file, named
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

from .. import atomicfile
from ..errors import DiagnosticError, fail
from ..protocol import HOOK_NAME, UNSAFE

PathLike = str | os.PathLike[str]

#: Default age (seconds) below which :func:`sweep_stale_temps` leaves a temp file alone.
STALE_AFTER_S = 30.0

_EDQUOT = getattr(errno, "EDQUOT", -1)  # not defined on every platform
_ADVICE = {
    errno.ENOSPC: "free some disk space and run the command again",
    _EDQUOT: "free some space within your disk quota and run the command again",
    errno.EROFS: "the file system is read-only; remount it read-write or work in a writable copy",
    errno.EACCES: "check that you may write to the hook's directory",
    errno.EPERM: "check that you may write to the hook's directory",
}


def is_temp_name(name: str, hook_name: str = HOOK_NAME) -> bool:
    """True when ``name`` is a temporary file of the writer for ``hook_name``."""
    return atomicfile.is_temp_name(name, hook_name)


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
    old = _lstat_regular(path)
    try:
        atomicfile.write(path, data, mode=mode, old=old)
    except atomicfile.TempFileError as exc:
        raise io_error("create a temporary file next to the hook", path, exc) from exc
    except OSError as exc:
        raise io_error("write the hook", path, exc) from exc


def sweep_stale_temps(
    directory: PathLike, *, hook_name: str = HOOK_NAME, older_than_s: float = STALE_AFTER_S
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
