"""SQLite for the hook path: the ``_sqlite3`` C module the :mod:`sqlite3` package wraps.

``import sqlite3`` also imports :mod:`datetime` and registers date adapters memhooks never
uses (it stores ISO 8601 text): 1.4 ms of a hook process's start, a sixth of a bare
interpreter (measured: ``python -c "import sqlite3"`` 12.0 ms, ``import _sqlite3``
10.7 ms, ``pass`` 8.2 ms). The C module is the same engine and the same classes —
``sqlite3.OperationalError is _sqlite3.OperationalError`` — so code and ``except``
clauses written against either agree. A Python built without it gets the package.
"""

from __future__ import annotations

import sys


def _import_engine() -> None:
    """Import ``_sqlite3`` without :mod:`functools` when nothing has imported it yet.

    The C module's initialisation takes ``functools.lru_cache`` (its per-connection
    statement cache is ``lru_cache(maxsize)(connection)``), and :mod:`functools` brings
    :mod:`collections`, :mod:`operator`, :mod:`reprlib`, :mod:`types` with it: 2.1 ms of a
    hook process that uses none of them (measured in-process, ``python -S``: ``import
    _sqlite3`` 3.3 ms, with the stand-in below 1.2 ms; the hook runs on every prompt and
    tool call). The stand-in is visible during that one import only and hands the module
    the very cache :func:`functools.lru_cache` builds — the ``_functools`` C wrapper — so
    statements are cached exactly as usual. Whenever that is not possible (functools
    already loaded, no C wrapper, a module that asks for more) the plain import runs.
    """
    if "_sqlite3" in sys.modules or "functools" in sys.modules:
        return
    try:
        from _functools import _lru_cache_wrapper  # type: ignore[import-not-found, unused-ignore]
    except ImportError:  # pragma: no cover - CPython always has it
        return

    def lru_cache(maxsize: int = 128, typed: bool = False) -> object:
        size = max(maxsize, 0)
        # The cache-info type is only called by cache_info(), which SQLite never calls.
        return lambda function: _lru_cache_wrapper(function, size, typed, tuple)

    stand_in = type(sys)("functools")
    stand_in.lru_cache = lru_cache  # type: ignore[attr-defined]
    sys.modules["functools"] = stand_in
    try:
        import _sqlite3  # type: ignore[import-not-found, unused-ignore]  # noqa: F401
    except (ImportError, AttributeError):  # pragma: no cover - a build that wants more
        sys.modules.pop("_sqlite3", None)
    finally:
        if sys.modules.get("functools") is stand_in:
            del sys.modules["functools"]


_import_engine()

try:
    from _sqlite3 import (  # type: ignore[import-not-found, unused-ignore]
        Connection,
        DatabaseError,
        Error,
        OperationalError,
        connect,
    )
except ImportError:  # pragma: no cover - every CPython build we support has it
    from sqlite3 import Connection, DatabaseError, Error, OperationalError, connect

__all__ = ["Connection", "DatabaseError", "Error", "OperationalError", "connect"]
