"""``memhooks migrate [PATH] [--all] [--dry-run] [--format human|json]``: convert
``memhooks/v1`` hooks to ``memhooks/v2`` in place (:mod:`memhooks.maintain.migrate`).

Human output (stdout): with ``--dry-run`` a unified diff per file first; then one line
per hook (``migrated``/``would migrate``/``already v2``, with what changed, and legacy
blocks kept as guidance) and a summary line. ``--format json``: one object
``{"hooks_migrated", "already_v2", "failed", "dry_run", "files": [...]}`` (each file with
``path``, ``status``, ``changes``, ``kept``; ``error`` when it failed; ``diff`` in a dry
run). A file that
cannot be migrated is reported on stderr and the others still are; exit 1 if any failed.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
from typing import Any

from ..errors import Diagnostic, DiagnosticError
from ..maintain.migrate import migrate_hook
from ..maintain.targets import hook_set
from ..maintain.touched import directory_rel
from ..report import print_errors
from ..settings import integer
from ..terminal import visible


def run(args: argparse.Namespace) -> int:

    max_paths = integer("MEMHOOKS_AUTO_PATHS")
    root, hooks = hook_set(args.path, all_hooks=args.all)
    files: list[dict[str, Any]] = []
    failures: list[Diagnostic] = []
    for hook in hooks:
        shown = _shown(hook)
        try:
            result = migrate_hook(
                hook,
                directory_rel(root, os.path.dirname(hook)),
                max_paths=max_paths,
                dry_run=args.dry_run,
            )
        except DiagnosticError as exc:
            failures.extend(exc.diagnostics)
            first = exc.diagnostic
            error = f"{first.code}: {first.message}"
            files.append(
                {"path": shown, "status": "failed", "changes": [], "kept": [], "error": error}
            )
            continue
        entry: dict[str, Any] = {
            "path": shown,
            "status": result.status,
            "changes": result.changes,
            "kept": result.kept,
        }
        change = result.change
        if args.dry_run and change is not None and change.new is not None:
            entry["diff"] = "".join(
                difflib.unified_diff(
                    (change.old or "").splitlines(keepends=True),
                    change.new.splitlines(keepends=True),
                    f"a/{shown}",
                    f"b/{shown}",
                )
            )
        files.append(entry)
    if failures:
        print_errors(failures, args.format)
    counts = {s: sum(f["status"] == s for f in files) for s in ("migrated", "already_v2", "failed")}
    if args.format == "json":
        summary = {
            "hooks_migrated": counts["migrated"],
            "already_v2": counts["already_v2"],
            "failed": counts["failed"],
            "dry_run": args.dry_run,
            "files": files,
        }
        print(json.dumps(summary, ensure_ascii=False, indent=2))
    else:
        _print_human(files, counts, args.dry_run)
    return 1 if failures else 0


def _print_human(files: list[dict[str, Any]], counts: dict[str, int], dry_run: bool) -> None:
    for entry in files:
        if entry.get("diff"):
            sys.stdout.write(entry["diff"])

    verb = "would migrate" if dry_run else "migrated"
    for entry in files:
        path = visible(entry["path"])
        if entry["status"] == "migrated":
            print(f"{verb}: {path} ({visible('; '.join(entry['changes']))})")
            for kept in entry["kept"]:
                print(f"  note: {visible(kept)}")
        elif entry["status"] == "already_v2":
            print(f"already memhooks/v2: {path}")
        else:
            print(f"failed: {path} ({visible(entry['error'])})")
    lead = "Would migrate" if dry_run else "Migrated"
    print(
        f"{lead} {counts['migrated']} hook file(s); {counts['already_v2']} already memhooks/v2; "
        f"{counts['failed']} failed."
    )


def _shown(path: str) -> str:
    """``path`` relative to the working directory when below it, else as is."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel
