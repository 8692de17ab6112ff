"""Content words: what a piece of prose is about, as words — one rule for every place
memhooks compares prose by its words (a conversation's topics, :mod:`memhooks.transcripts`;
the prompt-time relevance floor, :mod:`memhooks.recall.floor`).

Lower-cased words of three or more letters (and numbers), common words left out, plural
and verb endings taken off by a light stemmer (``windows`` and ``window``, ``merging`` and
``merge`` are one word). Pure, no I/O; ``re`` only.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]{2,}|\d+(?:\.\d+)?")
_STOP = frozenset(
    """the and for that this with from have has had are was were will would should could
    can not but you your our its it's into onto then than them they their there here
    what when where which while who why how all any each every some more most much many
    also just only very really please thanks okay yes yeah sure let lets let's now again
    make made use using used want need does did done doing get got see look looks like
    one two way ways thing things sure fine good great about after before because over
    under out off too been being don't doesn't isn't aren't won't can't instead actually
    file files code change changes fix fixed test tests run runs added adds add now still
    welcome ok""".split()  # noqa: SIM905
)


def content_words(text: str) -> frozenset[str]:
    """Lower-cased words of three or more letters (and numbers), common words left out,
    plural and verb endings taken off (``windows`` and ``window``, ``merging`` and ``merge``
    are one word)."""
    words = {m.lower() for m in _WORD.findall(text)}  # each word stemmed once
    return frozenset(stem(w) for w in words if w not in _STOP)


def stem(word: str) -> str:
    """``word`` without a plural or verb ending (a light stemmer: ``-ing``, ``-ed``,
    ``-es``, ``-s``, and a final ``e``), for words of more than four letters."""
    if len(word) <= 4 or "_" in word or not word.isalpha():
        return word
    for ending in ("ing", "ed", "es", "s"):
        if word.endswith(ending) and len(word) - len(ending) >= 4:
            word = word[: -len(ending)]
            if ending in ("ing", "ed") and word[-1] == word[-2] and word[-1] not in "aeiouls":
                word = word[:-1]  # overlapping -> overlap
            break
    return word[:-1] if word.endswith("e") and len(word) > 4 else word
