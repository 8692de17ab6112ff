"""The plain chat format, for any tool memhooks has no reader for: JSON Lines, one message a line.

::

    {"role": "user", "text": "Merge overlapping incident windows first.", "time": "2026-11-30T12:00:00Z"}
    {"role": "assistant", "text": "Done: downtime_minutes merges them.", "files": ["uptime/incidents.py"]}

``role`` (``user`` or ``assistant``) and ``text`` are required; ``time`` (ISO 8601 with
``Z`` or an offset) and ``files`` (paths the message read or changed, relative to the
project root or absolute) are optional, and so is ``session`` (an id; lines without one
belong to a session named after the file). Other keys are ignored. Such files are never
looked for: they are named with ``memhooks transcripts import --chat FILE``. A line that
breaks these rules is an error (MH034) naming the file, line and column, and nothing of
that file is imported.
"""

from __future__ import annotations

import json
import os

from ..errors import Diagnostic, DiagnosticError
from ..store.memory import parse_timestamp
from .model import ASSISTANT, USER, Message, ToolUse, Transcript

NAME = "chat"
MAX_BYTES = 64 << 20


def read_all(path: str, root: str) -> list[Transcript]:
    """Every session of the chat file at ``path`` (``root``: the project they belong to),
    in the order they first appear. Raises DiagnosticError MH034 for a bad line or a file
    that cannot be read (a folder, no permission), MH024 when there is no file at ``path``.
    """
    path = os.path.abspath(path)
    data = _read(path)
    if len(data) > MAX_BYTES:
        raise _error(path, 1, 1, f"the file is larger than {MAX_BYTES >> 20} MiB; split it")
    default = os.path.splitext(os.path.basename(path))[0]
    found: dict[str, Transcript] = {}
    for number, raw in enumerate(data.split(b"\n"), 1):
        if not raw.strip():
            continue
        session, message = _line(path, number, raw)
        session = session or default
        if session not in found:
            found[session] = Transcript(NAME, session, path, root)
        found[session].messages.append(message)
    return [t for t in found.values() if any(m.role == USER for m in t.messages)]


def _line(path: str, number: int, raw: bytes) -> tuple[str | None, Message]:
    try:
        record = json.loads(raw)
    except UnicodeDecodeError:
        raise _error(path, number, 1, "the line is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise _error(path, number, exc.colno, f"not JSON: {exc.msg}") from None
    if not isinstance(record, dict):
        raise _error(path, number, 1, "a line must be a JSON object")
    role = record.get("role")
    if role not in (USER, ASSISTANT):
        raise _error(path, number, 1, f'`role` must be "user" or "assistant", not {role!r}')
    text = record.get("text")
    if not isinstance(text, str) or not text.strip():
        raise _error(path, number, 1, "`text` must be a non-blank string")
    at = record.get("time")
    if at is not None:
        try:
            at = parse_timestamp(at)
        except (TypeError, ValueError) as exc:
            raise _error(path, number, 1, str(exc).replace("`created_at`", "`time`")) from None
    files = record.get("files", [])
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        raise _error(path, number, 1, "`files` must be a list of paths")
    session = record.get("session")
    if session is not None and (not isinstance(session, str) or not session.strip()):
        raise _error(path, number, 1, "`session` must be a non-blank string")
    tools = [ToolUse("files", "read", list(files))] if files else []
    return session, Message(role, text.strip(), at, tools)


def blank(path: str) -> bool:
    """Whether the chat file at ``path`` holds nothing but white space; raises as
    :func:`read_all` does for a file that is not there or cannot be read."""
    return not _read(os.path.abspath(path)).strip()


def _read(path: str) -> bytes:
    """The first :data:`MAX_BYTES` + 1 bytes of the file at ``path`` (absolute)."""
    try:
        with open(path, "rb") as fp:
            return fp.read(MAX_BYTES + 1)
    except FileNotFoundError:
        message = "no chat file here"
        raise DiagnosticError(Diagnostic("MH024", message, path, help=_NAME_ONE)) from None
    except OSError as exc:
        message = f"cannot read the chat file: {exc.strerror or exc}"
        raise DiagnosticError(Diagnostic("MH034", message, path, help=_NAME_ONE)) from None


#: What to do about a chat file that is not there or cannot be read.
_NAME_ONE = "name a readable chat file (JSON Lines) with --chat"


def _error(path: str, line: int, column: int, message: str) -> DiagnosticError:
    return DiagnosticError(Diagnostic("MH034", message, path, line, column))
