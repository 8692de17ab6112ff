"""An exclusive lock per hook, held for a whole read-modify-write.

Design (issue 3; ``shared/spec/reference-engine.md`` (f) and (l) item 9):

* **POSIX** — ``flock(LOCK_EX)`` on an ``O_RDONLY|O_DIRECTORY|O_NOFOLLOW`` descriptor of
  the hook's *directory*. No lock file is ever created, so nothing litters the user's tree
  or needs a ``.gitignore`` entry, and a holder that dies (even by SIGKILL) releases the
  lock: the kernel drops a ``flock`` lock with the last descriptor of its open file.
  One lock covers every hook file in that directory, which is what we want (a directory
  has one ``MEMHOOKS.md``). The lock is advisory: it excludes memhooks writers, not
  editors. It is not re-entrant: taking it twice in one process waits for itself.
  On file systems without ``flock`` on directories (some NFS set-ups) taking the lock
  fails with MH031 rather than going ahead unlocked.
* **Windows** (no ``fcntl``) — ``msvcrt.locking`` on a file in the user cache directory
  named by a hash of the hook's absolute path; Windows releases it when the process ends.
  Untested here; kept minimal on purpose.

Waiting is bounded: the lock is polled with short randomised sleeps until ``timeout``
seconds have passed, then MH031 is raised (another writer is stuck or very slow).

Compatibility with the reference engine, which locked a sibling ``.MEMHOOKS.md.lock``:
such a file is never created here, but if one exists as a symlink or special file it is
treated as an attack signal and refused with MH029, before anything is read.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from contextlib import AbstractContextManager
    from types import TracebackType

from ..errors import DiagnosticError, fail
from .atomic import PathLike, io_error, sweep_stale_temps, unsafe_path

#: Seconds :func:`hook_lock` waits for another writer before giving up.
DEFAULT_TIMEOUT_S = 10.0
#: Seconds a writer waits for another writer of the same hook. Generous on purpose: the
#: reference engine waits forever, and dozens of agents' writes to one hook on a busy
#: machine queue up for seconds; a writer killed by its host's timeout is harmless.
LOCK_TIMEOUT_S = 60.0


def legacy_lock_path(hook_path: PathLike) -> str:
    """The reference engine's lock file for ``hook_path``: ``.<name>.lock`` beside it."""
    directory, name = os.path.split(os.path.abspath(hook_path))
    return os.path.join(directory, f".{name}.lock")


def hook_lock(hook_path: PathLike, *, timeout: float = DEFAULT_TIMEOUT_S) -> HookLock:
    """Hold the exclusive maintenance lock of ``hook_path`` for the ``with`` block.

    ``hook_path`` need not exist; its directory must. ``timeout`` is in seconds
    (``0`` = try once). Raises DiagnosticError: MH029 when a legacy
    ``.MEMHOOKS.md.lock`` sibling is a symlink or special file, or the hook's directory
    is itself a symlink; MH031 when the directory cannot be opened or locked, or the
    lock is still held by another process after ``timeout`` seconds.

    Once the lock is held, temporary files that killed writers left beside the hook
    are swept, whatever their age (:func:`memhooks.maintain.atomic.sweep_stale_temps`).
    """
    return HookLock(hook_path, timeout)


