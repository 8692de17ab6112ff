"""How the generic backend reaches its memory system: one HTTP exchange (stdlib
``urllib``) or one command run, each bounded in time, every failure a BackendError that
says which kind it was."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import urllib.error
import urllib.request

from ..errors import BackendError

MAX_RESPONSE = 16 * 1024 * 1024  # bytes: a memory list, not a data dump
MAX_DETAIL = 200


def http(
    method: str, url: str, payload: bytes | None, headers: dict[str, str], timeout_s: float
) -> tuple[int, bytes]:
    """``(status, body)`` of one HTTP exchange, all of it within ``timeout_s``. BackendError
        for an HTTP error status (401/403 said as refused credentials), no answer in time, an
    unreachable server, or a body over :data:`MAX_RESPONSE` bytes."""
    deadline = time.monotonic() + timeout_s
    request = urllib.request.Request(url, data=payload, method=method, headers=headers)
    where = shown(url)
    try:
        with urllib.request.urlopen(
            request, timeout=timeout_s
        ) as response:  # http(s) only: checked by _url
            chunks, size = [], 0
            while chunk := response.read(65536):
                size += len(chunk)
                if size > MAX_RESPONSE:
                    raise BackendError(
                        f"generic: response from {where} is larger than {MAX_RESPONSE} bytes"
                    )
                if time.monotonic() > deadline:
                    raise TimeoutError
                chunks.append(chunk)
            return response.status, b"".join(chunks)
    except urllib.error.HTTPError as exc:
        said = detail(exc.read(4096))
        kind = "refused the credentials" if exc.code in (401, 403) else "answered"
        raise BackendError(
            f"generic: {where} {kind} HTTP {exc.code}" + (f": {said}" if said else "")
        ) from None
    except (TimeoutError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        if isinstance(exc, TimeoutError) or isinstance(reason, TimeoutError):
            raise BackendError(
                f"generic: {where} did not answer within {timeout_s:.2f} s"
            ) from None
        raise BackendError(f"generic: {where} is unreachable: {reason}") from None


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
    from .config import display

    return str(display(url)).split("?", 1)[0]  # no credentials, no query string
