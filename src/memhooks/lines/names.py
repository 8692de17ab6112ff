"""The definitions of a file version, kept beside its blame cache entry, so the symbol cue
of an edit (:mod:`memhooks.recall.symbol_recall`) reads them instead of parsing the file.

Reading a file's definitions (:func:`memhooks.symbols.definitions`) costs 5-25 ms on a
2,000-6,000-line C file (iproute2's ``ip/ipaddress.c``, ``misc/ss.c``) and ~10 ms on a
500-line Python file with :mod:`ast` loaded for it: more than a warm edit's whole hook.
So the hook reads them when the file is read (:func:`keep`) and the edit that follows
finds them here. One JSON file per (work tree, path), ``<state dir>/blame/<key>.names``
(beside :func:`memhooks.lines.cache.path_of`'s entry), keyed by the text's length and
CRC-32: any change to the text is a miss (then the file is read again and the answer
kept), with no racy window of file times. Nothing here writes into the repository.
"""

from __future__ import annotations

import os

from .. import cachefile
from ..limits import MAX_NAMES_CHARS
from ..symbols.model import Definition
from .cache import path_of

FORMAT = 2  # 2: with each definition's local mark


def definitions(top: str, path: str, text: str, *, state_dir: str) -> list[Definition]:
    """The definitions of ``text``, the working version of ``path`` (relative to the
    work tree ``top``): from the cache when it holds this text's, else read — and kept
    when the file has a blame cache entry (git tracks it)."""
    if len(text) > MAX_NAMES_CHARS:
        return []  # generated code or data: parsing it would outlast the hook's deadline
    file = _file(state_dir, top, path)
    key = _key(text)
    found = _load(file, key)
    if found is None:
        from ..symbols import definitions as read

        found = read(path, text)
        if os.path.exists(file[: -len(".names")] + ".json"):
            # kept only beside a blame entry: a file git does not track has none, and
            # nothing of it is written to the state directory (newcomer 13:50)
            _save(file, key, found)
    return found


def _file(state_dir: str, top: str, path: str) -> str:
    return path_of(state_dir, top, path)[: -len(".json")] + ".names"


def _key(text: str) -> list[int]:
    from zlib import crc32

    data = text.encode("utf-8", "surrogatepass")
    return [len(data), crc32(data)]


def _load(file: str, key: list[int]) -> list[Definition] | None:
    from ..fast.jsonfast import loads

    try:
        data = loads(cachefile.read(file))
        if not isinstance(data, dict) or data.get("format") != FORMAT or data["key"] != key:
            return None
        return [Definition(n, k, f, la, p, bool(lo)) for n, k, f, la, p, lo in data["definitions"]]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _save(file: str, key: list[int], found: list[Definition]) -> None:
    from ..fast.jsonfast import dumps

    rows = [[d.name, d.kind, d.first, d.last, d.parent, int(d.local)] for d in found]
    cachefile.write(file, dumps({"format": FORMAT, "key": key, "definitions": rows}), mode=0o700)
