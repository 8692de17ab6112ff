"""The one rule for each field of a memory a caller gives: what it must be and how it is
normalized, for :meth:`MemoryStore.add`/:meth:`~MemoryStore.remember` (keyword
arguments), ``add_many``/``update_fields`` (:class:`Memory` objects) and a JSON Lines
import (one object a line). A cleaner raises TypeError/ValueError naming the field; the
caller names the memory or the line. The write side only: recall never loads it.
"""

from __future__ import annotations

from .memory import clean_id, clean_labels, clean_optional, clean_text, parse_timestamp
from .scope import normalize_files, normalize_scope

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def source(value: object) -> str:
    """Who or what recorded a memory: any string (``cli``, ``import``, ``capture`` …)."""
    if not isinstance(value, str):
        raise TypeError("`source` must be a string")
    return value


def obsolete(value: object) -> bool:
    """``true`` or ``false``, nothing that merely reads as one."""
    if not isinstance(value, bool):
        raise TypeError("`obsolete` must be true or false")
    return value


def listed(name: str, value: object) -> list[Any]:
    """A list (or tuple) as given: one string is not a list of them, nor is an object."""
    if isinstance(value, str):
        raise TypeError(f"`{name}` must be a list of strings, got a single string")
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"`{name}` must be a list of strings")
    return list(value)


#: Field -> its cleaner, for every field a caller may give (``project`` is the store's).
CLEAN: dict[str, Callable[[Any], Any]] = {
    "id": clean_id,
    "scope": normalize_scope,
    "files": normalize_files,  # a list or tuple of root-relative paths
    "text": clean_text,
    "kind": lambda value: clean_optional("kind", value),
    "tags": lambda value: clean_labels("tags", listed("tags", value)),
    "entities": lambda value: clean_labels("entities", listed("entities", value)),
    "created_at": parse_timestamp,
    "source": source,
    "obsolete": obsolete,
    "superseded_by": lambda value: clean_optional("superseded_by", value),
}
