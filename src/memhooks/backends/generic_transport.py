"""How the generic backend reaches its memory system: one HTTP exchange (memhooks'
deadline-bound client, :mod:`memhooks.backends.http`) or one command run, each bounded in time, every failure a BackendError that
says which kind it was."""

from __future__ import annotations

import os
import signal
import subprocess

from ..errors import BackendError
from ..limits import MAX_READ_BYTES
from .http import Endpoint, HTTPFailure

MAX_RESPONSE = MAX_READ_BYTES  # bytes: a memory list, not a data dump
MAX_DETAIL = 200


def http(
    method: str, url: str, payload: bytes | None, headers: dict[str, str], timeout_s: float
) -> tuple[int, bytes]:
    """``(status, body)`` of one HTTP exchange, all of it within ``timeout_s`` — every
    connect, send and ``recv`` bounded by what is left (:mod:`memhooks.backends.http`).
    BackendError for an HTTP error status (401/403 said as refused credentials), no
    answer in time, an unreachable server, a reset, or a body over :data:`MAX_RESPONSE`
    bytes."""
    where = shown(url)
    base, _, query = url.partition("?")
    endpoint = Endpoint("generic", base)
    try:
        status, body = endpoint.exchange(
            method, f"?{query}" if query else "", payload, headers,
            timeout_s=timeout_s, what=f"request to {where}",
        )  # fmt: skip
    except HTTPFailure as exc:
        if exc.kind == "timeout":
            raise BackendError(
                f"generic: {where} did not answer within {timeout_s:.2f} s"
            ) from None
        if exc.kind == "unreachable":
            reason = str(exc).rsplit(": ", 1)[-1]
            raise BackendError(f"generic: {where} is unreachable: {reason}") from None
        raise BackendError(str(exc)) from None
    if status >= 400:
        said = detail(body[:4096])
        kind = "refused the credentials" if status in (401, 403) else "answered"
        raise BackendError(f"generic: {where} {kind} HTTP {status}" + (f": {said}" if said else ""))
    return status, body


def run_command(argv: list[str], payload: bytes, timeout_s: float) -> bytes:
    """Run ``argv`` (no shell) with ``payload`` on stdin; its stdout. The whole process
    group is killed when ``timeout_s`` passes. BackendError on timeout, a missing
    program or a non-zero exit (with the last line of stderr)."""
    posix = os.name == "posix"
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=posix,
        )
    except OSError as exc:
        raise BackendError(f"generic: cannot run {argv[0]!r}: {exc.strerror or exc}") from None
    try:
        out, err = process.communicate(payload, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        if posix:
            os.killpg(process.pid, signal.SIGKILL)  # its children too: they hold the pipes
        else:  # pragma: no cover - Windows
            process.kill()
        process.communicate()
        raise BackendError(f"generic: {argv[0]} did not answer within {timeout_s:.2f} s") from None
    if process.returncode != 0:
        said = detail(err.strip().splitlines()[-1] if err.strip() else b"")
        raise BackendError(
            f"generic: {argv[0]} exited with status {process.returncode}"
            + (f": {said}" if said else "")
        )
    return out


def detail(raw: bytes) -> str:
    text = raw.decode("utf-8", "replace").strip()
    return text[:MAX_DETAIL] + ("…" if len(text) > MAX_DETAIL else "")


def shown(url: str) -> str:
    """``url`` fit for an error message: no credentials, no query string."""
    from .secrets import display  # an error's words: a search that answers never loads it

    return str(display(url)).split("?", 1)[0]
