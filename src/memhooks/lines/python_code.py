"""Python code without its surface, statement by statement (:mod:`.surface`'s reader
for Python): each statement's tokens (the standard library's ``tokenize``) less
comments (``# type: ignore`` too), statements that are only a string (docstrings),
annotations of parameters, returns and assignments (``x: int = 0`` reads ``x = 0``;
``x: int`` alone is nothing), imports from ``typing``, ``typing_extensions`` and
``__future__``, ``if TYPE_CHECKING:`` blocks and ``@overload`` stubs; indentation, line
breaks and a formatter's trailing comma are layout, and so is how a block of imports is
grouped and ordered (the names it binds are its code). The block a statement is in is
code: each unit carries its depth (``1|return x``), so a statement moved out of a loop
differs and a re-indent at the same depth does not (review-lines 11:31).
"""

from __future__ import annotations

import io
import tokenize
from tokenize import TokenInfo

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

_TYPING_MODULES = frozenset({"typing", "typing_extensions", "__future__"})
#: Words that open a statement whose ``:`` is no annotation (soft keywords included).
_KEYWORDS = frozenset(
    {"if", "elif", "else", "for", "while", "with", "try", "except", "finally", "def", "class",
     "lambda", "return", "yield", "del", "pass", "break", "continue", "raise", "import", "from",
     "global", "nonlocal", "assert", "async", "await", "match", "case", "type", "not", "and",
     "or", "in", "is"}
)  # fmt: skip
#: How an ``if`` that guards imports for type checkers reads.
_TYPE_CHECKING = (["if", "TYPE_CHECKING", ":"], ["if", "typing", ".", "TYPE_CHECKING", ":"])


