"""Exclusions: material that must not enter the current context (seed 000 step 6).

A hit is excluded when it is marked obsolete, or when an exclusion phrase occurs as a run
of whole words in its text, one of its tags or entities, its scope or one of its files.
Both sides are compared as words: Unicode-normalized (NFKC, so fullwidth letters are
letters), case-folded, with invisible formatting characters dropped (a soft hyphen or a
zero-width joiner inside a word), split at anything that is not a letter or digit
(spaces, ``-``, ``_``, ``/``, ``.``, ``'``), and a plural ``s`` dropped from words of four
or more letters. So ``"legacy PayPal"`` excludes "legacy-paypal", "LEGACY_PAYPAL" and
"the legacy PayPal's flow"; ``"secret"`` excludes "secrets" and "secret-sauce" but not
"secretary"; ``"auth"`` does not exclude "OAuth". The reference engine matches any
substring of a result's JSON (spec/reference-engine.md (k)); whole words keep an
exclusion from removing every memory that happens to contain its letters.

Matching is ours: no memory backend has a negative query (spec/backends.md §6), so the
runtime over-fetches and filters here. Hooks' own guidance is not filtered (it is the
plan, not recalled material), as in the reference engine.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..backends.base import Hit

# Format characters that join or hyphenate inside a word: dropped, not split at.
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200c\u200d\u2060\ufeff"))


def words(text: str) -> list[str]:
    """``text`` as comparable words (see the module docstring), in order."""
    import unicodedata

    folded = unicodedata.normalize("NFKC", text).translate(_INVISIBLE).casefold()
    out: list[str] = []
    current: list[str] = []
    for ch in folded + " ":
        if ch.isalnum():
            current.append(ch)
            continue
        if current:
            word = "".join(current)
            current = []
            if len(word) >= 4 and word.endswith("s") and not word.endswith("ss"):
                word = word[:-1]
            out.append(word)
    return out


class Exclusions:
    """A compiled set of exclusion phrases (``matches(hit)`` → the phrase or ``None``)."""

    __slots__ = ("_needles", "phrases")

    def __init__(self, phrases: list[str]) -> None:
        self.phrases = [" ".join(p.split()) for p in phrases if p and p.strip()]
        # " a b " inside " x a b y ": a run of whole words, by plain substring search.
        self._needles = [
            (phrase, f" {' '.join(found)} ") for phrase in self.phrases if (found := words(phrase))
        ]

    def matches(self, hit: Hit) -> str | None:
        """The first exclusion phrase that ``hit`` matches, ``"obsolete"`` for an
        obsolete mark, else ``None``."""
        if hit.obsolete:
            return "obsolete"
        if not self._needles:
            return None
        fields = [hit.text, *hit.tags, *hit.entities, hit.scope or "", *(hit.files or [])]
        haystacks = [f" {' '.join(words(field))} " for field in fields if field]
        for phrase, needle in self._needles:
            if any(needle in haystack for haystack in haystacks):
                return phrase
        return None

    def __bool__(self) -> bool:
        return bool(self.phrases)
