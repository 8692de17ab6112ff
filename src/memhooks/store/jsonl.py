"""Memories in and out as JSON Lines, so they can be moved, reviewed and versioned.

An exported line is :meth:`Memory.to_json` without ``project`` (the importing
side decides the project). An imported line needs only ``text``; every other
field of an export is optional, and keys this module does not know are ignored.
"""

from __future__ import annotations

import json
import re

from memhooks.errors import Diagnostic, DiagnosticError

from . import rows
from .fields import CLEAN
from .memory import Memory, format_timestamp

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterable
    from typing import IO, Any

    Fields = dict[str, Any]


def export(conn: sqlite3.Connection, project: str, fp: IO[str]) -> int:
    """Write every memory of ``project`` (obsolete ones too), oldest first; return the count."""
    cursor = conn.execute(
        f"SELECT {rows.COLUMNS} FROM memories m WHERE m.project = ? ORDER BY m.created_at, m.id",
        (project,),
    )
    count = 0
    for row in cursor:
        fp.write(line(rows.from_row(row)))
        count += 1
    return count


def line(memory: Memory) -> str:
    """One exported line: :meth:`Memory.to_json` without ``project``, newline-terminated."""
    record = memory.to_json()
    del record["project"]
    return json.dumps(record, ensure_ascii=False) + "\n"


#: The code of a line ``memhooks memories import`` cannot take (docs/diagnostics.md).
BAD_LINE = "MH045"


def parse(lines: Iterable[str | bytes], name: str) -> list[tuple[int, Fields]]:
    """Validate every line before anything is written: ``[(line number, fields given)]``.

    Blank lines are skipped. Raises :class:`~memhooks.errors.DiagnosticError`
    :data:`BAD_LINE` at the first bad line: ``name``, the line, the column (of the JSON
    error, the undecodable byte, or the field at fault; 1 when the whole line is) and
    what is wrong; the catalogue says what a line must be. Give bytes lines (a file
    opened in binary mode) to get exact line numbers for encoding errors too: a
    text-mode file decodes ahead of the line being read.
    """
    out: list[tuple[int, Fields]] = []
    seen: dict[str, int] = {}
    number = 0
    iterator = iter(lines)
    while True:
        try:
            raw = next(iterator)
        except StopIteration:
            break
        except UnicodeDecodeError as exc:
            raise _bad(
                name, number + 1, None,
                f"not UTF-8 ({exc.reason}) at or after this line; save the file as UTF-8",
            ) from None  # fmt: skip
        number += 1
        try:
            text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError as exc:
            column = len(exc.object[: exc.start].decode("utf-8", "replace")) + 1
            raise _bad(
                name, number, column, f"not UTF-8 ({exc.reason}); save the file as UTF-8"
            ) from None
        text = text.lstrip("\ufeff") if number == 1 else text
        if not text.strip():
            continue
        try:
            fields = _fields(text)
        except _LineError as exc:
            raise _bad(name, number, exc.column, str(exc)) from None
        if "id" in fields:
            if fields["id"] in seen:
                raise _bad(
                    name, number, _column(text, "id"),
                    f"id {fields['id']!r} is already used on line {seen[fields['id']]};"
                    " give each memory its own id",
                )  # fmt: skip
            seen[fields["id"]] = number
        out.append((number, fields))
    return out


def _bad(name: str, line: int, column: int | None, message: str) -> DiagnosticError:
    return DiagnosticError(Diagnostic(BAD_LINE, message, name, line, column))


def store(
    conn: sqlite3.Connection,
    project: str,
    records: list[tuple[int, Fields]],
    *,
    default_scope: str,
    source: str,
    now: float,
) -> dict[str, int]:
    """Write parsed records in the caller's transaction; return ``{"added": n, "updated":
    n, "unchanged": n}`` (a line that would change nothing is not written).

    A record whose ``id`` exists in ``project`` updates that memory: fields on the
    line replace stored ones, fields left out keep their stored value. New records
    get ``default_scope``, ``source``, a fresh id and ``now`` (seconds since the
    epoch) as ``created_at`` for whatever the line leaves out.
    """
    counts = {"added": 0, "updated": 0, "unchanged": 0}
    for _number, fields in records:
        existing = rows.find(conn, project, fields["id"]) if "id" in fields else None
        if existing is not None:
            stored = {key: getattr(existing, key) for key in fields}
            for key, value in fields.items():
                setattr(existing, key, value)
            if all(getattr(existing, key) == value for key, value in stored.items()):
                # Not written: a write would move the store's generation, and every
                # cached search list with it, for nothing.
                counts["unchanged"] += 1
                continue
            rows.update(conn, existing)
            counts["updated"] += 1
            continue
        memory = Memory(
            id=rows.fresh_id(conn, project, now),
            project=project,
            scope=default_scope,
            files=[],
            text="",
            kind=None,
            tags=[],
            entities=[],
            created_at=format_timestamp(now),
            source=source,
        )
        for key, value in fields.items():
            setattr(memory, key, value)
        rows.insert(conn, memory)
        counts["added"] += 1
    return counts


class _LineError(ValueError):
    """What is wrong with one line, and the column (1-based) it is at."""

    def __init__(self, message: str, column: int = 1) -> None:
        super().__init__(message)
        self.column = column


def _fields(line: str) -> Fields:
    try:
        data = json.loads(line.rstrip("\r\n"))  # its end, not 1 of the line after it
    except ValueError as exc:
        message = getattr(exc, "msg", str(exc))
        raise _LineError(
            f"not valid JSON ({message}); each line must be one JSON object",
            getattr(exc, "colno", 1),
        ) from None
    if not isinstance(data, dict):
        start = len(line) - len(line.lstrip()) + 1  # the value, after any indent
        raise _LineError("each line must be a JSON object with at least a `text` field", start)
    if "text" not in data:
        start = len(line) - len(line.lstrip()) + 1
        raise _LineError("missing `text`; every memory needs its text", start)
    fields: Fields = {}
    for key in ("text", *data):
        if key in CLEAN and key not in fields:
            try:
                fields[key] = CLEAN[key](data[key])
            except (TypeError, ValueError) as exc:
                raise _LineError(str(exc), _column(line, key)) from None
    return fields


def _column(line: str, key: str) -> int:
    """The 1-based column of ``"key":`` in ``line`` (1 when it is not found as written)."""
    found = re.search(rf'"{re.escape(key)}"\s*:', line)
    return found.start() + 1 if found is not None else 1
