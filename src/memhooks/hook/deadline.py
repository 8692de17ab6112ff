"""The hook's own deadline: answer the host with a no-op before the host gives up on us.

Hosts kill slow hooks (Claude Code's UserPromptSubmit after 30 s, Copilot and Cline after
30 s, Gemini after the configured milliseconds) and some then drop the prompt's hook
output or show an error. A watchdog thread fires at the deadline, writes the host's
no-op response and one line on stderr, and ends the process with status 0, whatever
the main thread is blocked in (a stdin that never closes, a locked SQLite file).

Exactly one response is ever written: the main thread and the watchdog both
:meth:`Watchdog.claim` the output first. The main thread claims it before it confirms
what the call recorded in the session's ledger (:func:`memhooks.hook.handler.handle`), so
a reply the deadline dropped leaves no delivery standing.
"""

from __future__ import annotations

import os

from .reply import coded

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

#: The code of a note that the deadline came first: the no-op was the answer
#: (:mod:`memhooks.commands.hook`), or recall queries were left unsearched
#: (:mod:`memhooks.hook.deliver`).
CODE = "MH043"
#: What to do about it, ending each such note (MH043's help in :mod:`memhooks.catalogue`).
ADVICE = "raise MEMHOOKS_HOOK_TIMEOUT_MS, or find what is slow (a loaded machine, a slow backend)"


def missed(what: str) -> str:
    """The coded note (:func:`memhooks.hook.reply.coded`) that the deadline made the
    call ``what`` (``"gave up after the 3000 ms deadline; nothing added"``), with what to
    do about it."""
    return coded(CODE, f"{what}; {ADVICE}")


def budget_ms(env: Mapping[str, str]) -> tuple[int, str | None]:
    """The deadline in milliseconds (``MEMHOOKS_HOOK_TIMEOUT_MS``,
    :mod:`memhooks.settings`) and, if the setting was invalid, why (then the default)."""
    from ..settings import integer

    notes: list[str] = []
    return integer("MEMHOOKS_HOOK_TIMEOUT_MS", env, notes), (notes[0] if notes else None)


#: The part of the deadline the call keeps however long its process took to start:
#: under heavy load it still answers what it can (recall, the edit's cue update) rather
#: than the no-op, and the host waits at most max(deadline, start + half the deadline).
MIN_WINDOW = 0.5
#: A process older than this is not a hook process the host just started (the deadline
#: is then counted from the call alone): hosts wait 60 s at most.
FRESH_S = 60.0


def started_ago() -> float:
    """Seconds since this process started, before memhooks ran: the interpreter's start
    and imports, which the host waited through too (Linux: the start time in
    ``/proc/self/stat``, in clock ticks since boot, against ``CLOCK_BOOTTIME``; 10 ms
    steps). 0.0 where that cannot be read, or for a process older than :data:`FRESH_S`.
    bench saw a PostToolUse hook take 6.2 s under load 8.5 against its 3 s deadline:
    the deadline counted from the call, after a slow start."""
    import time

    try:
        with open("/proc/self/stat", "rb") as fp:
            fields = fp.read().rsplit(b")", 1)[1].split()
        ago = time.clock_gettime(time.CLOCK_BOOTTIME) - int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return 0.0
    return ago if 0.0 < ago < FRESH_S else 0.0


def window(ms: int, before_s: float) -> float:
    """Seconds the watchdog gives the call: what is left of the ``ms`` deadline after
    ``before_s`` seconds of starting, but at least :data:`MIN_WINDOW` of it."""
    return max(ms / 1000 - before_s, ms / 1000 * MIN_WINDOW)


class Watchdog:
    """Calls ``on_expire()`` then ``os._exit(0)`` after ``seconds`` unless the main
    thread claimed the output first. ``exit`` is replaceable for tests.

    Built on :mod:`_thread` (a builtin) rather than :mod:`threading`: the hook's fast path
    ends in a few milliseconds, and ``import threading`` alone costs about a third of a
    bare interpreter's start (measured in ``bench/bench_hook.py``'s runs)."""

    def __init__(
        self, seconds: float, on_expire: Callable[[], None], exit: Callable[[int], None] = os._exit
    ) -> None:
        import _thread

        self._lock = _thread.allocate_lock()
        self._claimed: int | None = None  # the thread that claimed the output
        self._cancelled = False
        self._seconds = seconds
        self._on_expire = on_expire
        self._exit = exit

    def start(self) -> Watchdog:
        import _thread

        _thread.start_new_thread(self._wait, ())
        return self

    def claim(self) -> bool:
        """True for the first caller's thread only (asked again, that thread is told True
        again): that thread alone writes the response."""
        import _thread

        me = _thread.get_ident()
        with self._lock:
            if self._claimed is None:
                self._claimed = me
            return self._claimed == me

    def cancel(self) -> None:
        self._cancelled = True

    def _wait(self) -> None:
        import time

        end = time.monotonic() + self._seconds
        while not self._cancelled:
            left = end - time.monotonic()
            if left <= 0:
                self._fire()
                return
            time.sleep(min(left, 0.5))

    def _fire(self) -> None:
        if not self.claim():
            return
        try:
            self._on_expire()
        finally:
            self._exit(0)
