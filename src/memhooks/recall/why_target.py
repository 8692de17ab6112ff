"""What ``why`` is asked about: ``PATH[:LINE[-LINE]]`` read into the file and its lines
(:func:`parse_target`), as the ``memhooks why`` command and the MCP ``why`` tool
(:func:`memhooks.mcp.tools.why`, given ``path`` alone) read it alike."""

from __future__ import annotations

import os

from .why_path import RANGE, checked, line_count, range_error

#: The dash ``why`` prints its ranges with (``auth.py 156–157``): read as ``-``, so its
#: output can be pasted back.
EN_DASH = "\u2013"


def parse_target(target: str, within: str | None = None) -> tuple[str, list[tuple[int, int]]]:
    """``PATH[:LINE[-LINE]]`` -> (path, ranges). The file is the longest part of
    ``target`` before a ``:`` that exists (a path that exists as written wins over a
    ``:N`` suffix; a name with colons in it is found whole); what follows it is the
    lines, as :func:`lines_of` reads them (``PATH:LINE:COLUMN``, what compilers, linters
    and ``grep -n --column`` print, is line ``LINE``). Raises
    :class:`~memhooks.recall.why_path.LineRangeError` (MH035) for lines that are no
    range — empty, reversed, not numbers, more than a line and a column (``a.py:-3``,
    ``a.py:abc``, ``a.py:195:17:3``; newcomer6: that last said MH024, no file
    ``a.py:195``) — naming the lines the file has and quoting them as written; but
    first what is wrong with the file itself, as ``why`` would say it (MH029 a folder
    or a symlink out of its project, MH032 outside git:
    :func:`~memhooks.recall.why_path.checked`). When no part of ``target`` exists, the
    file is what comes before the first ``:`` after which all reads as lines, and
    ``why`` says it is missing (MH024, ``missing.py``, not ``missing.py:3``). ``within``:
    the only project whose files may be named (the MCP tool's; MH029 for another)."""
    if os.path.lexists(target):
        return target, []
    cut = target.rfind(":")
    while cut > 0 and not os.path.lexists(target[:cut]):
        cut = target.rfind(":", 0, cut)
    if cut <= 0:  # no part of it exists: the file is missing, named without its lines
        return _missing(target)
    path, written = target[:cut], target[cut + 1 :]
    match = RANGE.match(lines_of(written))
    first = int(match.group(1)) if match else 0
    last = int(match.group(2) or first) if match else 0
    if match is None or first < 1 or last < first:
        checked(path, within)  # the file's own mistakes first: its lines are no question then
        asked = lines_of(written) if match else written
        raise range_error(path, asked, line_count(path), argument=target)
    return path, [(first, last)]


def lines_of(written: str) -> str:
    """The lines ``written`` after a file's ``:`` as :data:`RANGE` reads them: an en dash
    read as ``-`` (``156–157``, as ``why`` prints a range, pasted back), a ``:COLUMN``
    after them dropped (``9:17``), and one ``:`` that ends them too (``9:`` and ``9:17:``,
    as ``grep -n`` and compilers print a place before their text)."""
    written = written.replace(EN_DASH, "-").removesuffix(":")
    lines, colon, column = written.partition(":")
    return lines if colon and column.isascii() and column.isdigit() else written


def _missing(target: str) -> tuple[str, list[tuple[int, int]]]:
    """(path, ranges) of a ``target`` no part of which exists: cut at the first ``:``
    after which all reads as lines (:func:`lines_of`), so that MH024 names the file,
    said before anything about its lines (:func:`~memhooks.recall.why_path.checked`);
    ``target`` whole when no ``:`` is followed by lines (``C:\\src\\a.py``)."""
    cut = target.find(":")
    while cut > 0:
        match = RANGE.match(lines_of(target[cut + 1 :]))
        if match is not None:
            first = int(match.group(1))
            return target[:cut], [(first, int(match.group(2) or first))]
        cut = target.find(":", cut + 1)
    return target, []
