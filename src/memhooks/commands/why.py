"""``memhooks why PATH[:LINE[-LINE]] [--format human|json] [--timeout SECONDS]
[--store FILE]``: the commits that explain those lines of the working file (all of it
without lines), their previous owners where an owner only reshaped the code, the hook
chain's exclusions and the embedded store's revert marks applied
(:func:`memhooks.recall.why.explain_lines`). Nothing is written but the blame cache in
the state directory."""

from __future__ import annotations

import argparse
import json
import time

from ..recall.why_json import to_json
from ..recall.why_notes import notes, nothing
from ..recall.why_path import LineRangeError, why
from ..recall.why_target import parse_target
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
