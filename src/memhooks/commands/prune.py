"""``memhooks prune [PATH] [--all] [--dry-run]``: drop stale generated-cue file resources.

stdout ``{"hooks_changed":N,"resources_removed":N,"queries_removed":N,"dry_run":bool}``.
"""

from __future__ import annotations

import argparse
import json


def run(args: argparse.Namespace) -> int:
    from ..maintain.prune import prune

    summary = prune(args.path, all_hooks=args.all, dry_run=args.dry_run)
    print(json.dumps(summary, separators=(",", ":")))
    return 0
