"""``memhooks validate [PATH] [--all] [--strict] [--format human|json|sarif]``.

Exit status 1 when any diagnostic is an error, else 0. ``--strict`` turns "no hooks
found" (MH013) into an error so CI cannot pass vacuously.
"""

from __future__ import annotations

import argparse
import os
import stat

from .. import report
from ..errors import Diagnostic, DiagnosticError
from ..protocol.hookfile import HOOK_NAME, UNSAFE


def collect(path: str, *, all_hooks: bool, strict: bool = False) -> tuple[list[Diagnostic], str]:
    """(diagnostics, validation root) for the validate command's target rules."""
    from ..protocol.discover import find_hooks
    from ..protocol.hookfile import load
    from ..protocol.root import REASON_GIT, canonical, find_root

    try:
        if os.path.basename(os.path.normpath(path)) == HOOK_NAME:
            st = os.lstat(path) if os.path.lexists(path) else None
            if st is not None and not stat.S_ISREG(st.st_mode):
                return [Diagnostic("MH029", UNSAFE, path, 1, 1)], os.path.dirname(os.path.abspath(path))
        real = canonical(path)
        directory = real if os.path.isdir(real) else os.path.dirname(real)
        if all_hooks or os.path.isdir(real):
            root, reason = find_root(directory)
            base = root if all_hooks else directory
            hooks = find_hooks(base, use_git=reason == REASON_GIT)
        else:
            base, hooks = directory, [real]
    except DiagnosticError as exc:
        return exc.diagnostics, os.path.dirname(os.path.abspath(path))
    if not hooks:
        severity = "error" if strict else "warning"
        return [Diagnostic("MH013", f"no {HOOK_NAME} files found", path, severity=severity)], base
    diagnostics: list[Diagnostic] = []
    for hook in hooks:
        diagnostics.extend(load(hook).diagnostics)
    diagnostics.sort(key=Diagnostic.sort_key)
    return diagnostics, base


def run(args: argparse.Namespace) -> int:
    diagnostics, base = collect(args.path, all_hooks=args.all, strict=args.strict)
    if args.format == "json":
        print(report.json_text([d.to_json() for d in diagnostics]))
    elif args.format == "sarif":
        print(report.sarif(diagnostics, base))
    else:
        print(report.human(diagnostics))
    return 1 if any(d.is_error for d in diagnostics) else 0
