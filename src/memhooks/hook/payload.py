"""Reading the host's payload from stdin: the first complete JSON value, not EOF.

Some hosts (and wrappers around them) write the payload and keep the pipe open; waiting
for end-of-file then runs into the hook's deadline with a complete payload in hand
(issue 13 item 4). So reading stops at end-of-file *or* as soon as what was read is one
complete JSON value. A parse is attempted only when a read ends in a closing bracket, so
a large payload arriving in many chunks is seldom parsed more than once. Anything after
the first value is ignored.

A payload of megabytes (a pasted log as the prompt) is held as little as it can be
(issue 14: a 1 MB prompt peaked at 29.8 MB RSS, against ~16 MB for a normal one): it is
read into one growing buffer (no list of chunks joined at the end), and once the event
is normalized its prompt is cut to what recall reads (:func:`bound_prompt`), so nothing
after the decode holds the full prompt.
"""

from __future__ import annotations

import os

from ..limits import MAX_READ_BYTES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

    from ..agents.base import NormalizedEvent

#: Largest payload read (:data:`memhooks.limits.MAX_READ_BYTES`); one byte more is read
#: so that the handler can say it was too large.
LIMIT = MAX_READ_BYTES
CHUNK = 1 << 16


def read_payload(stdin: BinaryIO) -> tuple[bytes | bytearray, str | None]:
    """(the bytes of the payload, a note or None): a ``bytearray`` when read from a file
    descriptor (:func:`memhooks.hook.handler.parse` empties it once decoded). Never
    raises: an unreadable stdin is an empty payload with a note."""
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


def _read_fd(fd: int) -> bytearray:
    buf = bytearray()
    while len(buf) <= LIMIT:
        chunk = os.read(fd, CHUNK)
        if not chunk:
            break
        buf += chunk
        # Only what ends like a JSON document is tried. (No select() for "more is
        # waiting" first: the select module is ~0.2 ms of every hook process, and a
        # chunk of a longer payload seldom ends in a bracket.)
        if chunk.rstrip()[-1:] not in (b"}", b"]"):
            continue
        if _first_value(buf) is not None:
            return buf
    return buf  # at end-of-file the handler takes the first value itself


def _first_value(data: bytearray) -> bytearray | None:
    """``data`` (all of it: the handler takes its first value) once it holds a complete
    JSON value, or None while it does not yet (or is not UTF-8 JSON at all: then
    end-of-file decides)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    try:
        from ..fast.jsonfast import loads

        loads(text)
    except (ValueError, RecursionError):
        return None
    return data


def bound_prompt(event: NormalizedEvent) -> NormalizedEvent:
    """``event`` with its prompt cut to :data:`memhooks.protocol.text.MAX_PROMPT_CHARS`
    characters (:func:`memhooks.protocol.text.bound_prompt`: before a split word), the
    payload's own copy of the prompt (``event.raw``) replaced by the cut too, so the
    full prompt is freed right after the decode. Every reader of the prompt reads less
    than that bound already or is recall, which reads no more than it: the session's
    mentions (:data:`memhooks.session.mentions.MAX_TEXT`), the gate (its first 400
    characters), the session's latest prompt (:data:`memhooks.session.record.MAX_PROMPT`),
    capture's excerpts. A prompt within the bound is left as it is (the same object)."""
    full = event.prompt
    if full is None:
        return event  # a tool event: nothing imported
    from ..protocol.text import MAX_PROMPT_CHARS
    from ..protocol.text import bound_prompt as cut

    if len(full) <= MAX_PROMPT_CHARS:
        return event
    event.prompt = cut(full)
    _replace(event.raw, full, event.prompt, 4)
    return event


def _replace(value: object, old: str, new: str, depth: int) -> None:
    """Every value of the dicts (and lists) in ``value``, ``depth`` levels down, that is
    the very string ``old`` becomes ``new``. The hosts' adapters take the prompt out of
    the payload as it is (Hermes: ``extra.user_message``; OpenCode: ``output.parts[i].text``)."""
    if depth <= 0:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if item is old:
                value[key] = new
            elif isinstance(item, (dict, list)):
                _replace(item, old, new, depth - 1)
    elif isinstance(value, list):
        for index, item in enumerate(value[:64]):
            if item is old:
                value[index] = new
            elif isinstance(item, (dict, list)):
                _replace(item, old, new, depth - 1)
