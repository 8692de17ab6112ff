"""Python definitions from :mod:`ast`: functions, classes (nested ones too) and
constants (an ``UPPER_CASE`` name assigned at module or class level — PEP 8's naming
convention for constants). A name with a leading underscore is local (PEP 8: "weak
internal use")."""

from __future__ import annotations

import ast

from .model import Definition

_CONSTANT_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def definitions(text: str) -> list[Definition] | None:
    """The definitions of Python source ``text`` in source order, or None when it does
    not parse (a file in the middle of an edit)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    found: list[Definition] = []
    _walk(tree.body, None, found, top=True)
    found.sort(key=lambda d: (d.first, -d.last))
    return found


def _walk(body: list[ast.stmt], parent: str | None, found: list[Definition], top: bool) -> None:
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            kind = "class" if isinstance(node, ast.ClassDef) else "function"
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            last = node.end_lineno or node.lineno
            local = node.name.startswith("_") and not node.name.endswith("__")
            found.append(Definition(node.name, kind, first, last, parent, local))
            _walk(node.body, node.name, found, top=kind == "class")
        elif top and isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and is_constant(target.id):
                    end = node.end_lineno or node.lineno
                    private = target.id.startswith("_")
                    found.append(
                        Definition(target.id, "constant", node.lineno, end, parent, private)
                    )
        elif isinstance(node, (ast.If, ast.Try, ast.With)) and top:
            # definitions under `if TYPE_CHECKING:`, `try: import …` and the like
            for block in (node.body, getattr(node, "orelse", []), getattr(node, "finalbody", [])):
                _walk(block, parent, found, top)


def is_constant(name: str) -> bool:
    """An ``UPPER_CASE`` name of two characters or more with a letter in it."""
    return len(name) > 1 and not set(name) - _CONSTANT_CHARS and any(c.isalpha() for c in name)
