"""The embedded memory store: one SQLite file, FTS5/BM25 search, memories of many projects.

Importing this package loads only ``sqlite3``, ``json`` and our own small
modules: the agent hook imports it on every prompt.

Modules: ``store`` (the :class:`MemoryStore` class), ``memory`` (the record and
its field rules), ``scope`` (root-relative paths), ``project`` (project ids from
root commits; ``gitrepo`` reads ``.git``; ``adoption`` moves memories kept under earlier ids), ``location`` (default file path), ``connection`` (WAL, locking,
error translation), ``schema`` (migrations), ``rows`` (record <-> row),
``search`` (full-text and folder-cue queries), ``jsonl`` (import/export), ``batch``
(many new memories with caller-chosen ids, for importers).
"""

from __future__ import annotations

from .location import default_path
from .memory import Memory
from .project import Identity, identify, normalize_remote, project_id
from .schema import MIGRATIONS
from .scope import ancestor_scopes, normalize_file, normalize_scope
from .store import MemoryStore

#: The schema version this memhooks writes (``PRAGMA user_version``).
SCHEMA_VERSION = len(MIGRATIONS)

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
