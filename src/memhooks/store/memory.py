"""The memory record and the rules its fields obey (ids, timestamps, lists).

Kept free of SQL so the recall runtime and other backends can build and read
:class:`Memory` objects without opening a store.
"""

from __future__ import annotations

import os
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

#: Order of keys in :meth:`Memory.to_json` (and so in exported JSONL lines).
FIELDS = (
    "id",
    "project",
    "scope",
    "files",
    "text",
    "kind",
    "tags",
    "entities",
    "created_at",
    "source",
    "obsolete",
    "superseded_by",
)

_TIMESTAMP_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


class Memory:
    """One remembered thing, as stored.

    - ``id``: str, unique within its project; generated ids sort by creation time.
    - ``project``: str, see :func:`memhooks.store.project_id`.
    - ``scope``: str, root-relative directory with ``/`` separators; ``""`` is the root.
    - ``files``: list[str], root-relative POSIX paths the memory is about.
    - ``text``: str, never blank.
    - ``kind``: str | None, open vocabulary (``decision``, ``failure``, ...).
    - ``tags``, ``entities``: list[str], order kept, duplicates removed.
    - ``created_at``: str, ISO 8601 UTC with second precision, ``2026-11-30T12:00:00Z``.
    - ``source``: str, who or what recorded it (``cli``, ``import``, an agent hook ...).
    - ``obsolete``: bool; ``superseded_by``: id of the replacing memory or None.
    """

    __slots__ = FIELDS

    def __init__(
        self,
        id: str,
        project: str,
        scope: str,
        files: list[str],
        text: str,
        kind: str | None,
        tags: list[str],
        entities: list[str],
        created_at: str,
        source: str,
        obsolete: bool = False,
        superseded_by: str | None = None,
    ) -> None:
        self.id = id
        self.project = project
        self.scope = scope
        self.files = files
        self.text = text
        self.kind = kind
        self.tags = tags
        self.entities = entities
        self.created_at = created_at
        self.source = source
        self.obsolete = obsolete
        self.superseded_by = superseded_by

    def to_json(self) -> dict[str, Any]:
        """All fields as a JSON-ready dict, keys in :data:`FIELDS` order."""
        return {name: getattr(self, name) for name in FIELDS}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Memory) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # mutable record

    def __repr__(self) -> str:
        return f"Memory({self.id!r}, project={self.project!r}, scope={self.scope!r}, text={self.text[:40]!r})"


class Draft:
    """A memory to record, as a caller says it (``memhooks remember``, the MCP tool):
    ``text``, ``project`` (project id), ``scope`` (root-relative folder), ``files``,
    ``kind``, ``tags``, ``entities``, ``source`` (who recorded it), ``created_at``
    (ISO 8601 or ``None`` for now). The one record every ``remember`` takes — the
    embedded store's (:meth:`memhooks.store.MemoryStore.remember`, which normalizes it
    into a :class:`Memory`) and every backend's that writes
    (:class:`memhooks.backends.capabilities.Remembers`)."""

    __slots__ = (
        "created_at",
        "entities",
        "files",
        "kind",
        "project",
        "scope",
        "source",
        "tags",
        "text",
    )

    def __init__(
        self,
        text: str,
        *,
        project: str,
        scope: str = "",
        files: list[str] | None = None,
        kind: str | None = None,
        tags: list[str] | None = None,
        entities: list[str] | None = None,
        source: str = "",
        created_at: str | None = None,
    ) -> None:
        self.text = text
        self.project = project
        self.scope = scope
        self.files = files or []
        self.kind = kind
        self.tags = tags or []
        self.entities = entities or []
        self.source = source
        self.created_at = created_at


def new_id(now: float) -> str:
    """A fresh memory id: 12 hex digits of milliseconds since the epoch, then 8 more.

    The last 8 start random in each millisecond and count up within it, so ids
    made by one process sort in creation order and ids from different processes
    sort by millisecond and collide with probability about 2**-32 per pair made
    in the same millisecond (callers check for that).
    """
    millis = int(now * 1000)
    last_millis, last_counter = _last_id
    if millis <= last_millis:
        millis, counter = last_millis, last_counter + 1
        if counter > 0xFFFFFFFF:
            millis, counter = millis + 1, 0
    else:
        counter = int.from_bytes(os.urandom(4), "big") >> 1  # headroom to count up
    _last_id[:] = [millis, counter]
    return f"{millis:012x}{counter:08x}"


