"""Reading the host's payload from stdin: the first complete JSON value, not EOF.

Some hosts (and wrappers around them) write the payload and keep the pipe open; waiting
for end-of-file then runs into the hook's deadline with a complete payload in hand
(issue 13 item 4). So reading stops at end-of-file *or* as soon as what was read is one
complete JSON value. A parse is attempted only when the pipe has nothing more to give at
that instant, so a large payload arriving in many chunks is parsed once, not once per
chunk. Anything after the first value is ignored.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

#: Largest payload read (Hermes sends the whole conversation history); one byte more
#: is read so that the handler can say it was too large.
LIMIT = 16 * 1024 * 1024
CHUNK = 1 << 16


def read_payload(stdin: BinaryIO) -> tuple[bytes, str | None]:
    """(the bytes of the payload, a note or None). Never raises: an unreadable stdin is an
    empty payload with a note."""
    try:
        fd = stdin.fileno()
    except (AttributeError, OSError, ValueError):
        fd = None
    try:
        if fd is None:
            return stdin.read(LIMIT + 1), None
        return _read_fd(fd), None
    except OSError as exc:
        return b"", f"could not read the payload on stdin: {exc.strerror or exc}"


def _read_fd(fd: int) -> bytes:
    import select

    parts: list[bytes] = []
    size = 0
    while size <= LIMIT:
        chunk = os.read(fd, CHUNK)
        if not chunk:
            break
        parts.append(chunk)
        size += len(chunk)
        if chunk.rstrip()[-1:] not in (b"}", b"]"):
            continue
        try:
            ready, _, _ = select.select([fd], [], [], 0)
        except (OSError, ValueError):
            ready = [fd]
        if ready:
            continue  # more is waiting: read it before trying to parse
        first = _first_value(b"".join(parts))
        if first is not None:
            return first
    return b"".join(parts)  # at end-of-file the handler takes the first value itself


def _first_value(data: bytes) -> bytes | None:
    """``data`` up to the end of its first complete JSON value, or None while it is not
    complete yet (or not UTF-8 JSON at all: then end-of-file decides)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    try:
        from ..jsonfast import loads

        loads(text)
    except (ValueError, RecursionError):
        return None
    return data
