"""The lines of a file an edit is about to replace, with context (issue 20 item 3: "the
lines being replaced (±3 lines); for Write, the lines that change").

Line numbers are 1-based and inclusive, as git's ``-L`` takes them; ranges come sorted
and merged, clipped to the file.
"""

from __future__ import annotations

#: Lines of context on each side of what an edit replaces (``diff -U3``'s default).
CONTEXT = 3
#: The most old × new lines :func:`changed_lines` compares one by one (difflib is
#: quadratic at worst); a larger rewrite counts as replaced as a whole.
MAX_COMPARED = 4_000_000


def edit_lines(
    text: str, old_string: str, *, replace_all: bool = False, context: int = CONTEXT
) -> list[tuple[int, int]]:
    """Where ``old_string`` stands in ``text`` (its first occurrence; every one with
    ``replace_all``), widened by ``context`` lines: the lines an Edit replaces. Empty
    when ``old_string`` is empty or not found (the host will refuse that edit)."""
    if not old_string:
        return []
    size = _count(text)
    spans: list[tuple[int, int]] = []
    start = text.find(old_string)
    while start != -1:
        first = text.count("\n", 0, start) + 1
        last = first + old_string.count("\n", 0, len(old_string.rstrip("\n")))
        spans.append((first, last))
        if not replace_all:
            break
        start = text.find(old_string, start + len(old_string))
    return _widen(spans, context, size)


def changed_lines(old_text: str, new_text: str, *, context: int = CONTEXT) -> list[tuple[int, int]]:
    """The lines of ``old_text`` that writing ``new_text`` over it replaces or removes
    (an insertion counts the lines it lands between), widened by ``context`` lines."""
    from difflib import SequenceMatcher

    old = old_text.split("\n")
    new = new_text.split("\n")
    # The lines both share at the start and at the end are not compared again: a Write
    # usually changes a few lines in the middle of a file it read.
    head = 0
    while head < len(old) and head < len(new) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < len(old) - head and tail < len(new) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    old_mid = old[head : len(old) - tail]
    new_mid = new[head : len(new) - tail]
    if not old_mid and not new_mid:
        return []
    spans: list[tuple[int, int]] = []
    if len(old_mid) * len(new_mid) > MAX_COMPARED:
        # Too much rewritten to compare line by line within a hook's deadline (difflib is
        # quadratic at worst): the whole rewritten stretch counts as replaced.
        spans.append((head + 1, head + len(old_mid)) if old_mid else (head, head + 1))
        return _widen(spans, context, _count(old_text))
    matcher = SequenceMatcher(None, old_mid, new_mid, autojunk=False)
    for tag, i1, i2, _j1, _j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        # old lines i1..i2-1 (0-based); an insertion (i1 == i2) lies between i1 and i1 + 1
        i1, i2 = i1 + head, i2 + head
        spans.append((i1 + 1, i2) if i2 > i1 else (i1, i1 + 1))
    return _widen(spans, context, _count(old_text))


def _count(text: str) -> int:
    """Lines in ``text`` as git counts them (a last line without a newline counts)."""
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def _widen(spans: list[tuple[int, int]], context: int, size: int) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for first, last in sorted(spans):
        first, last = max(1, first - context), min(size, last + context)
        if first > last:
            continue
        if out and first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out
