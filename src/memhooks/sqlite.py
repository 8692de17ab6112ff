"""SQLite for the hook path: the ``_sqlite3`` C module the :mod:`sqlite3` package wraps.

``import sqlite3`` also imports :mod:`datetime` and registers date adapters memhooks never
uses (it stores ISO 8601 text): 1.4 ms of a hook process's start, a sixth of a bare
interpreter (measured: ``python -c "import sqlite3"`` 12.0 ms, ``import _sqlite3``
10.7 ms, ``pass`` 8.2 ms). The C module is the same engine and the same classes —
``sqlite3.OperationalError is _sqlite3.OperationalError`` — so code and ``except``
clauses written against either agree. A Python built without it gets the package.
"""

from __future__ import annotations

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
