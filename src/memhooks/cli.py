"""Command-line entry point: an argparse parser and a dispatch table, nothing else.

Each subcommand lives in ``memhooks.commands.<name>`` as ``run(args) -> exit code`` and
is imported only when used. Exit codes: 0 success, 1 failure (diagnostics on stderr),
2 usage errors (bad flags or flag values).
"""

from __future__ import annotations

import argparse
import sys

from . import __version__

FORMATS = ("human", "json")


def _budget(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer, not {value!r}") from None
    if not 1 <= number <= 1_000_000:
        raise argparse.ArgumentTypeError("must be from 1 to 1000000 characters")
    return number


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memhooks",
        description="Directory-scoped memory recall routing for AI coding agents (MEMHOOKS.md, memhooks/v2).",
    )
    parser.add_argument("--version", action="version", version=f"memhooks {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("validate", help="check MEMHOOKS.md files against the memhooks/v2 rules")
    p.add_argument("path", nargs="?", default=".", help="a hook file, or a directory to scan (default: .)")
    p.add_argument("--all", action="store_true", help="scan the whole project root of PATH")
    p.add_argument("--strict", action="store_true", help="fail (exit 1) when no hook is found")
    p.add_argument("--format", choices=("human", "json", "sarif"), default="human")

    p = sub.add_parser("explain", help="resolve the hook chain for folders and print the retrieval plan")
    p.add_argument("paths", nargs="*", metavar="PATH", help="target files or folders (default: .)")
    p.add_argument("--role", action="append", default=[], metavar="ROLE", help="an active role (repeatable)")
    p.add_argument("--file", action="append", default=[], metavar="FILE", help="an active file; its folder joins the plan (repeatable)")
    p.add_argument("--budget", type=_budget, metavar="CHARS", help="print the bounded context as injected, at most CHARS characters")
    p.add_argument("--format", choices=FORMATS, default="human")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit status."""
    args = build_parser().parse_args(argv)
    from .errors import DiagnosticError, MemhooksError, UsageError

    module = __import__(f"memhooks.commands.{args.command}", fromlist=["run"])
    try:
        return int(module.run(args))
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except DiagnosticError as exc:
        from .report import print_errors

        print_errors(exc.diagnostics, getattr(args, "format", "human"))
        return 1
    except MemhooksError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 1
