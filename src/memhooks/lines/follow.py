"""Following an edit: a blame cache entry carried over to its file's new text, by the rule
of :mod:`memhooks.lines.cache` ("What invalidates what") — lines kept keep what is known
of them, compared with the text blame saw (the entry's *base*), never with the previous
edit."""

from __future__ import annotations

from difflib import SequenceMatcher

from .cache import UNCOMMITTED, Entry


def follow_edit(entry: Entry, text: list[str]) -> bool:
    """Carry ``entry`` over to the file's new lines ``text``, compared with the text blame
    saw (:attr:`Entry.base`, not the previous edit): lines kept keep what is known of
    them; the others are uncommitted when the base is HEAD's version (``committed``),
    else not blamed yet (blame alone knows whether they are HEAD's lines). Text back to
    the base gets the base's owners back. Returns whether anything changed."""
    if text == entry.text:
        return False
    if entry.base_lines is None:  # the first edit followed: what blame saw is kept aside
        entry.base, entry.base_lines = entry.text, list(entry.lines)
    base, owners = entry.base, entry.base_lines
    if text == base:  # the edit undone
        entry.text, entry.lines = text, list(owners)
        entry.base_lines, entry.base = None, None
        return True
    lines: list[int | None] = [UNCOMMITTED if entry.committed else None] * len(text)
    matcher = SequenceMatcher(None, base, text, autojunk=False)
    for old, new, size in matcher.get_matching_blocks():
        lines[new : new + size] = owners[old : old + size]
    entry.text, entry.lines = text, lines
    return True
