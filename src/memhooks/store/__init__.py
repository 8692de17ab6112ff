"""The embedded memory store: one SQLite file, FTS5/BM25 search, memories of many projects.

Importing this package loads nothing: its names are imported on first use (the hook
imports only the modules a call needs).

Modules: ``store`` (the :class:`MemoryStore` class), ``memory`` (the record and
its field rules), ``scope`` (root-relative paths), ``project`` (project ids from
root commits; ``gitrepo`` reads ``.git``; ``adoption`` moves memories kept under earlier ids), ``location`` (default file path), ``connection`` (WAL, locking,
error translation), ``schema`` (migrations), ``rows`` (record <-> row),
``search`` (full-text and folder-cue queries), ``fields`` (the rule for each field a
caller gives), ``jsonl`` (import/export), ``batch``
(many new memories with caller-chosen ids, for importers), ``commits`` (the git commits
a history memory was made of: author, low-signal reason, lookups by hash).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .location import default_path
    from .memory import Memory
    from .project import Identity, identify, normalize_remote, project_id
    from .scope import ancestor_scopes, normalize_file, normalize_scope
    from .store import MemoryStore

    SCHEMA_VERSION: int

#: Where each public name lives: imported on first use, so a module that needs only
#: ``memhooks.store.connection`` (the session state file) loads no more than that.
_LAZY = {
    "Identity": "project",
    "Memory": "memory",
    "MemoryStore": "store",
    "ancestor_scopes": "scope",
    "default_path": "location",
    "identify": "project",
    "normalize_file": "scope",
    "normalize_remote": "project",
    "normalize_scope": "scope",
    "project_id": "project",
}


def __getattr__(name: str) -> object:
    if name == "SCHEMA_VERSION":  # the schema version this memhooks writes (user_version)
        from .schema import MIGRATIONS

        value: object = len(MIGRATIONS)
    elif name in _LAZY:
        # __import__, not importlib: importing importlib costs the hook ~0.2 ms
        value = getattr(__import__(f"{__name__}.{_LAZY[name]}", fromlist=[name]), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


__all__ = [
    "SCHEMA_VERSION",
    "Identity",
    "Memory",
    "MemoryStore",
    "ancestor_scopes",
    "default_path",
    "identify",
    "normalize_file",
    "normalize_remote",
    "normalize_scope",
    "project_id",
]


def __dir__() -> list[str]:
    return sorted(__all__)
