"""Parsed-hook cache keyed by each file's state (:func:`memhooks.filestate.key`).

Two layers: a process-wide dict (repeated ``resolve()`` calls in one host process cost
only a few ``lstat`` calls) and one JSON file per project root under
``hooks/`` of :func:`memhooks.dirs.cache_dir` (a fresh CLI process skips YAML entirely when the
chain is unchanged). An entry is what parsing the file's bytes gave: its plain data
(``None`` when it could not be parsed), guidance and diagnostics, so ``resolve()`` and
``validate`` share it and an unchanged invalid hook is not parsed again either. What
depends on the file system rather than the bytes (an unsafe or unreadable file) is never
cached.

A file modified within the racy window (:data:`memhooks.filestate.RACY_NS`) of the moment
it was read is not cached.
"""

from __future__ import annotations

import os
import stat

from .. import cachefile, dirs, filestate
from ..errors import Diagnostic, DiagnosticError
from ..fast import jsonfast
from ..settings import switch

TYPE_CHECKING = False  # typing costs ~2 ms to import; annotations are strings
if TYPE_CHECKING:
    from typing import Any

    from .hookfile import ParsedHook

#: Bump whenever parsing or validation changes what a hook yields, or cached results
#: outlive the fix. 2: LF guidance, `!!str`, equal-valued duplicate keys, non-finite
#: numbers in unknown fields. 3: diagnostics cached, invalid hooks too. 4: a YAML syntax
#: error is placed where the broken construct starts. 5: the key holds the ctime (an
#: edit that keeps size and mtime, ``cp -p`` or a checkout, was missed). 6: the key is
#: :func:`memhooks.filestate.key` (the mode too). 7: MH033, a hidden character in a
#: recall query or an exclusion.
FORMAT = 7
#: Fields of a key in an entry.
_KEY_FIELDS = 6

Key = filestate.Key
#: (data or None, guidance, diagnostics as :func:`pack` writes them)
Value = tuple["dict[str, Any] | None", str, "list[list[Any]]"]
_MEMORY: dict[str, tuple[Key, Value]] = {}


class HookCache:
    """Cache view for one project root; see the module docstring."""

    def __init__(self, file: str | None) -> None:
        self.file = file
        self.entries: dict[str, list[Any]] | None = None
        self.dirty = False

    def _disk(self) -> dict[str, list[Any]]:
        if self.entries is None:
            self.entries = {}
            if self.file:
                try:
                    blob = jsonfast.loads(cachefile.read(self.file))
                    if (
                        isinstance(blob, dict)
                        and blob.get("format") == FORMAT
                        and blob.get("version") == _version()
                        and isinstance(blob.get("entries"), dict)
                    ):
                        self.entries = blob["entries"]
                except (OSError, ValueError):
                    pass
        return self.entries

    def prepare(self) -> None:
        """Read the disk layer now and, when it holds nothing, import the hook parser:
        start-up work for a caller that is waiting on something else anyway."""
        if not self._disk():
            from . import hookfile, validate, yamlfast

            yamlfast.available()
            del hookfile, validate

    def get(self, path: str, key: Key) -> Value | None:
        memo = _MEMORY.get(path)
        if memo is not None and memo[0] == key:
            return memo[1]
        if not self.file:
            return None
        entry = self._disk().get(path)
        if (
            isinstance(entry, list)
            and len(entry) == _KEY_FIELDS + 3
            and tuple(entry[:_KEY_FIELDS]) == key
        ):
            value = (entry[-3], entry[-2], entry[-1])
            _MEMORY[path] = (key, value)
            return value
        return None

    def put(self, path: str, key: Key, value: Value, st: os.stat_result) -> None:
        if filestate.racy(st):
            return
        _MEMORY[path] = (key, value)
        if self.file:
            self._disk()[path] = [*key, *value]
            self.dirty = True

    def load(self, path: str, st: os.stat_result | None = None) -> ParsedHook:
        """:func:`memhooks.protocol.hookfile.load` through the cache: the parsed hook of
        ``path`` (``st``: its ``lstat``, when the caller has it). A hit has no
        ``document`` or ``tree``. Unsafe or unreadable files become diagnostics, uncached."""
        from .hookfile import ParsedHook, load, parse_bytes, read_bytes

        try:
            st = os.lstat(path) if st is None else st
        except OSError:
            return load(path)
        if not stat.S_ISREG(st.st_mode):
            return load(path)
        hit = self.get(path, filestate.key(st))
        if hit is not None:
            return ParsedHook(path, hit[0], hit[1], None, None, unpack(path, hit[2]))
        try:
            raw, fst = read_bytes(path)
        except DiagnosticError as exc:
            return ParsedHook(path, None, "", None, None, exc.diagnostics)
        parsed = parse_bytes(raw, path)
        value = (parsed.data, parsed.guidance, pack(parsed.diagnostics))
        self.put(path, filestate.key(fst), value, fst)
        return parsed

    def save(self) -> None:
        """Write the disk layer atomically if it changed; failures are ignored (a cache)."""
        if not (self.dirty and self.file and self.entries is not None):
            return
        self.dirty = False
        body = {"format": FORMAT, "version": _version(), "entries": self.entries}
        cachefile.write(self.file, jsonfast.dumps(body, separators=(",", ":")))


def for_root(root: str) -> HookCache:
    """The cache for one project root (disk layer only when enabled)."""
    if not switch("MEMHOOKS_CACHE"):
        return HookCache(None)
    from ..cachefile import key_name  # no hashing module loaded on every agent hook

    try:
        folder = dirs.cache_dir()
    except OSError:  # no home folder to keep it in (HomeError): in memory only
        return HookCache(None)
    # Entries are keyed by the hook's absolute path: roots sharing a name share a file.
    return HookCache(os.path.join(folder, "hooks", f"{key_name(root)}.json"))


def pack(diagnostics: list[Diagnostic]) -> list[list[Any]]:
    """Diagnostics of one hook as JSON lists (their path is the entry's)."""
    return [[d.code, d.severity, d.message, d.line, d.column, d.help, d.key] for d in diagnostics]


def unpack(path: str, packed: list[list[Any]]) -> list[Diagnostic]:
    """The diagnostics :func:`pack` wrote, for the hook at ``path``."""
    return [
        Diagnostic(code, message, path, line, column, severity=severity, help=help, key=key)
        for code, severity, message, line, column, help, key in packed
    ]


def clear_memory() -> None:
    """Forget the process-wide layer (tests, long-running hosts after bulk edits)."""
    _MEMORY.clear()


def _version() -> str:
    """The package version: a new release parses every hook afresh (parser fixes apply)."""
    from .. import __version__

    return __version__
