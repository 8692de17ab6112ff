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
import re
import time

from ..errors import UsageError
from ..recall.why import why
from ..recall.why_text import notes, nothing, render, to_json

_LINES = re.compile(r"^(\d+)(?:-(\d+))?$")


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


def parse_target(target: str) -> tuple[str, list[tuple[int, int]]]:
    """``PATH[:LINE[-LINE]]`` -> (path, ranges). A path that exists as written wins
    over a ``:N`` suffix. Raises UsageError for an empty or reversed range."""
    path, colon, lines = target.rpartition(":")
    match = _LINES.match(lines) if colon else None
    if match is None or os.path.exists(target):
        return target, []
    first = int(match.group(1))
    last = int(match.group(2) or first)
    if first < 1 or last < first:
        raise UsageError(f"{target}: lines must run forwards from 1 (LINE or FIRST-LAST)")
    return path, [(first, last)]


def run(args: argparse.Namespace) -> int:
    path, ranges = parse_target(args.target)
    deadline = None if args.timeout is None else time.monotonic() + args.timeout
    answer = why(path, ranges, store_path=args.store, deadline=deadline)
    if args.format == "json":
        print(json.dumps(to_json(answer), indent=2, ensure_ascii=False))
        return 0
    print(render(answer, message_chars=2000) or nothing(answer))
    said = notes(answer)
    if said:
        print("\n" + "; ".join(said))
    return 0
