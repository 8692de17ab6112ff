"""The one text normalization used everywhere a query, name or exclusion is compared,
and the one bound on how much of a prompt recall reads (:func:`bound_prompt`).

Issue 2 (and reference weakness (l)3): the reference resolver compares trimmed text, its
maintainer compares whitespace-collapsed text and its linter trimmed text. memhooks uses
one rule for all of them: trim, then collapse every internal run of whitespace to a single
space. Case is significant.
"""

from __future__ import annotations

#: Characters of a prompt that recall reads; the rest is ignored (issue 14: a 1 MB prompt
#: made recall superlinear). 16,000 characters is a long pasted page; the store searches
#: the first 32 distinct words of it anyway (``memhooks.store.search.MAX_TERMS``).
MAX_PROMPT_CHARS = 16_000


def bound_prompt(prompt: str, limit: int = MAX_PROMPT_CHARS) -> str:
    """``prompt`` cut to at most ``limit`` characters, before the word the cut would
    split (a single word longer than ``limit`` is cut inside it). Linear in ``limit``:
    the rest of the prompt is never looked at."""
    if len(prompt) <= limit:
        return prompt
    cut = prompt[:limit]
    if not prompt[limit].isspace():
        end = len(cut)
        while end and not cut[end - 1].isspace():
            end -= 1
        cut = cut[:end] or cut
    return cut


def normalize(text: str) -> str:
    """``"  Why  did\\tauth\\nchange? "`` → ``"Why did auth change?"``."""
    return " ".join(text.split())
