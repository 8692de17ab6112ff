"""``memhooks why PATH[:LINE[-LINE]] [--format human|json] [--timeout SECONDS]
[--store FILE]``: the commits that explain those lines of the working file (all of it
without lines), their previous owners where an owner only reshaped the code, the hook
chain's exclusions and the embedded store's revert marks applied
(:func:`memhooks.recall.why.explain_lines`). Nothing is written but the blame cache in
the state directory."""

from __future__ import annotations

import argparse
import json
import os
import time

from ..recall.why_json import to_json
from ..recall.why_notes import notes, nothing
from ..recall.why_path import RANGE, LineRangeError, checked, line_count, range_error, why
from ..recall.why_text import render
from ..report import print_errors
from . import arguments


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "target",
        metavar="PATH[:LINE[-LINE]]",
        help=(
            "a file of the project, optionally with a line or a range of lines (a"
            " compiler's PATH:LINE:COLUMN is line LINE: a column is no part of a line's"
            " history)"
        ),
    )
    p.add_argument(
        "--timeout",
        type=arguments.seconds,
        metavar="SECONDS",
        help="stop blaming after SECONDS and answer with what is known (default: no limit)",
    )
    p.add_argument("--store", metavar="FILE", help="embedded store whose revert marks apply")
    p.add_argument("--format", choices=("human", "json"), default="human")


#: The dash ``why`` prints its ranges with (``auth.py 156–157``): read as ``-``, so its
#: output can be pasted back.
EN_DASH = "\u2013"


def parse_target(target: str) -> tuple[str, list[tuple[int, int]]]:
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
    ``why`` says it is missing (MH024, ``missing.py``, not ``missing.py:3``)."""
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
        checked(path)  # the file's own mistakes first: its lines are no question then
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


def run(args: argparse.Namespace) -> int:
    try:
        path, ranges = parse_target(args.target)
        deadline = None if args.timeout is None else time.monotonic() + args.timeout
        answer = why(path, ranges, store_path=args.store, deadline=deadline)
    except LineRangeError as exc:  # a diagnostic like every other: exit 1, with its code
        print_errors(exc.diagnostics, args.format)
        return 1
    if args.format == "json":
        print(json.dumps(to_json(answer), indent=2, ensure_ascii=False))
        return 0
    print(render(answer, message_chars=2000, tags=False) or nothing(answer))
    said = notes(answer)
    if said:
        print("\n" + "\n".join(said))
    return 0
