"""A commit message as memory text: what the change says, without who made it.

Dropped: trailer lines that name people or review bookkeeping, and
``(cherry picked from commit …)`` lines. A trailer is a ``Token: value`` line
(``git interpret-trailers``, https://git-scm.com/docs/git-interpret-trailers: a token of
letters, digits and hyphens, any case, blanks allowed before the colon). Dropped
wherever they stand, since squashed merges put them mid-message: any ``Token-by:``
(``Signed-off-by``, ``Co-authored-by``, ``Reviewed-by``, ``Acked-by``, ``Tested-by``,
``Reported-by``, ``Suggested-by``, …), ``Cc``, ``Thanks-to``, ``Change-Id``,
``Reviewed-on``, ``git-svn-id``, and any ``Token: Name <address>`` line. Beyond git's
spelling, because real histories have them (psf/requests 5296b8be: ``Co-Authored By:``):
a token with blanks for hyphens (up to four words) — with an address anywhere, and
any ``… by:`` line in the last paragraph, where trailers stand. Replaced:
e-mail addresses (``<email>``) and secrets (:mod:`memhooks.scrubber`, the rules
capture uses). Trailers that say something about the change (``Fixes:``, ``Refs:``,
``BREAKING CHANGE:``) are kept. The text is at most :data:`MAX_TEXT_CHARS` characters (:func:`.cut.bound`).
"""

from __future__ import annotations

import re

from ..scrubber import clean
from .cut import MAX_TEXT_CHARS, bound

__all__ = ["MAX_TEXT_CHARS", "bound", "memory_text", "reverted", "reverted_subject"]

#: A trailer token as people write it: git's (letters, digits, hyphens), or with blanks
#: for hyphens (``Co-Authored By``), up to four words.
_TOKEN = r"[A-Za-z][A-Za-z0-9]*(?:[- ][A-Za-z0-9]+){0,3}"
_DROPPED_LINE = re.compile(
    r"^[ \t]*(?:[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*-by|cc|thanks-to|change-id|reviewed-on"
    r"|git-svn-id)[ \t]*:|^[ \t]*\(cherry picked from commit [0-9a-f]+\)[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)
#: ``Token: Name <address>``: names a person whatever the token (never the subject).
_NAMED_LINE = re.compile(rf"^[ \t]*{_TOKEN}[ \t]*:[^\n]*<[^<>\s]+@[^<>\s]+>")
#: A ``… by:`` line spelled with blanks: dropped in the last paragraph only (prose may
#: say "Fixed by: …" mid-message).
_BY_LINE = re.compile(rf"^[ \t]*{_TOKEN}[- ]by[ \t]*:", re.IGNORECASE)
_EMAIL = re.compile(r"<?[\w.+-]+@[\w-]+(?:\.[\w-]+)+>?")
_BLANK_RUN = re.compile(r"\n{3,}")
#: ``git revert``'s line naming the reverted commit.
_REVERTS = re.compile(r"\bthis reverts commit ([0-9a-f]{7,64})\b", re.IGNORECASE)
#: A Conventional Commits footer naming commits (``Refs: 676104e, a215868``).
_REFS = re.compile(r"^refs:[ \t]*(.+)$", re.IGNORECASE | re.MULTILINE)
_CONVENTIONAL_REVERT = re.compile(r"^\s*revert(?:\([^()\n]*\))?!?:", re.IGNORECASE)
_GIT_REVERT_SUBJECT = re.compile(r'^(?:revert|reapply) "(.+)"$', re.IGNORECASE | re.DOTALL)
_HASH = re.compile(r"\b[0-9a-f]{7,64}\b")


def memory_text(message: str) -> str:
    """The memory text for a raw commit ``message`` (``""`` when nothing is left)."""
    lines = message.strip().split("\n")
    if _DROPPED_LINE.search(message):
        lines = [line for line in lines if not _DROPPED_LINE.match(line)]
    if "@" in message:
        lines = lines[:1] + [line for line in lines[1:] if not _NAMED_LINE.match(line)]
    if " by" in message or " By" in message or " BY" in message:
        last = len(lines)
        while last and lines[last - 1].strip():
            last -= 1
        if last:  # a message of one paragraph is its subject, never trailers
            lines = lines[:last] + [line for line in lines[last:] if not _BY_LINE.match(line)]
    text = "\n".join(line.rstrip() for line in lines).strip()
    text = _BLANK_RUN.sub("\n\n", text)
    if "@" in text:
        text = _EMAIL.sub("<email>", text)

    return bound(clean(text).strip())


def reverted(subject: str, message: str) -> list[str]:
    """Hashes (lower case, 7-64 hex digits, as written) of the commits a commit says it
    reverts: git's ``This reverts commit <hash>`` lines, and for a Conventional Commits
    ``revert:`` subject the hashes of its ``Refs:`` footer."""
    # The case-blind search over every message is most of this function's cost; a message
    # that cannot hold the line skips it.
    found = _REVERTS.findall(message) if "evert" in message or "EVERT" in message else []
    if _CONVENTIONAL_REVERT.match(subject):
        for refs in _REFS.findall(message):
            found += _HASH.findall(refs)
    return list(dict.fromkeys(hash_.lower() for hash_ in found))


def reverted_subject(subject: str) -> str | None:
    """The subject inside git's revert subject ``Revert "<subject>"`` (or ``Reapply
    "<subject>"``), else None."""
    match = _GIT_REVERT_SUBJECT.match(subject.strip())
    return match.group(1) if match else None
