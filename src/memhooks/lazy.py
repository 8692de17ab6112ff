"""A package's public names, each loaded from its module on first use (PEP 562).

The agent hook is a fresh interpreter per call: a package on its import set names what
it offers in ``__init__`` but imports a module only when one of its names is asked for.
A package's ``__getattr__`` is one line over :func:`attribute`; what it loaded is kept in
the package's namespace, so the next access is a plain lookup.
"""

from __future__ import annotations


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
