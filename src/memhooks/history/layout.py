"""Words that name a change of layout, and whether a commit's subject uses one: part of
the low-signal rule's formatting vocabulary (:mod:`.signal`), and what makes line-level
recall ask whether an owner changed the lines only on their surface
(:mod:`memhooks.recall.why_layout`). Its own module: line-level recall asks it of most
owners it tells, on a pre-tool edit, and the word rules (:mod:`memhooks.words`) are
several times its size.
"""

from __future__ import annotations

#: Words that name a change of layout (lower case).
LAYOUT = frozenset(
    {"whitespace", "whitespaces", "indentation", "indent", "indents", "indenting", "reindent",
     "re-indent", "tabs", "spaces", "eol", "newline", "newlines"}
)  # fmt: skip


def names_layout(subject: str) -> bool:
    """Whether a commit's ``subject`` names a change of layout (:data:`LAYOUT`) among
    whatever else it says — iproute2 897772a7 "cmd: use spaces instead of tabs for usage
    indentation" (:mod:`memhooks.recall.why_layout`)."""
    words = subject.lower().replace(",", " ").replace(":", " ").split()
    return any(word.strip(".;()'\"") in LAYOUT for word in words)