def python_code(text: str) -> list[tuple[str, int, int]] | None:
    """The statements of Python ``text`` that hold code, the surface taken away (module
    docstring), in order: ``(their code, first line, last line)`` — a statement, not a
    line, so a signature spread over lines with its annotations is the same code as on
    one line without them. None when the text does not tokenize."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    layout = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
              tokenize.DEDENT, tokenize.ENDMARKER, tokenize.ENCODING}  # fmt: skip
    code: list[tuple[str, int, int]] = []
    skip_depth: int | None = None  # inside an ``if TYPE_CHECKING:`` block or stub body
    depth = 0  # indentation level
    drop_next_def = False
    block: tuple[set[str], int, int, int] | None = None  # imports since the last code, depth
    bodies: list[tuple[str, int]] = []  # the class and def bodies open: (kind, depth)
    for statement in _statements(tokens):
        for t in statement:
            if t.type == tokenize.INDENT:
                depth += 1
            elif t.type == tokenize.DEDENT:
                depth -= 1
        while bodies and bodies[-1][1] > depth:
            bodies.pop()
        if skip_depth is not None:
            if depth > skip_depth:
                continue
            skip_depth = None
        words = [t for t in statement if t.type not in layout]
        if not words:
            continue
        strings = [w.string for w in words]
        if all(w.type == tokenize.STRING for w in words):
            continue  # a docstring
        if _typing_import(strings):
            continue
        if strings in _TYPE_CHECKING:
            skip_depth = depth
            continue
        if strings in (["@", "overload"], ["@", "typing", ".", "overload"]):
            drop_next_def = True
            continue
        if drop_next_def and strings[0] in ("def", "async"):
            drop_next_def = False
            if strings[-1] == ":":  # the stub's body is a block of its own
                skip_depth = depth
            continue
        drop_next_def = False
        first, last = words[0].start[0], words[-1].end[0]
        names = _bindings(strings)
        if names is not None:  # an import: one of the block of imports it is in
            if block is not None and block[3] != depth:  # a block ends where its depth does
                code.append(_block(block))
                block = None
            if block is None:
                block = (set(), first, last, depth)
            block[0].update(names)
            block = (block[0], block[1], last, depth)
            continue
        if block is not None:
            code.append(_block(block))
            block = None
        in_class = bool(bodies) and bodies[-1] == ("class", depth)
        if strings[0] in ("class", "def", "async") and strings[-1] == ":":
            bodies.append(("class" if strings[0] == "class" else "def", depth + 1))
        kept = _without_trailing_commas(_without_annotations(words, in_class))
        if kept:
            # the block a statement belongs to is code: its depth goes with it
            code.append((f"{depth}|" + " ".join(t.string for t in kept), first, last))
    if block is not None:
        code.append(_block(block))
    return code


def _bindings(strings: list[str]) -> set[str] | None:
    """The names an import statement binds, each as ``module:name>as`` (None: not an
    import): how they are grouped, ordered and wrapped is a formatter's choice (ruff and
    isort merge and sort them)."""
    if strings[0] == "import":  # import a.b as c, d
        module, parts = "", strings[1:]
    elif strings[0] == "from" and "import" in strings:  # from m import (a as b, c,)
        at = strings.index("import")
        module = "".join(strings[1:at])
        parts = [s for s in strings[at + 1 :] if s not in ("(", ")")]
    else:
        return None
    out = set()
    for part in " ".join(parts).split(" , "):
        name, _, alias = part.strip(" ,").partition(" as ")
        name = name.replace(" ", "")  # a dotted module: "a . b"
        if name:
            out.add(f"{module}:{name}>{alias or name}")
    return out


def _block(block: tuple[set[str], int, int, int]) -> tuple[str, int, int]:
    """A block of consecutive imports at one depth as one unit of code: the names it
    binds, with the depth."""
    names, first, last, depth = block
    return (f"{depth}|import " + " ".join(sorted(names)), first, last)


def _statements(tokens: list[TokenInfo]) -> Iterator[list[TokenInfo]]:
    """``tokens`` cut into logical lines (each ends with its NEWLINE)."""
    statement: list[TokenInfo] = []
    for t in tokens:
        statement.append(t)
        if t.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
            yield statement
            statement = []
    if statement:
        yield statement


def _typing_import(strings: list[str]) -> bool:
    if strings[0] == "from" and len(strings) > 1:
        return strings[1] in _TYPING_MODULES
    if strings[0] == "import":
        names = [s for s in strings[1:] if s != ","]
        return bool(names) and all(n in _TYPING_MODULES for n in names)
    return False


def _without_annotations(words: list[TokenInfo], in_class: bool = False) -> list[TokenInfo]:
    """The tokens of one statement without its annotations; ``in_class``: the statement
    is in a class body, where a bare annotation is a field (a dataclass's, a
    NamedTuple's, a pydantic model's: review-lines) — its name is code."""
    strings = [w.string for w in words]
    if strings[0] in ("def", "async"):
        return _def_without_annotations(words)
    if strings[0] in _KEYWORDS or strings[0] == "@":
        return words
    # an annotated assignment: a target (names, dots, subscripts) then ':' at depth 0
    for i, s in _at_depth_zero(strings):
        if s == ":":
            rest = strings[i + 1 :]
            if "=" not in rest:  # a bare annotation: a type, or in a class a field
                return words[:i] if in_class else []
            cut = i + 1 + next((j for j, t in _at_depth_zero(rest) if t == "="), len(rest))
            return words[:i] + words[cut:]
        if s != "." and not (s.isidentifier() or s.isdigit()):
            break
    return words


def _at_depth_zero(strings: list[str]) -> Iterator[tuple[int, str]]:
    """``(index, token)`` of each token of ``strings`` outside any bracket, the brackets
    themselves left out."""
    depth = 0
    for i, s in enumerate(strings):
        if s in "([{":
            depth += 1
        elif s in ")]}":
            depth -= 1
        elif depth == 0:
            yield i, s


def _def_without_annotations(words: list[TokenInfo]) -> list[TokenInfo]:
    """A ``def`` header without its parameters' and return annotations."""
    out: list[TokenInfo] = []
    depth = 0
    skipping = False
    returns = False
    lambdas = 0  # a lambda in a default value: its ':' is no annotation
    for w in words:
        s = w.string
        if s == "lambda":
            lambdas += 1
        if returns:
            if s == ":" and depth == 0:
                returns = False
                out.append(w)
            elif s in "([{":
                depth += 1
            elif s in ")]}":
                depth -= 1
            continue
        if s in "([{":
            depth += 1
        elif s in ")]}":
            depth -= 1
            if depth == 0:
                skipping = False
        if skipping:
            if depth == 1 and s in (",", "="):
                skipping = False
                out.append(w)
            continue
        if depth == 1 and s == ":" and lambdas:
            lambdas -= 1
        elif depth == 1 and s == ":":
            skipping = True
            continue
        if depth == 0 and s == "->":
            returns = True
            continue
        out.append(w)
    return out


def _without_trailing_commas(words: list[TokenInfo]) -> list[TokenInfo]:
    """``words`` without a comma right before a closing bracket where the brackets hold
    another comma (a formatter's "magic trailing comma"; ``(x,)``, a one-element tuple,
    keeps its own)."""
    commas: list[int] = []  # per open bracket, the commas seen in it
    out: list[TokenInfo] = []
    for i, w in enumerate(words):
        s = w.string
        if s in "([{":
            commas.append(0)
        elif s in ")]}":
            if commas:
                commas.pop()
        elif s == "," and commas:
            commas[-1] += 1
            following = words[i + 1].string if i + 1 < len(words) else ""
            if following in (")", "]", "}") and commas[-1] > 1:
                continue
        out.append(w)
    return out
