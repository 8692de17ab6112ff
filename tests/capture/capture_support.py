"""Helpers shared by the capture tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memhooks.store import MemoryStore


def memories(store_path: str, project: Path, *, all: bool = False) -> list[Any]:
    """The project's memories, oldest first (obsolete ones too with ``all``)."""
    with MemoryStore(store_path) as store:
        return list(reversed(store.list(str(project), limit=None, include_obsolete=all)))


def raw_bytes(store_path: str) -> bytes:
    """Everything SQLite wrote for the store: the file and its WAL."""
    out = b""
    for suffix in ("", "-wal"):
        path = Path(store_path + suffix)
        if path.exists():
            out += path.read_bytes()
    return out