class HookLock:
    """The context manager :func:`hook_lock` returns (a class, not
    :func:`contextlib.contextmanager`: the agent hook takes this lock and importing
    :mod:`contextlib` costs it ~0.5 ms). Not re-entrant; one ``with`` per instance."""

    __slots__ = ("_held", "path", "timeout")

    def __init__(self, hook_path: PathLike, timeout: float) -> None:
        self.path = hook_path
        self.timeout = timeout
        self._held: int | AbstractContextManager[None] | None = None

    def __enter__(self) -> None:
        _refuse_unsafe_legacy_lock(self.path)
        directory, name = os.path.split(os.path.abspath(self.path))
        if sys.platform == "win32":
            held = _windows_lock(self.path, self.timeout)
            held.__enter__()
        else:
            held = _directory_lock(self.path, self.timeout)
        self._held = held
        try:
            # Every writer of this file holds this lock, so no temporary file here belongs
            # to a live writer: whatever a killed one left goes now, whatever its age
            # (issue 22 item 1: one left for 30 s showed in `git status`).
            sweep_stale_temps(directory, hook_name=name, older_than_s=0)
        except BaseException:
            self._release()
            raise

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._release()

    def _release(self) -> None:
        held, self._held = self._held, None
        if isinstance(held, int):
            os.close(held)  # closing the last descriptor releases the flock
        elif held is not None:
            held.__exit__(None, None, None)


def _refuse_unsafe_legacy_lock(hook_path: PathLike) -> None:
    lock = legacy_lock_path(hook_path)
    try:
        st = os.lstat(lock)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise io_error("inspect the legacy lock file", lock, exc) from exc
    if not stat.S_ISREG(st.st_mode):
        raise unsafe_path(lock)


def _timed_out(hook_path: PathLike, timeout: float) -> DiagnosticError:
    return fail(
        "MH031",
        f"timed out after {timeout:g} s waiting for the maintenance lock; another memhooks process is updating this hook",
        os.fspath(hook_path),
        help="run the command again; if this persists, look for a stuck memhooks process (e.g. `fuser -v` on the hook's directory)",
    )


def _poll(try_lock: Callable[[], bool], hook_path: PathLike, timeout: float) -> None:
    """Call ``try_lock()`` until it returns True or ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    delay = 0.002
    while not try_lock():
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise _timed_out(hook_path, timeout)
        # Randomised, growing sleeps keep many waiting writers from moving in lockstep.
        import random  # only a writer that waits pays for it

        time.sleep(min(remaining, random.uniform(0.5, 1.5) * delay))
        delay = min(delay * 2, 0.05)


if sys.platform != "win32":
    import fcntl

    def _directory_lock(hook_path: PathLike, timeout: float) -> int:
        """An open descriptor of the hook's directory holding its ``flock``."""
        directory = os.path.dirname(os.path.abspath(hook_path))
        flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            fd = os.open(directory, flags)
        except OSError as exc:
            # Linux reports a symlink opened with O_NOFOLLOW|O_DIRECTORY as ENOTDIR, BSDs as ELOOP.
            if exc.errno in (errno.ELOOP, errno.ENOTDIR) and os.path.islink(directory):
                raise fail(
                    "MH029",
                    "the hook's directory is a symlink; maintain the hook through its real path",
                    directory,
                ) from None
            raise io_error("open the hook's directory for locking", directory, exc) from exc
        try:
            _poll(lambda: _try_flock(fd, directory), hook_path, timeout)
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _try_flock(fd: int, directory: str) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError as exc:
            raise io_error("lock the hook's directory", directory, exc) from exc
        return True

else:  # pragma: no cover - Windows only, not exercised by this test suite
    import hashlib
    import msvcrt
    from contextlib import contextmanager

    @contextmanager
    def _windows_lock(hook_path: PathLike, timeout: float) -> Iterator[None]:
        from ..dirs import cache_dir

        key = os.path.normcase(os.path.abspath(hook_path)).encode("utf-8")
        locks = os.path.join(cache_dir(), "locks")
        lock = os.path.join(locks, hashlib.sha256(key).hexdigest()[:32] + ".lock")
        try:
            os.makedirs(locks, exist_ok=True)
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_BINARY, 0o600)
        except OSError as exc:
            raise io_error("create the lock file", lock, exc) from exc

        def try_lock() -> bool:
            try:
                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            except OSError:
                return False
            return True

        try:
            _poll(try_lock, hook_path, timeout)
            try:
                yield
            finally:
                os.lseek(fd, 0, os.SEEK_SET)
                msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        finally:
            os.close(fd)
