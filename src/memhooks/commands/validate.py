"""``memhooks validate [PATH] [--all] [--strict] [--format human|json|sarif]``.

Exit status 1 when any diagnostic is an error, else 0. ``--strict`` turns "no hooks
found" (MH013) into an error so CI cannot pass vacuously.
"""

from __future__ import annotations

import argparse

from .. import report
from ..protocol.lint import collect


def run(args: argparse.Namespace) -> int:
    diagnostics, base = collect(args.path, all_hooks=args.all, strict=args.strict)
    if args.format == "json":
        print(report.json_text([d.to_json() for d in diagnostics]))
    elif args.format == "sarif":
        print(report.sarif(diagnostics, base))
    else:
        print(report.human(diagnostics))
    return 1 if any(d.is_error for d in diagnostics) else 0
