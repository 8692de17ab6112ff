"""A child process without :mod:`subprocess`: started with ``posix_spawn`` (or forked),
read through one pipe under a deadline, reaped, never left behind.

Importing ``subprocess`` and forking with it cost ~8 ms on the first ``validate --all``'s
critical path (``docs/performance.md``); ``posix_spawnp`` runs the program in a ``vfork``.
git is started through :func:`memhooks.git.spawn`.
"""

from __future__ import annotations

import _thread
import os
import select
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

#: Seconds a child may take before it is killed.
TIMEOUT_S = 30.0


class Child:
    """A process started with ``posix_spawn`` (no ``subprocess``: importing it costs
    more than the spawn), its standard output a pipe, its input and errors
    ``/dev/null``, its environment ``env`` (this process's by default); or, with
    ``argv`` None, this process forked to run ``run``
    (:func:`memhooks.listing.walker.walk`) with the pipe's end (it never returns into
    the caller's code). It is killed after :data:`TIMEOUT_S` seconds of reading."""

    def __init__(
        self,
        argv: list[str] | None,
        run: Callable[[int], None] | None = None,
        *,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.deadline = time.monotonic() + TIMEOUT_S
        self.rest = b""  # what was read but not yet taken
        self.status: int | None = None
        read, write = os.pipe()
        if argv is None:
            try:
                self.pid = os.fork()
            except BaseException:
                os.close(read)
                os.close(write)
                raise
            if self.pid == 0:  # the child: walk, then exec git or exit, whatever happens
                code = 1
                try:
                    os.close(read)
                    if run is not None:
                        run(write)
                    code = 0
                finally:
                    os._exit(code)
            os.close(write)
            self.fd: int | None = read
            return
        null = os.open(os.devnull, os.O_RDWR)
        try:
            self.pid = os.posix_spawn(
                program(argv[0]), argv, os.environ if env is None else env,
                file_actions=[(os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, write, 1),
                              (os.POSIX_SPAWN_DUP2, null, 2)],
            )  # fmt: skip
        except BaseException:
            os.close(read)
            raise
        finally:
            os.close(write)
            os.close(null)
        self.fd = read

    def read(self) -> bytes:
        """The next bytes of the output (b"" at its end); raises OSError past the deadline."""
        if self.fd is None:
            return b""
        left = self.deadline - time.monotonic()
        if left <= 0 or not select.select([self.fd], [], [], left)[0]:
            raise OSError("timed out")
        return os.read(self.fd, 1 << 16)

    def output(self, success: tuple[int, ...]) -> str | None:
        """What the process prints from here on (decoded as git's paths are), or None
        when it failed (exited with a code not in ``success``); raises OSError past the
        deadline."""
        chunks = [self.rest]
        while data := self.read():
            chunks.append(data)
        if self.wait() not in success:
            return None
        return b"".join(chunks).decode("utf-8", "surrogateescape")

    def fields(self, success: tuple[int, ...]) -> list[str] | None:
        """The NUL-terminated fields printed from here on, or None when the process
        failed (see :meth:`output`) or the last field is unended."""
        text = self.output(success)
        if text is None or (text and not text.endswith("\0")):
            return None
        return text.split("\0")[:-1]

    def wait(self) -> int:
        """The exit code (negative: killed by that signal)."""
        if self.status is None:
            self.status = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        return self.status

    def end(self) -> None:
        """Kill the process if it still runs and reap it."""
        if self.status is None and os.waitpid(self.pid, os.WNOHANG)[0] == 0:
            os.kill(self.pid, 9)  # SIGKILL
        self.wait()


def program(name: str) -> str:
    """The file ``execvp`` runs for ``name``: ``name`` itself when it holds a ``/``,
    else the first executable file of that name in a folder of ``PATH`` (an empty entry
    is the current folder), as an absolute path (the walker changes its working
    folder), remembered for that ``PATH`` while it stays executable;
    raises FileNotFoundError.

    Each spawn would search ``PATH`` again, one failed ``execve`` a folder before it
    (nine here, for git), while this process waits (``posix_spawnp`` runs it in a ``vfork``)."""
    if "/" in name:
        return name
    path = os.environ.get("PATH", os.defpath)
    found = _PROGRAMS.get((name, path))
    if found is None or not os.access(found, os.X_OK):
        for folder in path.split(os.pathsep):
            candidate = os.path.abspath(os.path.join(folder or ".", name))
            if os.access(candidate, os.X_OK) and not os.path.isdir(candidate):
                found = _PROGRAMS[(name, path)] = candidate
                break
        else:
            raise FileNotFoundError(2, "not found on PATH", name)
    return found


_PROGRAMS: dict[tuple[str, str], str] = {}


def alone() -> bool:
    """Whether no thread but the main one runs (forking is safe): ``_thread``'s count, as
    ``sys._current_frames()`` deadlocks where a collection clears a ``threading.local``
    (CPython gh-106883; 3.11.7 here: the suite hung, a hook would have)."""
    return _thread._count() == 0
