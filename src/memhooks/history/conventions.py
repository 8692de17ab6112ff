"""A memory's kind and tags from a commit subject, where a convention says what it is.

Recognised, and nothing else (a guess from ordinary words would label half the history
wrongly):

* Conventional Commits (https://www.conventionalcommits.org/en/v1.0.0/):
  ``type(scope)!: description`` with a type of :data:`TYPES` — the kind is the type,
  the scope becomes a tag, ``!`` or a ``BREAKING CHANGE:`` footer the tag ``breaking``;
* git's own revert subject, ``Revert "<subject>"`` (and ``Reapply "<subject>"``, which
  git 2.43+ writes for the revert of a revert) — kind ``revert``;
* a subject whose first word is fix, fixes, fixed, fixing, bugfix or hotfix — kind ``fix``.

A component prefix such as ``store: …`` or ``docs/cli: …`` is not a type, so it gives no
kind.
"""

from __future__ import annotations

import re

#: Conventional Commits types understood, spelled as found -> the kind stored.
TYPES = {
    "feat": "feat",
    "feature": "feat",
    "fix": "fix",
    "bugfix": "fix",
    "hotfix": "fix",
    "perf": "perf",
    "revert": "revert",
    "refactor": "refactor",
    "docs": "docs",
    "doc": "docs",
    "test": "test",
    "tests": "test",
    "build": "build",
    "ci": "ci",
    "chore": "chore",
    "style": "style",
    "security": "security",
    "deps": "deps",
}

_CONVENTIONAL = re.compile(
    r"^(?P<type>[A-Za-z]+)(?:\((?P<scope>[^()\n]{1,40})\))?(?P<breaking>!)?:[ \t]+\S"
)
_GIT_REVERT = re.compile(r'^(?:revert|reapply)\s+"', re.IGNORECASE)
_MAY_REVERT = re.compile(r"^(?:revert(?:s|ed)?|reapply)\b", re.IGNORECASE)
_FIX_WORD = re.compile(r"^(?:fix|fixes|fixed|fixing|bugfix|hotfix)\b", re.IGNORECASE)
_BREAKING_FOOTER = re.compile(r"^BREAKING[ -]CHANGE:", re.MULTILINE)


def classify(subject: str, message: str = "") -> tuple[str | None, list[str]]:
    """``(kind, tags)`` for a commit with this ``subject`` (and full ``message``, for a
    breaking-change footer); ``(None, [])`` when no convention applies."""
    subject = subject.strip()
    tags: list[str] = []
    kind: str | None = None
    match = _CONVENTIONAL.match(subject)
    if match and match.group("type").lower() in TYPES:
        kind = TYPES[match.group("type").lower()]
        scope = (match.group("scope") or "").strip().lower()
        if scope:
            tags.append(scope)
        if match.group("breaking"):
            tags.append("breaking")
    elif _GIT_REVERT.match(subject):
        kind = "revert"
    elif _FIX_WORD.match(subject):
        kind = "fix"
    if "breaking" not in tags and _BREAKING_FOOTER.search(message):
        tags.append("breaking")
    return kind, tags


def may_revert(subject: str) -> bool:
    """Whether a commit with this ``subject`` may name commits it reverts in its message:
    its first word is revert, reverts, reverted or reapply, or its Conventional Commits
    type is ``revert`` (the message itself says which commits)."""
    return bool(_MAY_REVERT.match(subject.strip()))
