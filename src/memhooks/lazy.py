"""Loaded on first use: a package's public names, each from its module (PEP 562), and
regular expressions (:class:`Lazy`).

The agent hook is a fresh interpreter per call: a package on its import set names what
it offers in ``__init__`` but imports a module only when one of its names is asked for.
A package's ``__getattr__`` is one line over :func:`attribute`; what it loaded is kept in
the package's namespace, so the next access is a plain lookup.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re


def attribute(
    package: str, where: dict[str, str], name: str, namespace: dict[str, object]
) -> object:
    """``name`` from ``package``'s module ``where[name]``, kept in ``namespace`` (the
    package's ``globals()``). Raises AttributeError for a name ``where`` does not list."""
    module = where.get(name)
    if module is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    # __import__, not importlib: importing importlib costs the hook ~0.2 ms
    value = getattr(__import__(f"{package}.{module}", fromlist=[name]), name)
    namespace[name] = value
    return value


class Lazy:
    """A regular expression (``pattern``, ``flags``) compiled the first time it is used:
    a process pays only for the patterns it runs (compiling all of capture's and the
    scrubber's costs about 5 ms), and a module that only defines some loads no :mod:`re`."""

    __slots__ = ("_compiled", "flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            import re

            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def search(self, text: str) -> re.Match[str] | None:
        return self.compiled.search(text)

    def match(self, text: str) -> re.Match[str] | None:
        return self.compiled.match(text)

    def split(self, text: str) -> list[str]:
        return self.compiled.split(text)
