"""Words as recall compares them outside the search index: file names against a prompt
(:mod:`.filenames`) and exclusion phrases against memories (:mod:`.exclusion`).

A word is a run of letters and digits (``\\w`` without the underscore, so ``_``, ``-``,
``/`` and ``.`` separate words; ``str.isalnum``); :func:`singular` drops a plural ``s`` from words of four
or more letters that do not end in ``ss`` (``sessions`` -> ``session``; ``class``
stays).
"""

from __future__ import annotations

#: Every ASCII character that is not a letter or digit, to a space: the split that
#: ``re.findall(r"[^\W_]+")`` makes, at C speed for ASCII text and without loading
#: :mod:`re` in the agent hook (a sixth of a bare interpreter's start).
_SEPARATE = {c: " " for c in range(128) if not chr(c).isalnum()}


def words(text: str) -> list[str]:
    """The words of ``text`` as written, in order (fold case first if that matters):
    the runs of characters for which ``str.isalnum()`` holds."""
    out: list[str] = []
    for token in text.translate(_SEPARATE).split():
        if token.isalnum():
            out.append(token)
            continue
        current: list[str] = []  # a non-ASCII separator inside (an em dash, a quote)
        for ch in token:
            if ch.isalnum():
                current.append(ch)
            elif current:
                out.append("".join(current))
                current = []
        if current:
            out.append("".join(current))
    return out


def singular(word: str) -> str:
    """``word`` without a plural ``s`` (see the module docstring)."""
    return word[:-1] if len(word) >= 4 and word.endswith("s") and not word.endswith("ss") else word
