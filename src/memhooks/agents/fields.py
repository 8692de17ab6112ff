"""Typed reads from untrusted JSON: every helper returns None (or empty) on a wrong type.

Payloads come from other programs and drift between versions, so no adapter
indexes a payload directly; they all go through these helpers, which never raise.
"""

from __future__ import annotations

from ..fast.jsonfast import loads

#: Upper bound on strings collected from one list-valued field (hostile payloads).
MAX_ITEMS = 1024


def text(value: object) -> str | None:
    """``value`` if it is a non-blank string, else None. A lone surrogate (JSON's
    ``"\\ud800"``: an emoji cut in half by a host) becomes ``?``: SQLite, files and the
    reply can only hold text that encodes."""
    if isinstance(value, str) and value.strip():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-8", "replace").decode("utf-8")
        return value
    return None


#: The word said of what a payload field must hold, by the type JSON gives it (:func:`wrong`).
_KINDS: dict[type, str] = {
    str: "text", list: "a list", dict: "an object", int: "a whole number", bool: "true or false",
}  # fmt: skip


def wrong(
    value: object, name: str, kind: type = str, *, required: bool = False, filled: bool = False
) -> str | None:
    """What is wrong with the payload field ``name`` (as the message says it: ``its
    prompt``, ``the tool's file_path``) holding ``value``: ``NAME is missing`` (only when
    ``required``; null is missing) or ``NAME is not text (int)`` (``kind``: ``str``,
    ``list``, ``dict``, ``bool``: JSON's true or false, or ``int``: a whole number or its
    digits, :func:`integer`); None when it is of its kind, or absent and not required. A
    blank string is text: whether it says anything is its reader's question — unless
    ``filled`` (an id that names a session): ``NAME is blank``. The one rule
    of :attr:`memhooks.agents.base.NormalizedEvent.malformed` (issue 21: a field of the
    wrong type was taken as absent, silently: ``"cwd": 7`` became the process's folder)."""
    if value is None:
        return f"{name} is missing" if required else None
    if integer(value) is not None if kind is int else isinstance(value, kind):
        if filled and isinstance(value, str) and not value.strip():
            return f"{name} is blank"
        return None
    return f"{name} is not {_KINDS[kind]} ({type(value).__name__})"


def wrong_kinds(
    mapping: dict[str, object] | None, kinds: tuple[tuple[str, type], ...], whose: str
) -> str | None:
    """:func:`wrong` of the first ``(key, kind)`` of ``kinds`` that ``mapping`` holds a
    value of another kind in, named ``whose + key``; None when each is of its kind or
    absent (a host's table of its tools' fields: ``claude_code.TOOL_FIELDS``)."""
    if mapping is None:
        return None
    for key, kind in kinds:
        said = wrong(mapping.get(key), whose + key, kind)
        if said is not None:
            return said
    return None


def wrong_fields(
    mapping: dict[str, object] | None, keys: tuple[str, ...], whose: str = "its "
) -> str | None:
    """:func:`wrong` of the first of ``keys`` (text when there) that ``mapping`` holds
    something else in, named ``whose + key``; None when each is text or absent."""
    if mapping is None:
        return None
    for key in keys:
        value = mapping.get(key)
        if value is not None and not isinstance(value, str):  # the hook's every call: no call
            return wrong(value, whose + key)
    return None


def first_text(mapping: dict[str, object] | None, *keys: str) -> str | None:
    """The first non-blank string among ``mapping[key]`` for ``keys``, in order."""
    if mapping is None:
        return None
    for key in keys:
        found = text(mapping.get(key))
        if found is not None:
            return found
    return None


def decode_json(value: str) -> object:
    """``loads(value)``, or None when it is not JSON (or is nested absurdly deep)."""

    try:
        return loads(value)
    except (ValueError, RecursionError):
        return None


def mapping(value: object) -> dict[str, object] | None:
    """A dict, or a JSON string holding a dict (Copilot ``toolArgs``, Cursor ``tool_input``)."""
    if isinstance(value, dict):
        return value
    if isinstance(value, str) and value.lstrip().startswith("{"):
        decoded = decode_json(value)
        if isinstance(decoded, dict):
            return decoded
    return None


def child(value: dict[str, object] | None, key: str) -> dict[str, object] | None:
    """``value[key]`` when both are dicts (no JSON decoding)."""
    if value is None:
        return None
    found = value.get(key)
    return found if isinstance(found, dict) else None


def integer(value: object) -> int | None:
    """An int (not a bool), or a string of decimal digits (proto int64 as string)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        stripped = value.strip()
        body = stripped[1:] if stripped[:1] == "-" else stripped
        if body.isdigit() and body.isascii() and len(body) < 20:
            return int(stripped)
    return None


def boolean(value: object) -> bool | None:
    """A bool, or the strings ``"true"``/``"false"`` (Cline sends proto values as strings)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        lowered = value.strip().lower()
        if lowered in ("true", "false"):
            return lowered == "true"
    return None


def strings(value: object) -> list[str]:
    """A string as ``[value]``, or the strings of a list (one level of nesting), capped."""
    if isinstance(value, str):
        return [value]
    out: list[str] = []
    if isinstance(value, list):
        for item in value[:MAX_ITEMS]:
            if isinstance(item, str):
                out.append(item)
            elif isinstance(item, list):
                out.extend(i for i in item[:MAX_ITEMS] if isinstance(i, str))
    return out[:MAX_ITEMS]


def joined(value: object) -> str | None:
    """A non-blank string, or the non-blank strings of a list joined by newlines."""
    found = text(value)
    if found is not None:
        return found
    parts = [s for s in strings(value) if s.strip()]
    return "\n".join(parts) if parts else None
