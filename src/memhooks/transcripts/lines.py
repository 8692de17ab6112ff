"""Reading a host's session file: JSON records, one per line, tolerant of damage.

A host appends to its session file while it runs, so the last line may be cut short,
and older versions wrote fields a newer one dropped. A line that is not a JSON object
is skipped and counted (the import says how many), never fatal. Files over
:data:`MAX_BYTES` are read up to that size: a session that long is cut, said so too.
"""

from __future__ import annotations

import json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

#: Bytes read from one session file at most (64 MiB: weeks of one long session).
MAX_BYTES = 64 << 20


class Damage:
    """What reading left out: ``lines`` not JSON objects, ``cut`` (the file was longer
    than :data:`MAX_BYTES`)."""

    __slots__ = ("cut", "lines")

    def __init__(self) -> None:
        self.lines = 0
        self.cut = False


def records(path: str, damage: Damage) -> Iterator[dict[str, object]]:
    """The JSON objects of the JSONL file at ``path``, in order. Raises OSError when the
    file cannot be opened."""
    with open(path, "rb") as fp:
        data = fp.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        damage.cut = True
        data = data[: data.rfind(b"\n", 0, MAX_BYTES) + 1]
    for raw in data.splitlines():
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except ValueError:
            damage.lines += 1
            continue
        if isinstance(record, dict):
            yield record
        else:
            damage.lines += 1


def document(path: str) -> object:
    """The whole file at ``path`` as one JSON value (older Gemini CLI sessions). Raises
    OSError, or ValueError when it is not JSON."""
    with open(path, "rb") as fp:
        data = fp.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ValueError(f"larger than {MAX_BYTES >> 20} MiB")
    return json.loads(data)


def first_record(path: str) -> dict[str, object] | None:
    """The first JSON object of a JSONL file (its header, for hosts that write one), or
    None. Reads at most 1 MiB."""
    try:
        with open(path, "rb") as fp:
            line = fp.readline(1 << 20)
    except OSError:
        return None
    try:
        record = json.loads(line)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def text_of(value: object) -> str:
    """The text of a message content: a string, or the ``text`` of each text part of a
    list (Anthropic ``{"type": "text"}``, OpenAI ``input_text``/``output_text``,
    Gemini ``{"text"}``), joined by blank lines. Other parts (tool results, images)
    are left out."""
    if isinstance(value, str):
        return value
    if not isinstance(value, list):
        return ""
    parts = []
    for part in value:
        if isinstance(part, str):
            parts.append(part)
        elif (
            isinstance(part, dict)
            and isinstance(part.get("text"), str)
            and part.get("type") in (None, "text", "input_text", "output_text")
        ):
            parts.append(part["text"])
    return "\n\n".join(p for p in parts if p.strip())


def string(value: object) -> str | None:
    """``value`` if it is a non-blank string."""
    return value if isinstance(value, str) and value.strip() else None
