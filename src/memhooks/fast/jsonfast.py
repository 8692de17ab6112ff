"""Decoding the payload with the standard library's C scanner, without ``json.decoder``.

``import json`` costs about two thirds of a bare interpreter's start (measured: 13.5 ms
against 8.1 ms for ``python -c pass``), nearly all of it the regular-expression engine
that ``json.decoder`` compiles its patterns with — and the hook's fast path
(:mod:`memhooks.session.snapshot`) needs nothing else from it. ``_json``, the C
accelerator behind ``json.loads``, is loaded in 0.3 ms and parses exactly as
``json.loads`` does; this module drives it directly and leaves everything else (errors,
UTF-16 payloads, a Python without ``_json``) to :mod:`json`.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar

_WHITESPACE = " \t\n\r"


class _Context:
    """What ``_json.make_scanner`` reads from a ``json.JSONDecoder`` (its defaults)."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    memo: ClassVar[dict[str, str]] = {}  # the scanner empties it after every call

    @staticmethod
    def parse_constant(name: str) -> float:
        return {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}[name]


_scan = None


def loads(raw: bytes | bytearray | str) -> object:
    """``json.loads(raw)``, with the same result and the same errors; the first of several
    values only when a complete value is followed by more (``json.loads`` would raise
    "Extra data": the payload is the first value)."""
    global _scan
    try:
        # "utf-8-sig" by hand: looking that codec up imports a module (~0.15 ms a hook)
        text = raw if isinstance(raw, str) else raw.decode("utf-8")
    except UnicodeDecodeError:
        return _slow(raw)
    if text[:1] == "\ufeff" and not isinstance(raw, str):
        text = text[1:]
    if _scan is None:
        try:
            from _json import make_scanner  # type: ignore[import-not-found, unused-ignore]
        except ImportError:
            return _slow(raw)
        _scan = make_scanner(_Context())  # type: ignore[arg-type]  # duck-typed JSONDecoder
    start = len(text) - len(text.lstrip(_WHITESPACE))
    try:
        value, _end = _scan(text, start)
    except (StopIteration, ValueError, RecursionError, SystemError):
        # json words the error (and is imported only then). SystemError: CPython 3.11's
        # scanner cannot raise JSONDecodeError before json.decoder was imported.
        return _slow(raw)
    return value


def value_at(text: str, index: int) -> object:
    """The JSON value that starts at ``text[index]`` (no whitespace before it), parsed
    as ``json.loads`` parses one, and nothing after it: a row of a big file can be read
    without parsing the rest. Raises ValueError when no whole value starts there."""
    global _scan
    if _scan is None:
        try:
            from _json import make_scanner  # type: ignore[import-not-found, unused-ignore]
        except ImportError:
            import json

            return json.JSONDecoder().raw_decode(text, index)[0]
        _scan = make_scanner(_Context())  # type: ignore[arg-type]  # duck-typed JSONDecoder
    try:
        return _scan(text, index)[0]
    except (StopIteration, RecursionError, SystemError):
        raise ValueError(f"no JSON value at {index}") from None


def _slow(raw: bytes | bytearray | str) -> object:
    import json

    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data":  # a complete value, then more: the first one counts
            return json.loads(exc.doc[: exc.pos])
        raise


def dumps(
    value: object,
    *,
    ensure_ascii: bool = True,
    separators: tuple[str, str] | None = None,
    sort_keys: bool = False,
    allow_nan: bool = True,
) -> str:
    """``json.dumps(value, ...)`` for these options (no ``indent``): the same text, through
    the same C encoder ``json.dumps`` uses, without importing :mod:`json`."""
    try:
        from _json import encode_basestring, encode_basestring_ascii, make_encoder  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        import json

        return json.dumps(
            value,
            ensure_ascii=ensure_ascii,
            separators=separators,
            sort_keys=sort_keys,
            allow_nan=allow_nan,
        )
    item, key = separators or (", ", ": ")
    encode = make_encoder(
        {},
        _unserializable,
        encode_basestring_ascii if ensure_ascii else encode_basestring,
        None,
        key,
        item,
        sort_keys,
        False,
        allow_nan,
    )
    return "".join(encode(value, 0))


def _unserializable(value: object) -> object:
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


def dumps_inert(value: object) -> str:
    """Compact JSON for text an agent receives (non-ASCII kept, NaN refused: ValueError),
    with every ``<`` and ``>`` written as ``\\u003c`` / ``\\u003e``: the same JSON value,
    but repository text inside it cannot close or open a tag of the host's wrapper
    (Claude Code frames hook context in ``<system-reminder>`` … ``</system-reminder>``)
    and pass for the host's own words. ``<`` and ``>`` occur only inside JSON strings,
    so replacing them in the encoded text is exact."""
    text = dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e")
