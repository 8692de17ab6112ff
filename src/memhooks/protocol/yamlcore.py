"""The YAML 1.2 core schema and the hook tree's shape, shared by both YAML readers.

Both readers — :mod:`.yamlfast` (libyaml, read-only) and :mod:`.yamlio` (ruamel.yaml,
round-trip) — resolve plain scalars by the exact YAML 1.2 core schema
(https://yaml.org/spec/1.2.2/#1032-tag-resolution): ``null``/``~``/empty,
``true``/``false`` in three spellings, decimal/``0o``/``0x`` ints, floats with
``.inf``/``.nan``; everything else (``no``, ``on``, ``2024-01-01``, ``1_000``) is a string.
Their trees answer :func:`position` / :func:`value_position` the same way (ruamel's
``lc`` interface), so the validator gives the same diagnostics whichever read the hook.

Nothing here imports a YAML library.
"""

from __future__ import annotations

import math
import re

TYPE_CHECKING = False  # typing costs ~2 ms to import; annotations are strings
if TYPE_CHECKING:
    from typing import Any

NULL = "tag:yaml.org,2002:null"
BOOL = "tag:yaml.org,2002:bool"
INT = "tag:yaml.org,2002:int"
FLOAT = "tag:yaml.org,2002:float"
STR = "tag:yaml.org,2002:str"

#: First character of a plain scalar -> [(tag, pattern)], tried in order (the shape both
#: ruamel's and PyYAML's resolvers use). No ``None`` key: ruamel extends the list it gets
#: for a first character with the ``None`` list in place, growing it on every scalar.
CORE: dict[str | None, list[tuple[str, re.Pattern[str]]]] = {}
for _tag, _pattern, _first in (
    (NULL, r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    (BOOL, r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
    (INT, r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", list("-+0123456789")),
    (
        FLOAT,
        (
            r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
            r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
        ),
        list("-+0123456789."),
    ),
):
    for _ch in _first:
        CORE.setdefault(_ch, []).append((_tag, re.compile(_pattern)))


def resolve(text: str) -> str:
    """The core-schema tag of a plain (unquoted) scalar."""
    for tag, pattern in CORE.get(text[:1], ()):
        if pattern.match(text):
            return tag
    return STR


def scalar_value(tag: str, text: str) -> Any:
    """The value a scalar of core-schema ``tag`` constructs to (the text when the tag is
    ``str`` or the text does not parse)."""
    try:
        if tag == INT:
            digits = text.lstrip("+-")
            base = {"0o": 8, "0x": 16}.get(digits[:2], 10)
            number = int(digits[2:] if base != 10 else digits, base)
            return -number if text.startswith("-") else number
        if tag == FLOAT:
            return float(text.lower().replace(".inf", "inf").replace(".nan", "nan"))
    except ValueError:
        return text
    if tag == BOOL:
        return text.lower() == "true"
    if tag == NULL:
        return None
    return text


def position(container: Any, key: Any) -> tuple[int, int] | None:
    """0-based (line, column) of ``container[key]`` (the key for mappings, the item for
    sequences), or ``None`` when the reader recorded no position."""
    lc = getattr(container, "lc", None)
    if lc is None:
        return None
    try:
        if isinstance(container, list):
            return (int(lc.item(key)[0]), int(lc.item(key)[1]))
        return (int(lc.key(key)[0]), int(lc.key(key)[1]))
    except (KeyError, IndexError, TypeError):
        return None


def value_position(container: Any, key: Any) -> tuple[int, int] | None:
    """0-based (line, column) of the value of ``container[key]`` in a mapping."""
    lc = getattr(container, "lc", None)
    if lc is None or not isinstance(container, dict):
        return position(container, key)
    try:
        return (int(lc.value(key)[0]), int(lc.value(key)[1]))
    except (KeyError, IndexError, TypeError):
        return None


class NotJson(Exception):
    """A value has no JSON form (non-scalar mapping key, NaN/infinity)."""


def to_plain(value: Any) -> Any:
    """Convert a loaded tree (either reader's) to plain JSON-able Python values.

    Scalar mapping keys become strings the way JSON writes them (``1`` → ``"1"``,
    ``true`` → ``"true"``, ``null`` → ``"null"``). Raises :class:`NotJson` for a
    sequence/mapping used as a key. NaN and infinities are kept as floats; JSON
    serialisation rejects them later with a clear message.
    """
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            out[json_key(key)] = to_plain(item)
        return out
    if isinstance(value, (list, tuple)):
        return [to_plain(item) for item in value]
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        if type(value).__name__ == "ScalarBoolean":
            return bool(value)
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, str):
        return str(value)
    if type(value).__name__ == "TaggedScalar":  # ruamel's `!!str 12`
        return str(value.value)
    raise NotJson(f"unsupported YAML value of type {type(value).__name__}")


def json_key(key: Any) -> str:
    """A scalar mapping key as JSON writes it. Raises :class:`NotJson` for a NaN or
    infinite float and for a sequence or mapping."""
    if isinstance(key, str):
        return str(key)
    if isinstance(key, bool) or type(key).__name__ == "ScalarBoolean":
        return "true" if key else "false"
    if key is None:
        return "null"
    if isinstance(key, int):
        return str(int(key))
    if isinstance(key, float):
        if not math.isfinite(key):
            raise NotJson("a mapping key is NaN or infinite")
        return repr(float(key))
    if type(key).__name__ == "TaggedScalar":
        return str(key.value)
    raise NotJson("a mapping key is a sequence or mapping, which JSON cannot represent")


def key_idents(value: Any) -> list[tuple[str, Any]]:
    """What makes two mapping keys the same: equal values (``1``/``01``/``0o1`` are one
    YAML 1.2 int, ``1``/``true`` one Python dict key) or equal JSON keys (``1``/``"1"``)."""
    try:
        return [("value", value), ("json", json_key(value))]
    except NotJson:
        return [("value", value)]
