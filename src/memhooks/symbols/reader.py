"""Which reader a file gets, and the symbols of given lines."""

from __future__ import annotations

from . import patterns
from .model import Definition, Symbols

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

#: File name endings -> language (a key of :data:`memhooks.symbols.patterns.LANGUAGES`).
EXTENSIONS = {
    ".py": "python", ".pyi": "python",
    ".c": "c", ".h": "c", ".cc": "c", ".cpp": "c", ".cxx": "c", ".hh": "c", ".hpp": "c",
    ".m": "c", ".mm": "c",
    ".js": "javascript", ".jsx": "javascript", ".mjs": "javascript", ".cjs": "javascript",
    ".ts": "javascript", ".tsx": "javascript", ".mts": "javascript", ".cts": "javascript",
    ".go": "go", ".rs": "rust",
    ".java": "java", ".kt": "java", ".kts": "java", ".cs": "java", ".scala": "java",
    ".rb": "ruby", ".php": "php",
    ".sh": "shell", ".bash": "shell", ".zsh": "shell",
}  # fmt: skip


def language(path: str) -> str | None:
    """The language read for ``path``, by its name's ending, or None (not read)."""
    dot = path.rfind(".")
    return EXTENSIONS.get(path[dot:].lower()) if dot > path.rfind("/") else None


def definitions(path: str, text: str) -> list[Definition]:
    """The definitions of ``text`` (the content of ``path``) in source order; empty for
    a language not read."""
    lang = language(path)
    if lang is None:
        return []
    if lang == "python":
        from . import python

        parsed = python.definitions(text)
        if parsed is not None:
            return parsed
    return patterns.definitions(lang, text)


def symbols_at(path: str, text: str, ranges: Sequence[tuple[int, int]]) -> Symbols:
    """The definitions of ``path`` (content ``text``) that enclose lines ``ranges``
    (1-based, inclusive; innermost first) and that start in them."""
    found = definitions(path, text)
    enclosing: list[Definition] = []
    defined: list[Definition] = []
    for definition in found:
        for first, last in ranges:
            if first <= definition.first <= last:
                defined.append(definition)
                break
            if definition.first < first and definition.last >= first:
                enclosing.append(definition)
                break
    enclosing.sort(key=lambda d: -d.first)
    return Symbols(enclosing, defined)
