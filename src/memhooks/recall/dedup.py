"""De-duplication of recalled memories across queries.

Two hits are the same memory when their ids are equal, or near-identical when their
texts, lower-cased with whitespace collapsed, are equal or share at least
:data:`NEAR_DUPLICATE` of their word sets (Jaccard similarity; words are runs of letters
and digits, :mod:`.wording`, so "outage." and "outage" are one word). The first (higher
priority, better ranked) copy is kept.
"""

from __future__ import annotations

from .wording import words as _split

NEAR_DUPLICATE = 0.9


def words(text: str) -> frozenset[str]:
    return frozenset(_split(text.lower()))


class Seen:
    """Remembers kept memories; ``duplicate_of(id, text)`` → the kept id or ``None``."""

    __slots__ = ("_ids", "_texts")

    def __init__(self) -> None:
        self._ids: set[str] = set()
        self._texts: list[tuple[str, str, frozenset[str]]] = []

    def duplicate_of(self, memory_id: str, text: str) -> str | None:
        if memory_id in self._ids:
            return memory_id
        flat = " ".join(text.lower().split())
        bag = words(flat)
        for kept_id, kept_flat, kept_bag in self._texts:
            if flat == kept_flat:
                return kept_id
            union = len(bag | kept_bag)
            if union and len(bag & kept_bag) / union >= NEAR_DUPLICATE:
                return kept_id
        return None

    def add(self, memory_id: str, text: str) -> None:
        self._ids.add(memory_id)
        flat = " ".join(text.lower().split())
        self._texts.append((memory_id, flat, words(flat)))
