"""The records: one definition, and the symbols of some lines."""

from __future__ import annotations


class Definition:
    """A named definition: ``name`` (as written), ``kind`` (``function``, ``class``,
    ``constant``, ``type`` or ``macro``), ``first`` and ``last`` (its lines, 1-based,
    inclusive; ``last`` is where the next definition at its level starts, less one, when
    no parser says), ``parent`` (the enclosing definition's ``name``, or None) and
    ``qualname`` (``Parent.name`` for a nested one) and ``local`` (the language marks it
    private to its file or module: C ``static`` or a macro outside a header, a Python
    ``_name``, Rust without ``pub``, Java/C#/Kotlin/PHP ``private``, a lower-case Go
    name; another file may well define the same name)."""

    __slots__ = ("first", "kind", "last", "local", "name", "parent")

    def __init__(
        self,
        name: str,
        kind: str,
        first: int,
        last: int,
        parent: str | None = None,
        local: bool = False,
    ) -> None:
        self.name = name
        self.kind = kind
        self.first = first
        self.last = last
        self.parent = parent
        self.local = local

    @property
    def qualname(self) -> str:
        return f"{self.parent}.{self.name}" if self.parent else self.name

    def __repr__(self) -> str:
        return f"Definition({self.qualname!r}, {self.kind!r}, {self.first}-{self.last})"


class Symbols:
    """The symbols of some lines: ``enclosing`` (definitions holding them, innermost
    first), ``defined`` (definitions that start in them) and ``used`` (the file's other
    definitions those lines name: the constant a condition compares with, the helper it
    calls), each a list of :class:`Definition`; :attr:`names` is the cue: every distinct
    name, in that order, without Python's special ``__dunder__`` names (every class has
    them)."""

    __slots__ = ("defined", "enclosing", "used")

    def __init__(
        self,
        enclosing: list[Definition],
        defined: list[Definition],
        used: list[Definition] | None = None,
    ) -> None:
        self.enclosing = enclosing
        self.defined = defined
        self.used = used or []

    @property
    def names(self) -> list[str]:
        names = (d.name for d in (*self.enclosing, *self.defined, *self.used))
        return list(dict.fromkeys(n for n in names if not (n[:2] == n[-2:] == "__")))
