"""Which reader a file gets, and the symbols of given lines."""

from __future__ import annotations

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
    from . import patterns  # the parser or the patterns: loaded only to read a file

    found = patterns.definitions(lang, text)
    if lang == "c" and path.lower().endswith(_HEADERS):
        for definition in found:  # a header's macros are what its includers use
            if definition.kind == "macro":
                definition.local = False
    return found


#: C and C++ header endings: their macros are not local.
_HEADERS = (".h", ".hh", ".hpp", ".hxx")


def symbols_at(path: str, text: str, ranges: Sequence[tuple[int, int]]) -> Symbols:
    """The definitions of ``path`` (content ``text``) that enclose lines ``ranges``
    (1-based, inclusive; innermost first), that start in them, and the file's other
    definitions those lines name as whole identifiers (in source order)."""
    return symbols_among(definitions(path, text), text, ranges)


def symbols_among(
    found: Sequence[Definition], text: str, ranges: Sequence[tuple[int, int]]
) -> Symbols:
    """:func:`symbols_at` with the file's definitions ``found`` already read (a cache
    of them: :mod:`memhooks.lines.names`)."""
    enclosing: list[Definition] = []
    defined: list[Definition] = []
    rest: list[Definition] = []
    for definition in found:
        for first, last in ranges:
            if first <= definition.first <= last:
                defined.append(definition)
                break
            if definition.first < first and definition.last >= first:
                enclosing.append(definition)
                break
        else:
            rest.append(definition)
    enclosing.sort(key=lambda d: -d.first)
    said = identifiers(text, ranges) if rest else set()
    taken = {d.name for d in (*enclosing, *defined)}
    used = [d for d in rest if d.name in said and d.name not in taken]
    return Symbols(enclosing, defined, used)


def identifiers(text: str, ranges: Sequence[tuple[int, int]]) -> set[str]:
    """The identifier-like words (``[A-Za-z_][A-Za-z0-9_]*``) of lines ``ranges`` of
    ``text`` (a character scan: the hook's edit path loads no :mod:`re`)."""
    lines = text.split("\n")
    found: set[str] = set()
    for first, last in ranges:
        for line in lines[max(0, first - 1) : last]:
            word: list[str] = []
            for ch in line + " ":
                if (
                    ch == "_"
                    or ("a" <= ch <= "z")
                    or ("A" <= ch <= "Z")
                    or (word and "0" <= ch <= "9")
                ):
                    word.append(ch)
                elif word:
                    found.add("".join(word))
                    word = []
    return found
