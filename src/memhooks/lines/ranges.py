"""Line ranges: the lines of a file an edit is about to replace, with context (issue 20
item 3: "the lines being replaced (±3 lines); for Write, the lines that change"), and the
arithmetic of ranges the rest of :mod:`memhooks.lines` shares.

Line numbers are 1-based and inclusive, as git's ``-L`` takes them; ranges come sorted
and merged, clipped to the file.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

#: Lines of context on each side of what an edit replaces (``diff -U3``'s default).
CONTEXT = 3
#: The most old × new lines :func:`changed_lines` compares one by one (difflib is
#: quadratic at worst); a larger rewrite counts as replaced as a whole.
MAX_COMPARED = 4_000_000


def edit_lines(
    text: str,
    old_string: str,
    *,
    replace_all: bool = False,
    context: int = CONTEXT,
    unique: bool = False,
) -> list[tuple[int, int]]:
    """Where ``old_string`` stands in ``text`` (its first occurrence; every one with
    ``replace_all``), widened by ``context`` lines: the lines an Edit replaces. Empty
    when ``old_string`` is empty or not found, or — ``unique``: the host's tool replaces
    one occurrence only when there is one (Claude Code ``Edit``, Gemini ``replace``, …:
    :func:`memhooks.lines.tools.changes`) — found twice without ``replace_all``:
    the host will refuse that edit, so it replaces nothing."""
    if not old_string:
        return []
    text, old_string = _lf(text), _lf(old_string)
    start = text.find(old_string)
    if (
        unique
        and not replace_all
        and start != -1
        and text.find(old_string, start + len(old_string)) != -1
    ):
        return []
    size = _count(text)
    spans: list[tuple[int, int]] = []
    while start != -1:
        first = _newlines(text, start) + 1
        last = first + old_string.count("\n", 0, len(old_string.rstrip("\n")))
        spans.append((first, last))
        if not replace_all:
            break
        start = text.find(old_string, start + len(old_string))
    return _widen(spans, context, size)


def changed_lines(old_text: str, new_text: str, *, context: int = CONTEXT) -> list[tuple[int, int]]:
    """The lines of ``old_text`` that writing ``new_text`` over it replaces or removes
    (an insertion counts the lines it lands between), widened by ``context`` lines:
    :class:`difflib.SequenceMatcher`'s opcodes, compared only when the changed middles
    share a line (:func:`_one_change`)."""
    old_text, new_text = _lf(old_text), _lf(new_text)
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
    size = _count(old_text)
    if len(old_mid) * len(new_mid) > MAX_COMPARED or _one_change(old_mid, new_mid):
        # Nothing to match (difflib's opcodes would be one replace, insert or delete), or
        # too much rewritten to compare line by line within a hook's deadline (difflib
        # is quadratic at worst): the whole rewritten stretch counts as replaced.
        span = _span(head, head + len(old_mid), bool(new_mid), size)
        return around([span], old_text, context)
    from difflib import SequenceMatcher  # with re, enum, heapq: ~4 ms of a hook's import

    matcher = SequenceMatcher(None, old_mid, new_mid, autojunk=False)
    spans = [
        _span(i1 + head, i2 + head, tag != "delete", size)
        for tag, i1, i2, _j1, _j2 in matcher.get_opcodes()
        if tag != "equal"
    ]
    return around(spans, old_text, context)


def _span(i1: int, i2: int, writes: bool, size: int) -> tuple[int, int]:
    """Old lines ``i1``..``i2 - 1`` (0-based, of the text split at each newline) replaced — an insertion
    (``i1 == i2``) lies between lines ``i1`` and ``i1 + 1`` — as 1-based lines of a text of
    ``size`` lines. The empty string after a final newline (index ``size``) is no line:
    text written in its place (``writes``) is an insertion after the last line, as when
    it ends with a newline too (a Write adding lines and no final newline was asked about
    no line, and told nothing); removing only the final newline replaces nothing."""
    if writes and i1 == size:
        return size, size + 1
    return (i1 + 1, i2) if i2 > i1 else (i1, i1 + 1)


def around(
    spans: Sequence[tuple[int, int]], text: str, context: int = CONTEXT
) -> list[tuple[int, int]]:
    """``spans`` (lines of ``text``) widened by ``context`` lines on each side, sorted,
    merged and clipped to ``text``'s lines: the ±3 lines around what an edit replaces
    (issue 20 item 3) — :meth:`memhooks.lines.tools.Change.replaced`'s, for the pre-tool
    shortcut (:mod:`memhooks.hook.told`) and the whole way
    (:func:`memhooks.hook.lines.for_edit`) alike. ``text``'s lines are counted once per
    string (:func:`_newlines`)."""
    return _widen(list(spans), context, _count(text))


def _lf(text: str) -> str:
    """``text`` with CRLF line ends as LF: where an edit stands is compared line by line,
    whichever end the file, the cache's kept text (as saved, ``\r`` kept) or the host's
    old text carries — one line each way, so no line number moves (review7: a CRLF file's
    post-tool edit found nothing once the kept text kept its ``\r``)."""
    return text.replace("\r\n", "\n") if "\r" in text else text


def _one_change(old: list[str], new: list[str]) -> bool:
    """Whether ``old`` and ``new`` (the differing middles of two texts' lines) share no
    line: then no line of one matches a line of the other, and the whole of ``old`` is
    replaced by the whole of ``new`` — what :class:`difflib.SequenceMatcher` would say
    without running it (a pre-tool edit's common case: a few lines rewritten)."""
    if not old or not new:
        return True
    return set(old).isdisjoint(new)


def narrowed(span: tuple[int, int], old: str, new: str | None) -> list[tuple[int, int]]:
    """The lines of ``span`` (where the text ``old`` stands in the file) that replacing
    ``old`` by ``new`` really changes: what ``old`` shares with ``new`` line for line
    (at its ends, and between its changes) is context the agent copied. ``[span]`` when
    ``new`` is unknown (None) or changes no line of it."""
    if new is None:
        return [span]
    first, last = span
    out = [
        (max(first, first + a - 1), min(last, first + b - 1))
        for a, b in changed_lines(old, new, context=0)
    ]
    out = [(a, b) for a, b in out if a <= b]
    return out or [span]


#: Newlines counted lately: ``{(id(text), end): (text, count)}``, the text kept so that
#: its id names it. A pre-tool edit counts the lines of the file it changes, and those
#: before where its old text stands, several times over (the shortcut's ranges, the
#: whole way's, their context; an old text's own lines in between), ~0.1 ms each for a
#: 6,000-line file.
_counted: dict[tuple[int, int], tuple[str, int]] = {}
#: The most counts kept.
_COUNTED = 8


def _newlines(text: str, end: int) -> int:
    """How many newlines ``text[:end]`` holds (counted once per string object)."""
    key = (id(text), end)
    found = _counted.get(key)
    if found is not None and found[0] is text:  # the same string object: the same text
        return found[1]
    count = text.count("\n", 0, end)
    if len(_counted) >= _COUNTED:
        _counted.pop(next(iter(_counted)))
    _counted[key] = (text, count)
    return count


def _count(text: str) -> int:
    """Lines in ``text`` as git counts them (a last line without a newline counts)."""
    if not text:
        return 0
    return _newlines(text, len(text)) + (0 if text.endswith("\n") else 1)


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


def extend(ranges: list[tuple[int, int]], n: int) -> None:
    """Add line ``n`` to ``ranges`` (kept sorted, adjacent lines merged)."""
    for i, (first, last) in enumerate(ranges):
        if first - 1 <= n <= last + 1:
            ranges[i] = (min(first, n), max(last, n))
            if i + 1 < len(ranges) and ranges[i + 1][0] <= ranges[i][1] + 1:
                ranges[i] = (ranges[i][0], ranges.pop(i + 1)[1])
            return
        if n < first:
            ranges.insert(i, (n, n))
            return
    ranges.append((n, n))


def clip(ranges: Sequence[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    """``ranges`` within a file of ``size`` lines, sorted and merged; the whole file
    when ``ranges`` is empty."""
    if not ranges:
        return [(1, size)] if size else []
    out = [(max(1, a), min(size, b)) for a, b in ranges if a <= size and b >= 1 and a <= b]
    return ranges_of(numbers(out))


def numbers(ranges: Sequence[tuple[int, int]]) -> list[int]:
    """The line numbers of ``ranges``, ascending, each once."""
    return sorted({n for first, last in ranges for n in range(first, last + 1)})


def ranges_of(lines: Iterable[int]) -> list[tuple[int, int]]:
    """Ascending line numbers as ranges, adjacent ones merged."""
    out: list[tuple[int, int]] = []
    for n in lines:
        if out and out[-1][1] + 1 == n:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return out
