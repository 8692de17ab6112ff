"""The one text normalization used everywhere a query, name or exclusion is compared.

Issue 2 (and reference weakness (l)3): the reference resolver compares trimmed text, its
maintainer compares whitespace-collapsed text and its linter trimmed text. memhooks uses
one rule for all of them: trim, then collapse every internal run of whitespace to a single
space. Case is significant.
"""

from __future__ import annotations


def normalize(text: str) -> str:
    """``"  Why  did\\tauth\\nchange? "`` → ``"Why did auth change?"``."""
    return " ".join(text.split())
