"""``memhooks history import [PATH] [--rev REV]... [--since DATE] [--max N] [--dry-run]
[--backend NAME] [--store FILE] [--format human|json]``: one memory per non-merge commit
of the project's git history, in the embedded store (:mod:`memhooks.history`). Re-runs
add only commits not imported before. A progress bar goes to stderr when it is a
terminal and the import takes a while; nothing is written into the repository. Like
``remember``, it writes only in an enabled project (``memhooks init`` first); a dry run
reads anywhere."""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import datetime

from ..backends import DEFAULT
from ..backends.embedded import refresh
from ..errors import BackendError
from ..history import import_history, open_checkout
from ..maintain.targets import root_hook
from ..store import MemoryStore
from ..workspace import locate
from .arguments import positive, store_option
from .remember import written

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO

    from ..history import ImportReport


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``memhooks history import`` (``sub``: the CLI's subcommands)."""

    p = sub.add_parser("history", help="import the project's git history as memories")
    acts = p.add_subparsers(dest="action", metavar="ACTION")
    acts.required = True
    a = acts.add_parser(
        "import", help="one memory per non-merge commit; a re-run adds only new commits"
    )
    a.add_argument("path", nargs="?", default=".", help="a folder of the project (default: .)")
    a.add_argument(
        "--rev",
        action="append",
        default=[],
        type=_revision,
        metavar="REV",
        help="revision or range to read, as git log takes it (repeatable; default: HEAD)",
    )
    a.add_argument(
        "--since",
        type=_date,
        metavar="DATE",
        help="only commits committed on or after DATE (YYYY-MM-DD, or an ISO 8601 time)",
    )
    a.add_argument(
        "--max", type=positive, metavar="N", help="only the newest N commits of the range"
    )
    a.add_argument(
        "--dry-run", action="store_true", help="count what would be imported; write nothing"
    )
    a.add_argument(
        "--backend",
        metavar="NAME",
        help="must be embedded, the only backend that takes batch writes (default: the configured one)",
    )
    store_option(a)
    a.add_argument("--format", choices=("human", "json"), default="human")


def run(args: argparse.Namespace) -> int:

    where = locate(args.path)
    if not args.dry_run:
        # One enablement rule for every write (as remember): no memories for a project
        # whose root hook is missing, unsafe or invalid (MH013 / MH029 / its finding).
        root_hook(where.root)
    name = written(args.backend, args.store)
    if name != DEFAULT:
        raise BackendError(
            f"history import writes thousands of memories at once under ids taken from the "
            f"commits, so that a re-run adds nothing twice; the {name} backend takes no such "
            "batch write. Import into the embedded store with --backend embedded (and recall "
            "from it with MEMHOOKS_BACKEND=embedded)"
        )
    repo = open_checkout(where.directory, where.root)
    started = time.monotonic()
    bar = _Bar(sys.stderr) if args.format == "human" and sys.stderr.isatty() else None
    with MemoryStore.for_import(args.store, dry_run=args.dry_run) as store:
        if not args.dry_run:
            store.adopt(where.project, where.aliases)  # the project's memories under older ids
        try:
            report = import_history(
                store,
                where.project,
                repo,
                revisions=args.rev,
                since=args.since,
                max_count=args.max,
                dry_run=args.dry_run,
                progress=bar,
            )
        finally:
            if bar is not None:
                bar.clear()
        path = store.path
    if report.added or report.updated or report.obsoleted:
        refresh(path)  # the next prompt's hook finds its lists ready
    seconds = time.monotonic() - started
    if args.format == "json":
        out = {"project": where.project, "root": where.root, "store": path, **report.to_json()}
        print(json.dumps({**out, "seconds": round(seconds, 3)}, indent=2))
    else:
        print(_summary(report, where.project, where.root, seconds))
    return 0


def _summary(report: ImportReport, project: str, root: str, seconds: float) -> str:
    verb = "Would import" if report.dry_run else "Imported"
    lines = [f"{verb} the git history of {root} into project {project} ({seconds:.1f} s):"]
    parts = [f"{report.added} {'to add' if report.dry_run else 'added'}"]
    if report.updated:
        parts.append(f"{report.updated} {'to update' if report.dry_run else 'updated'}")
    parts.append(f"{report.present} already imported")
    if report.duplicates:
        parts.append(f"{report.duplicates} repeated changes (cherry-picks) skipped")
    if report.empty:
        parts.append(f"{report.empty} with an empty message skipped")
    read = f"  {_n(report.commits, 'commit')} read: " + ", ".join(parts)
    if report.merges:
        read += f"; {_n(report.merges, 'merge commit')} skipped (their changes are their parents')"
    lines.append(read)
    if report.low_signal:
        lines.append(
            f"  {report.low_signal} low-signal (merges, bots, version and dependency bumps, "
            "formatting, one-line chores): searchable, never delivered at tool time"
        )
    if report.obsoleted or (report.unresolved and report.added):
        lines.append(
            f"  reverts: {_n(report.obsoleted, 'earlier memory', 'earlier memories')} marked "
            f"obsolete; {report.unresolved} reverted commits not in the store (merges, or "
            "outside the imported range)"
        )
    if report.boundary:
        lines.append(
            f"  {_n(report.boundary, 'commit')} at the shallow clone's edge imported without "
            "files (git shows them adding the whole tree); fetch more history for them"
        )
    if not report.commits:
        lines.append("  the range holds no commits (an empty branch, or --since/--rev leave none)")
    return "\n".join(lines)


def _n(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else many or one + 's'}"


class _Bar:
    """A one-line progress bar on a terminal, drawn at most 10 times a second and only
    once the import has run half a second (short imports print nothing)."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.started = time.monotonic()
        self.drawn = 0.0
        self.shown = False

    def __call__(self, stage: str, done: int, total: int | None) -> None:
        now = time.monotonic()
        if now - self.started < 0.5 or now - self.drawn < 0.1:
            return
        self.drawn = now
        if total is None:
            line = f"scanning the history: {done} commits"
        else:
            filled = 30 * done // max(total, 1)
            line = f"importing [{'#' * filled}{'.' * (30 - filled)}] {done}/{total} commits"
        self.stream.write(f"\r{line}\x1b[K")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _revision(value: str) -> str:
    if not value.strip() or value.startswith("-"):
        raise argparse.ArgumentTypeError(f"must be a revision or range, not {value!r}")
    return value


def _date(value: str) -> str:
    """An ISO 8601 date or date-time (``Z`` or an offset allowed), passed on to git."""

    text = value.strip()
    try:
        datetime.fromisoformat(text[:-1] + "+00:00" if text[-1:] in "Zz" and text else text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be a date such as 2024-01-31 or 2024-01-31T12:00:00Z, not {value!r}"
        ) from None
    return text
