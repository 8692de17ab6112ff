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


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "target",
        metavar="PATH[:LINE[-LINE]]",
        help="a file of the project, optionally with a line or a range of lines",
    )
    p.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="stop blaming after SECONDS and answer with what is known (default: no limit)",
    )
    p.add_argument("--store", metavar="FILE", help="embedded store whose revert marks apply")
    p.add_argument("--format", choices=("human", "json"), default="human")


#: The dash ``why`` prints its ranges with (``auth.py 156–157``): read as ``-``, so its
#: output can be pasted back.
EN_DASH = "\u2013"


def parse_target(target: str) -> tuple[str, list[tuple[int, int]]]:
    """``PATH[:LINE[-LINE]]`` -> (path, ranges). A path that exists as written wins
    over a ``:N`` suffix. ``PATH:LINE:COLUMN`` — what compilers, linters and
    ``grep -n --column`` print — is line ``LINE`` (the column is dropped); a range may
    be written with an en dash (``156–157``), as ``why`` prints it. Raises :class:`~memhooks.recall.why_path.LineRangeError`
    (MH035) for lines that are no range — empty, reversed, not numbers (``a.py:-3``,
    ``a.py:abc``, when ``a.py`` is a file) — naming the lines the file has; but first
    what is wrong with the file itself, as ``why`` would say it (MH024 missing, MH029 a
    folder, MH032 outside git: :func:`~memhooks.recall.why_path.checked`)."""
    path, colon, lines = target.rpartition(":")
    if not colon or os.path.exists(target):
        return target, []
    lines = lines.replace(EN_DASH, "-")
    head, colon, line = path.rpartition(":")
    if colon and lines.isdigit() and line.isdigit() and not os.path.exists(path):
        path, lines = head, line  # PATH:LINE:COLUMN
    match = RANGE.match(lines)
    if match is None:
        if os.path.isfile(path):  # a file, and after it something that is no range
            checked(path)
            raise range_error(path, lines, line_count(path))
        return target, []  # a name with a colon in it, or none: why() says which
    first = int(match.group(1))
    last = int(match.group(2) or first)
    if first < 1 or last < first:
        checked(path)  # the file's own mistakes first: its lines are no question then
        raise range_error(path, lines, line_count(path) if os.path.isfile(path) else None)
    return path, [(first, last)]


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
