"""Blame ahead of the edit: a bounded background process that blames a whole file so the
edit that follows a Read finds its lines' owners ready (issue 20 item 7).

Not a daemon (seed 000's boundary): one process per file that is not cached yet, started
by the hook of the Read and ending by itself — when the file is blamed, or after
``limit_s`` seconds, whichever comes first. Single-flight per file: a lock file beside the
file's cache entry is created exclusively; while it exists (and is younger than
``limit_s``) no second process starts for that file. The process is detached (its own
session, no standard streams: the host does not wait for it) and writes nothing but the
cache entry. The hook starts it (issue 20 item 7); nothing else does.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time

from . import cache

#: Seconds a background blame may run (and after which its lock is stale).
LIMIT_S = 30.0


def spawn(top: str, path: str, state_dir: str, *, limit_s: float = LIMIT_S) -> bool:
    """Start blaming ``path`` (relative to the work tree ``top``) in the background
    unless it is being blamed already; True when a process was started."""
    lock = cache.path_of(state_dir, top, path) + ".warm"
    if not _take(lock, limit_s):
        return False
    argv = [sys.executable, "-m", "memhooks.lines.warm", top, path, state_dir, str(limit_s)]
    try:
        _start(argv)
    except OSError:
        _drop(lock)
        return False
    return True


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
                if time.time() - os.stat(lock).st_mtime < limit_s:
                    return False
            except OSError:
                pass
            _drop(lock)  # stale: its process was killed before it could remove it
        except OSError:
            return False
    return False


def _drop(lock: str) -> None:
    try:
        os.unlink(lock)
    except OSError:
        pass


def main(argv: list[str]) -> int:
    """The background process: ``TOP PATH STATE_DIR LIMIT_S``."""
    from .ownership import owners

    top, path, state_dir, limit = argv
    lock = cache.path_of(state_dir, top, path) + ".warm"
    try:
        # Nobody to tell of a failure here: the next hook call blames what is missing
        # and says what went wrong.
        with contextlib.suppress(Exception):
            owners(top, path, state_dir=state_dir, deadline=time.monotonic() + float(limit))
    finally:
        _drop(lock)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
