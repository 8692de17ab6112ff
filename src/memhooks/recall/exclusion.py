"""Exclusions: material that must not enter the current context (seed 000 step 6).

A hit is excluded when any exclusion phrase occurs in its text, one of its tags or one of
its entities — compared case-insensitively after whitespace normalization, as a phrase
bounded by non-word characters (``"OAuth prototype"`` excludes "the obsolete OAuth
prototype was…" but ``"auth"`` does not exclude "OAuth") — or when the backend marks it
obsolete. Matching is ours: no memory backend has a negative query (spec/backends.md §6),
so the runtime over-fetches and filters here.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..backends.base import Hit


class Exclusions:
    """A compiled set of exclusion phrases (``matches(hit)`` → the phrase or ``None``)."""

    __slots__ = ("_patterns", "phrases")

    def __init__(self, phrases: list[str]) -> None:
        self.phrases = [" ".join(p.split()) for p in phrases if p and p.strip()]
        self._patterns = [
            (
                phrase,
                re.compile(
                    r"(?<!\w)" + r"\s+".join(map(re.escape, phrase.split())) + r"(?!\w)",
                    re.IGNORECASE,
                ),
            )
            for phrase in self.phrases
        ]

    def matches(self, hit: Hit) -> str | None:
        """The first exclusion phrase that ``hit`` matches, ``"obsolete"`` for an
        obsolete mark, else ``None``."""
        if hit.obsolete:
            return "obsolete"
        fields = [hit.text, *hit.tags, *hit.entities]
        for phrase, pattern in self._patterns:
            if any(pattern.search(field) for field in fields if field):
                return phrase
        return None

    def __bool__(self) -> bool:
        return bool(self.phrases)
