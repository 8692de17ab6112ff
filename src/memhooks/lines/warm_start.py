"""Starting the blame ahead (:mod:`.warm`): one detached process per file, single-flight.

A lock file beside the file's cache entry is created exclusively before the process
starts, and the process writes its id in it (:func:`sign`) and removes it when it ends;
while it exists — younger than :data:`LIMIT_S` and its process alive (:func:`alive`) —
no second process starts for that file. A process killed on the way (the machine went
to sleep, or ran out of memory) leaves its lock behind: the next read starts another at
once, where it waited out the limit (newcomer29: meanwhile every edit of lines not yet
blamed ran git itself). The process is detached (its own session, no standard streams:
the host does not wait for it). Only :mod:`os`, :mod:`sys` and :mod:`time` are imported
here (and :mod:`.cache`, which names the lock, loaded by the read that starts it).
"""

from __future__ import annotations

import os
import sys
import time

from . import cache

#: Seconds a background blame may run (and after which its lock is stale).
LIMIT_S = 30.0


def spawn(top: str, path: str, state_dir: str, *, limit_s: float = LIMIT_S) -> bool:
    """Start blaming ``path`` (relative to the work tree ``top``) in the background
    unless it is being blamed already; True when a process was started."""
    lock = lock_of(state_dir, top, path)
    if not _take(lock, limit_s):
        return False
    argv = [sys.executable, "-m", "memhooks.lines.warm", top, path, state_dir, str(limit_s)]
    try:
        _start(argv)
    except OSError:
        drop(lock)
        return False
    return True


def lock_of(state_dir: str, top: str, path: str) -> str:
    """The lock file of the blame ahead of ``path`` (relative to the work tree ``top``),
    beside its cache entry (:func:`memhooks.lines.cache.path_of`)."""
    return cache.path_of(state_dir, top, path) + ".warm"


def _start(argv: list[str]) -> None:
    """Start ``argv`` detached: its own session, standard streams on the null device,
    not waited for (the hook exits at once; the system reaps it)."""
    if hasattr(os, "posix_spawn"):
        null = os.devnull
        actions = [
            (os.POSIX_SPAWN_OPEN, 0, null, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_OPEN, 1, null, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_OPEN, 2, null, os.O_WRONLY, 0),
        ]
        os.posix_spawn(argv[0], argv, os.environ, file_actions=actions, setsid=True)
        return
    import subprocess

    flags = getattr(subprocess, "DETACHED_PROCESS", 0) | getattr(
        subprocess, "CREATE_NEW_PROCESS_GROUP", 0
    )
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        creationflags=flags,
    )
    proc.returncode = 0  # detached on purpose: not a child to wait for


def _take(lock: str, limit_s: float) -> bool:
    for _ in range(2):
        try:
            os.makedirs(os.path.dirname(lock), mode=0o700, exist_ok=True)
            os.close(os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
            return True
        except FileExistsError:
            try:
                if time.time() - os.stat(lock).st_mtime < limit_s and alive(lock):
                    return False
            except OSError:
                pass
            drop(lock)  # stale: its process was killed before it could remove it
        except OSError:
            return False
    return False


def alive(lock: str) -> bool:
    """Whether the process whose id ``lock`` holds still runs; True while it holds none
    yet (its process is starting: it writes its id first thing, :func:`sign`) or one
    that cannot be read as an id."""
    try:
        with open(lock, "rb") as fp:
            pid = int(fp.read(32) or b"0")
    except (OSError, ValueError):
        return True
    if pid <= 0:
        return True
    try:
        os.kill(pid, 0)  # no signal sent: only whether it exists
    except ProcessLookupError:
        return False
    except OSError:  # another user's (PermissionError): it runs
        return True
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    """Whether process ``pid`` ended and waits to be reaped — ``kill(pid, 0)`` finds it
    still (newcomer31: a killed blame stayed a zombie 1–2 s where the init process reaps
    late, and for good in a container without one); Linux's ``/proc`` says so, elsewhere
    nothing does (False)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fp:
            return fp.read().rsplit(b")", 1)[1].split()[0] == b"Z"
    except (OSError, IndexError):
        return False


def sign(lock: str) -> None:
    """Write this process's id into its ``lock``, which the hook created for it; a lock
    that is gone already (taken for stale) is not made again."""
    try:
        fd = os.open(lock, os.O_WRONLY | os.O_NOFOLLOW)
    except OSError:
        return
    try:
        os.write(fd, str(os.getpid()).encode())
    except OSError:
        pass
    finally:
        os.close(fd)


def drop(lock: str) -> None:
    try:
        os.unlink(lock)
    except OSError:
        pass
