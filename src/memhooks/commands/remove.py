"""``memhooks remove --query TEXT [--cwd] [--dry-run]``: remove a recall query from the
nearest hook. stdout ``{"changed":bool,"dry_run":bool}``; a dry run takes no lock and
writes nothing."""

from __future__ import annotations

import argparse
import json


def run(args: argparse.Namespace) -> int:
    from ..maintain.notes import remove_note

    change = remove_note(args.cwd, args.query, dry_run=args.dry_run)
    print(json.dumps({"changed": change.changed, "dry_run": args.dry_run}, separators=(",", ":")))
    return 0