# (milliseconds, counter) of the last id made in this process.
_last_id = [0, 0]


def format_timestamp(now: float) -> str:
    """Seconds since the epoch -> ``YYYY-MM-DDTHH:MM:SSZ`` (UTC)."""
    return time.strftime(_TIMESTAMP_FORMAT, time.gmtime(now))


def parse_timestamp(value: object) -> str:
    """Validate an ISO 8601 date-time with ``Z`` or a UTC offset; return it in UTC, ``...Z`` form.

    Extended format (``2026-11-30T12:00:00+01:00``); fractions of a second are dropped. Raises :class:`ValueError` with a message
    that says what is wrong (TypeError for a non-string; callers add the location).
    """
    # datetime is already loaded by sqlite3, so this import costs nothing here.
    from datetime import datetime, timezone

    if not isinstance(value, str):
        raise TypeError(f"`created_at` must be a string, got {_json_type(value)}")
    text = value.strip()
    if text[-1:] in ("Z", "z"):
        text = text[:-1] + "+00:00"
    # Fractions are dropped anyway; cutting them here also spares Python 3.10's
    # fromisoformat, which accepts only exactly 3 or 6 digits.
    dot = text.find(".", 10)
    if dot != -1:
        end = dot + 1
        while end < len(text) and text[end].isdigit():
            end += 1
        text = text[:dot] + text[end:]
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(
            f"`created_at` {value!r} is not an ISO 8601 date-time; write e.g. 2026-11-30T12:00:00Z"
        ) from None
    if parsed.tzinfo is None and "T" not in text.upper() and " " not in text:
        raise ValueError(
            f"`created_at` {value!r} has no time of day; write e.g. {text[:10]}T00:00:00Z"
        )
    if parsed.tzinfo is None:
        raise ValueError(
            f"`created_at` {value!r} has no time zone; add `Z` (UTC) or an offset such as +02:00"
        )
    return parsed.astimezone(timezone.utc).strftime(_TIMESTAMP_FORMAT)


def encodable(name: str, value: str) -> str:
    """``value`` if it can be stored as UTF-8; ValueError naming the field otherwise (a lone
    surrogate from JSON ``"\\ud800"``, or command-line bytes that were not UTF-8)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(
            f"`{name}` is not valid Unicode at character {exc.start + 1} (a lone surrogate, or "
            "bytes that were not UTF-8); write it as UTF-8 text"
        ) from None
    return value


def clean_text(value: object) -> str:
    """The text, surrounding whitespace removed; TypeError if not a string, ValueError if
    blank or not valid Unicode."""
    if not isinstance(value, str):
        raise TypeError(f"`text` must be a string, got {_json_type(value)}")
    text = encodable("text", value).strip()
    if not text:
        raise ValueError("`text` is blank; a memory needs some text")
    return text


def clean_id(value: object) -> str:
    """A caller-chosen id: a non-empty string without whitespace, at most 200 characters."""
    if not isinstance(value, str) or not value or len(value) > 200:
        raise TypeError("`id` must be a non-empty string of at most 200 characters")
    encodable("id", value)
    if any(ch.isspace() or not ch.isprintable() for ch in value):
        raise ValueError(f"`id` {value!r} contains whitespace or control characters")
    return value


def clean_optional(name: str, value: object) -> str | None:
    """A string field that may be null (``kind``, ``superseded_by``); blank becomes None."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"`{name}` must be a string or null, got {_json_type(value)}")
    return encodable(name, value).strip() or None


def clean_labels(name: str, values: Iterable[object]) -> list[str]:
    """Tags or entities: strings, stripped, blanks dropped, first occurrence kept."""
    if isinstance(values, (str, bytes)):
        raise TypeError(f"`{name}` must be a list of strings, got a single string")
    out: list[str] = []
    for value in values:
        if not isinstance(value, str):
            raise TypeError(f"`{name}` must be a list of strings, found {_json_type(value)}")
        label = encodable(name, value).strip()
        if label and label not in out:
            out.append(label)
    return out


def _json_type(value: object) -> str:
    names = {bool: "a boolean", int: "a number", float: "a number", str: "a string"}
    names.update({list: "a list", dict: "an object", type(None): "null"})
    return names.get(type(value), type(value).__name__)
