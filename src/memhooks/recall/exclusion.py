"""Exclusions: material that must not enter the current context (seed 000 step 6).

A hit is excluded when it is marked obsolete, or when an exclusion phrase occurs as a run
of whole words in its text, one of its tags or entities, its scope or one of its files.
Both sides are compared as words: Unicode-normalized (NFKC, so fullwidth letters are
letters), case-folded, and split at anything that is not a letter or digit (spaces,
``-``, ``_``, ``/``, ``.``, ``'``). Invisible formatting characters (Unicode category Cf:
soft hyphen, zero-width space, direction marks, …) match both ways: as if absent
("se\u200bcret" is "secret") and as a separator. A word of the memory also matches
without a plural ``s`` (four letters or more, not ``ss``), a word of the phrase never
loses one: ``"secret"`` excludes "secrets" and "secret-sauce" but not "secretary";
``"Windows"`` does not exclude "window"; ``"legacy PayPal"`` excludes "legacy-paypal",
"LEGACY_PAYPAL" and "the legacy PayPal's flow"; ``"auth"`` does not exclude "OAuth".
The reference engine matches any substring of a result's JSON (spec/reference-engine.md
(k)); whole words keep an exclusion from removing every memory that happens to contain
its letters.

Matching is ours: no memory backend has a negative query (spec/backends.md §6), so the
runtime over-fetches and filters here. Hooks' own guidance is not filtered (it is the
plan, not recalled material), as in the reference engine.
"""

from __future__ import annotations

from . import wording

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..backends.base import Hit


# A possessive at the end of a phrase's word: "PayPal's" excludes what "PayPal" does.
def _without_possessives(phrase: str) -> str:
    r"""``phrase`` without ``'s`` / ``’s`` after a word character and before a word end
    (what ``re.sub(r"(?<=\w)['’][sS]\b", "", phrase)`` does, without loading :mod:`re`
    in the agent hook)."""
    if "'" not in phrase and "\u2019" not in phrase:
        return phrase
    out: list[str] = []
    i, n = 0, len(phrase)
    while i < n:
        ch = phrase[i]
        if (
            ch in "'\u2019"
            and i > 0
            and _word(phrase[i - 1])
            and i + 1 < n
            and phrase[i + 1] in "sS"
            and (i + 2 == n or not _word(phrase[i + 2]))
        ):
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def words(text: str) -> list[str]:
    """``text`` as comparable words: NFKC, case-folded, format characters dropped, split
    at everything that is not a letter or digit (plural ``s`` kept)."""
    return wording.words(_spellings(text)[0])


def _spellings(text: str) -> list[str]:
    """``text`` normalized and case-folded; when it holds format characters, twice: with
    them dropped and with them read as separators."""
    if text.isascii():
        return [text.lower()]
    import unicodedata

    folded = unicodedata.normalize("NFKC", text).casefold()
    hidden = {ch for ch in set(folded) if unicodedata.category(ch) == "Cf"}
    if not hidden:
        return [folded]
    return [
        "".join(ch for ch in folded if ch not in hidden),
        "".join(" " if ch in hidden else ch for ch in folded),
    ]


def _contains(haystack: list[str], needle: tuple[str, ...]) -> bool:
    """Whether ``needle`` occurs as consecutive words of ``haystack``, a word matching
    as written or without its plural ``s``."""
    size = len(needle)
    for start in range(len(haystack) - size + 1):
        for offset, wanted in enumerate(needle):
            word = haystack[start + offset]
            if word != wanted and wording.singular(word) != wanted:
                break
        else:
            return True
    return False


class Exclusions:
    """A compiled set of exclusion phrases (``matches(hit)`` → the phrase or ``None``)."""

    __slots__ = ("_needles", "phrases")

    def __init__(self, phrases: list[str]) -> None:
        self.phrases = [" ".join(p.split()) for p in phrases if p and p.strip()]
        self._needles = [
            (phrase, tuple(found))
            for phrase in self.phrases
            for spelling in _spellings(_without_possessives(phrase))
            if (found := wording.words(spelling))
        ]

    def matches(self, hit: Hit) -> str | None:
        """The first exclusion phrase that ``hit`` matches, ``"obsolete"`` for an
        obsolete mark, else ``None``."""
        if hit.obsolete:
            return "obsolete"
        if not self._needles:
            return None
        fields = [hit.text, *hit.tags, *hit.entities, hit.scope or "", *(hit.files or [])]
        spellings = [spelling for field in fields if field for spelling in _spellings(field)]
        # A needle's words occur in the text as substrings whenever the needle matches:
        # most memories fail this test without being split into words. (One joined
        # haystack: it may pass a memory whose fields share the words between them,
        # which the exact test below then rejects.)
        blob = "\x00".join(spellings)
        if not any(all(word in blob for word in needle) for _, needle in self._needles):
            return None
        haystacks = []
        for spelling in spellings:
            if spelling:
                found = wording.words(spelling)
                # Every word of a needle must be here (as written or singular) before
                # the order is checked: most memories fail this set test at once.
                present = set(found)
                present.update(wording.singular(word) for word in found)
                haystacks.append((found, present))
        for phrase, needle in self._needles:
            for found, present in haystacks:
                if present.issuperset(needle) and _contains(found, needle):
                    return phrase
        return None

    def __bool__(self) -> bool:
        return bool(self.phrases)
