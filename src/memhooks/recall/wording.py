"""Words as recall compares them outside the search index: file names against a prompt
(:mod:`.filenames`) and exclusion phrases against memories (:mod:`.exclusion`).

A word is a run of letters and digits (``\\w`` without the underscore, so ``_``, ``-``,
``/`` and ``.`` separate words); :func:`singular` drops a plural ``s`` from words of four
or more letters that do not end in ``ss`` (``sessions`` -> ``session``; ``class``
stays).
"""

from __future__ import annotations

import re

#: Runs of letters and digits.
WORD = re.compile(r"[^\W_]+")


def words(text: str) -> list[str]:
    """The words of ``text`` as written, in order (fold case first if that matters)."""
    return WORD.findall(text)


def singular(word: str) -> str:
    """``word`` without a plural ``s`` (see the module docstring)."""
    return word[:-1] if len(word) >= 4 and word.endswith("s") and not word.endswith("ss") else word
