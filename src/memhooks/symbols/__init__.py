"""Symbols as cues: the functions, classes and constants a file defines, and those
enclosing or defined in given lines (issue 20 item 4; issue 23 anchors conversation
pieces to them).

Python is parsed with :mod:`ast` (a file that does not parse falls back to the patterns
below). Other languages get the definitions git itself finds for ``@@`` hunk headers:
one pattern per language for the lines that *start* a definition (git's built-in
``diff=<driver>`` funcname patterns do the same job), so an ordinary identifier never
becomes a cue. Without a parser the end of a definition is unknown: a definition
encloses the lines after it until the next definition at its indentation or less, as
git's hunk headers assume. A real parser for these languages (tree-sitter) was measured
at ~20 ms of import for one grammar per hook process plus a wheel per language;
patterns cost nothing and are what git users already read in every diff.

Public API::

    definitions(path, text) -> list[Definition]          # the file's, in order
    symbols_at(path, text, ranges) -> Symbols            # enclosing / defined / used in lines
    symbols_among(definitions, text, ranges) -> Symbols  # the same, definitions known
    mentions(text, name) -> bool                         # does a text name a symbol
    language(path) -> str | None                         # what reads the file, by name

Line numbers are 1-based and inclusive.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .mentions import mentions
    from .model import Definition, Symbols
    from .reader import definitions, language, symbols_among, symbols_at

#: Where each public name lives: imported on first use, so the prompt's relevance floor
#: (:mod:`memhooks.recall.floor`, which asks :func:`mentions` only) loads neither the
#: definition model nor the readers (the hook's import set, issue 21).
_LAZY = {
    "Definition": "model",
    "Symbols": "model",
    "definitions": "reader",
    "language": "reader",
    "mentions": "mentions",
    "symbols_among": "reader",
    "symbols_at": "reader",
}


def __getattr__(name: str) -> object:
    if name not in _LAZY:  # e.g. a submodule being imported (``from .. import x`` asks first)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from ..lazy import attribute  # loaded with the first name asked for (not to say no)

    return attribute(__name__, _LAZY, name, globals())


__all__ = [
    "Definition",
    "Symbols",
    "definitions",
    "language",
    "mentions",
    "symbols_among",
    "symbols_at",
]
