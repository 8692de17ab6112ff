"""``memhooks remove --query TEXT [--cwd] [--dry-run] [--format human|json]``: remove a
recall query from the nearest hook. A dry run takes no lock and writes nothing.

``--format json`` prints the reference engine's compact line ``{"changed":bool,"dry_run":bool}``
byte for byte (spec reference-engine.md (a) ``remove``); the default prints one sentence
naming the hook.
"""

from __future__ import annotations

import argparse
import json

from ..maintain.notes import remove_note
from ..terminal import visible


def run(args: argparse.Namespace) -> int:

    change = remove_note(args.cwd, args.query, dry_run=args.dry_run)
    if args.format == "json":
        print(
            json.dumps({"changed": change.changed, "dry_run": args.dry_run}, separators=(",", ":"))
        )
        return 0
    query, hook = visible(" ".join(args.query.split())), visible(change.path)
    if not change.changed:
        print(f"No recall query {query!r} in {hook}; nothing removed")
    elif args.dry_run:
        print(f"Would remove the recall query {query!r} from {hook} (dry run: nothing written)")
    else:
        print(f"Removed the recall query {query!r} from {hook}")
    return 0
