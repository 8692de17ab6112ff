"""``memhooks prune [PATH] [--all] [--dry-run] [--format human|json]``: drop stale
generated-cue file resources.

``--format json`` prints the reference engine's compact line
``{"hooks_changed":N,"resources_removed":N,"queries_removed":N,"dry_run":bool}`` byte for
byte (spec reference-engine.md (a) ``prune``); the default prints one sentence.
"""

from __future__ import annotations

import argparse
import json

from ..maintain.prune import prune


def run(args: argparse.Namespace) -> int:

    summary = prune(args.path, all_hooks=args.all, dry_run=args.dry_run)
    if args.format == "json":
        print(json.dumps(summary, separators=(",", ":")))
    else:
        print(sentence(summary))
    return 0


def sentence(summary: dict[str, int | bool]) -> str:
    """The human line for a :func:`memhooks.maintain.prune.prune` summary."""
    hooks, resources, queries = (
        int(summary[k]) for k in ("hooks_changed", "resources_removed", "queries_removed")
    )
    if not hooks:
        return "Nothing to prune: every file the generated cues name still exists"
    what = f"{_count(resources, 'file resource')} and {_count(queries, 'emptied generated cue')}"
    if summary["dry_run"]:
        return f"Would remove {what} in {_count(hooks, 'hook')} (dry run: nothing written)"
    return f"Removed {what} in {_count(hooks, 'hook')}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
