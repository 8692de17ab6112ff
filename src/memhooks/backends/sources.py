"""Asking several sources of one search at once, each under its own cap, keeping what
the healthy ones answered (:class:`~memhooks.backends.base.PartialHits`)."""

from __future__ import annotations

import time

from ..errors import BackendError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar

    T = TypeVar("T")

#: Seconds a source's thread may outlive its cap before it is reported as hanging (the
#: HTTP client stops at the cap itself; this only covers a call that does not).
GRACE_S = 0.25


def gather(
    calls: list[tuple[str, Callable[[], T]]], timeout_s: float
) -> tuple[list[tuple[str, T]], list[tuple[str, str]]]:
    """Run every ``(source, call)`` — concurrently when there are several, each one
    bounded by ``timeout_s`` seconds on its own — and return ``(answers, failures)``:
    ``(source, value)`` of the calls that returned and ``(source, message)`` of those
    that raised a BackendError or did not end in time, both in the order given. Any other
    exception is a bug and propagates."""
    if len(calls) == 1:
        source, call = calls[0]
        try:
            return [(source, call())], []
        except BackendError as exc:
            return [], [(source, str(exc))]
    import threading

    values: list[list[T]] = [[] for _ in calls]
    errors: list[list[BaseException]] = [[] for _ in calls]

    def run(call: Callable[[], T], value: list[T], error: list[BaseException]) -> None:
        try:
            value.append(call())
        except BaseException as exc:  # noqa: BLE001 - carried to the caller's thread
            error.append(exc)

    threads = [
        threading.Thread(
            target=run, args=(call, value, error), name=f"memhooks-{source}", daemon=True
        )
        for (source, call), value, error in zip(calls, values, errors)
    ]
    deadline = time.monotonic() + timeout_s + GRACE_S
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    answers: list[tuple[str, T]] = []
    failures: list[tuple[str, str]] = []
    for (source, _), value, error, thread in zip(calls, values, errors, threads):
        if thread.is_alive():
            failures.append((source, f"{source}: no answer within {timeout_s:.2f} s"))
        elif error and isinstance(error[0], BackendError):
            failures.append((source, str(error[0])))
        elif error:
            raise error[0]
        else:
            answers.append((source, value[0]))
    return answers, failures


def all_failed(backend: str, what: str, failures: list[tuple[str, str]]) -> BackendError:
    """The error of a search none of whose sources answered: every source's message."""
    if len(failures) == 1:
        return BackendError(failures[0][1])
    return BackendError(
        f"{backend}: every source of {what} failed: " + "; ".join(m for _, m in failures)
    )
