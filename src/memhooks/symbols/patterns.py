"""Definitions found by the lines that start them, one pattern set per language, the way
git finds the function named in a hunk header (its built-in ``diff=<driver>`` funcname
patterns, gitattributes(5)). Every pattern matches a line that *defines* something — a
keyword (``def``, ``func``, ``fn``, ``class``, ``#define``) or, for C, a declaration at
the first column followed by ``(`` — never an identifier merely used.

Without a parser a definition's end is not known: it runs until the next definition at
the same indentation or less (a macro or constant is its own line, with ``\\``
continuations), as git's hunk headers assume.
"""

from __future__ import annotations

import re

from .model import Definition

#: Words that open a statement, not a definition, where a pattern would take them for a
#: function's name (``for (…) {`` looks like a method to the JavaScript pattern).
_KEYWORDS = frozenset(
    ["if", "for", "while", "switch", "return", "else", "do", "case", "sizeof", "typeof", "defined", "goto",
     "catch", "function", "with", "new", "await", "yield", "throw", "synchronized", "using",
     "foreach", "lock", "fixed", "elif", "unless", "until"]
)  # fmt: skip

# (pattern, kind): the name is group "name"; a pattern's kind may be group "kind".
_C = (
    (r"^#\s*define\s+(?P<name>[A-Za-z_]\w*)", "macro"),
    (r"^(?:typedef\s+)?(?P<kind>struct|union|enum|class)\s+(?P<name>[A-Za-z_]\w*)\s*(?::[^;]*)?\{?\s*$", "type"),
    (r"^(?:static\s+)?(?:const\s+)?[A-Za-z_][\w \t\*]*[\s\*](?P<name>[A-Z][A-Z0-9_]+)(?:\[[^\]]*\])?\s*=", "constant"),
    (r"^[A-Za-z_][\w \t\*:<>,]*?[\s\*&](?P<name>[A-Za-z_][\w:~]*)\s*\([^;]*$", "function"),
)  # fmt: skip
_JS = (
    (r"^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*(?P<name>[\w$]+)", "function"),
    (r"^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?(?P<kind>class|interface|enum)\s+(?P<name>[\w$]+)", "class"),
    (r"^\s*(?:export\s+)?(?:const|let|var)\s+(?P<name>[\w$]+)\s*(?::[^=]*)?=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*(?::[^=]*)?=>|[\w$]+\s*=>)", "function"),
    (r"^\s*(?:export\s+)?const\s+(?P<name>[A-Z][A-Z0-9_]+)\s*(?::[^=]*)?=", "constant"),
    (r"^\s*(?:export\s+)?type\s+(?P<name>[A-Z][\w$]*)\s*(?:<[^=]*>)?\s*=", "type"),
    (r"^\s+(?:(?:public|private|protected|static|async|readonly|get|set|override)\s+)*(?P<name>[A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\(.*\)\s*(?::\s*[^{]+)?\{\s*$", "function"),
)  # fmt: skip
_GO = (
    (r"^func\s+(?:\([^)]*\)\s*)?(?P<name>\w+)", "function"),
    (r"^type\s+(?P<name>\w+)", "type"),
    (r"^(?:const|var)\s+(?P<name>[A-Z]\w*)\b", "constant"),
)  # fmt: skip
_RUST = (
    (r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:(?:async|const|unsafe|extern\s+\"[^\"]*\")\s+)*fn\s+(?P<name>\w+)", "function"),
    (r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?P<kind>struct|enum|trait|union|type|mod)\s+(?P<name>\w+)", "type"),
    (r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const|static)\s+(?:mut\s+)?(?P<name>[A-Z][A-Z0-9_]+)\s*:", "constant"),
)  # fmt: skip
_JAVA = (
    (r"^\s*(?:(?:public|private|protected|static|final|abstract|sealed|data|internal|open|partial)\s+)*(?P<kind>class|interface|enum|record|object|struct)\s+(?P<name>\w+)", "class"),
    (r"^\s+(?:(?:public|private|protected|static|final|abstract|synchronized|native|override|virtual|async|internal)\s+)+[\w<>\[\],.?\s]+?\s(?P<name>\w+)\s*\([^;]*$", "function"),
    (r"^\s*(?:(?:public|private|protected|internal)\s+)?(?:static\s+)?(?:final\s+|const\s+|readonly\s+)+[\w<>\[\],.?]+\s+(?P<name>[A-Z][A-Z0-9_]+)\s*=", "constant"),
    (r"^\s*(?:(?:private|internal|public)\s+)?(?:suspend\s+)?fun\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?(?P<name>\w+)", "function"),
)  # fmt: skip
_RUBY = (
    (r"^\s*def\s+(?:self\.)?(?P<name>[\w?!=]+)", "function"),
    (r"^\s*(?P<kind>class|module)\s+(?P<name>[A-Z][\w:]*)", "class"),
    (r"^\s*(?P<name>[A-Z][A-Z0-9_]+)\s*=", "constant"),
)  # fmt: skip
_PYTHON = (
    (r"^\s*(?:async\s+)?def\s+(?P<name>\w+)", "function"),
    (r"^\s*class\s+(?P<name>\w+)", "class"),
    (r"^(?P<name>[A-Z][A-Z0-9_]+)\s*(?::[^=]*)?=", "constant"),
)  # fmt: skip
_SHELL = (
    (r"^\s*(?:function\s+)?(?P<name>[A-Za-z_][\w-]*)\s*\(\)\s*\{?", "function"),
    (r"^\s*(?:function\s+)(?P<name>[A-Za-z_][\w-]*)\s*\{?\s*$", "function"),
    (r"^(?:export\s+|readonly\s+|declare\s+-r\s+)?(?P<name>[A-Z][A-Z0-9_]+)=", "constant"),
)  # fmt: skip
_PHP = (
    (r"^\s*(?:(?:public|private|protected|static|abstract|final)\s+)*function\s+&?(?P<name>\w+)", "function"),
    (r"^\s*(?:(?:abstract|final)\s+)?(?P<kind>class|interface|trait|enum)\s+(?P<name>\w+)", "class"),
    (r"^\s*(?:(?:public|private|protected)\s+)?const\s+(?P<name>[A-Z][A-Z0-9_]+)\s*=", "constant"),
)  # fmt: skip

LANGUAGES: dict[str, tuple[tuple[str, str], ...]] = {
    "c": _C,
    "javascript": _JS,
    "go": _GO,
    "rust": _RUST,
    "java": _JAVA,
    "ruby": _RUBY,
    "python": _PYTHON,
    "shell": _SHELL,
    "php": _PHP,
}
#: Kinds that stand for one statement: they enclose nothing after them.
_SINGLE = frozenset(("macro", "constant"))
_compiled: dict[str, list[tuple[re.Pattern[str], str]]] = {}


def definitions(language: str, text: str) -> list[Definition]:
    """The definitions of ``text`` in ``language`` (a key of :data:`LANGUAGES`)."""
    patterns = _compiled.get(language)
    if patterns is None:
        patterns = _compiled[language] = [(re.compile(p), k) for p, k in LANGUAGES[language]]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    starts: list[tuple[int, int, str, str]] = []  # (line, indent, name, kind)
    local: set[int] = set()
    for number, line in enumerate(lines, 1):
        if not line.strip() or len(line) > 500:
            continue
        for pattern, kind in patterns:
            match = pattern.match(line)
            if match is None:
                continue
            name = match.group("name")
            if kind == "function" and name in _KEYWORDS:
                break
            kinds = match.groupdict().get("kind")
            kind = _kind(kinds) if kinds and kind in ("type", "class") else kind
            starts.append((number, len(line) - len(line.lstrip()), name, kind))
            if _local(language, line.lstrip(), name, kind):
                local.add(number)
            break
    found = _spans(starts, lines)
    for definition in found:
        definition.local = definition.first in local
    return found


def _local(language: str, line: str, name: str, kind: str) -> bool:
    """Whether the definition on ``line`` is private to its file or module, by the
    language's own marks (see :class:`~memhooks.symbols.model.Definition`)."""
    if language == "c":
        return line.startswith("static") or kind == "macro"  # a header's: reader.py
    if language == "rust":
        return not line.startswith("pub")
    if language in ("java", "php"):
        return line.startswith("private") or " private " in line.split("(", 1)[0]
    if language == "go":
        return name[:1].islower()
    if language == "python":
        return name.startswith("_")
    return False


def _kind(word: str) -> str:
    return "type" if word in ("struct", "union", "enum", "type", "record") else "class"


def _spans(starts: list[tuple[int, int, str, str]], lines: list[str]) -> list[Definition]:
    found: list[Definition] = []
    for number, indent, name, kind in starts:
        last = _continued(number, lines) if kind in _SINGLE else _end(number, indent, lines)
        parent = next((d.name for d in reversed(found) if d.first < number <= d.last), None)
        found.append(Definition(name, kind, number, last, parent))
    return found


def _end(number: int, indent: int, lines: list[str]) -> int:
    """The last line of a definition starting at line ``number`` with ``indent``: up to
    the next line at that indentation or less — included when it closes a block (``}``,
    ``end``, ``)``), skipped when it opens one (a C brace alone on its line)."""
    last = number
    for index in range(number, len(lines)):
        line = lines[index]
        text = line.strip()
        if not text:
            continue
        if len(line) - len(line.lstrip()) <= indent:
            if text.startswith("{"):
                last = index + 1
                continue
            if text.startswith(("}", ")", "end ")) or text == "end":
                return index + 1
            return last
        last = index + 1
    return last


def _continued(number: int, lines: list[str]) -> int:
    """The last line of a statement starting at ``number`` with ``\\`` continuations."""
    while number < len(lines) and lines[number - 1].rstrip().endswith("\\"):
        number += 1
    return number
