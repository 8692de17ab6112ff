"""``memhooks memories list|show|search|forget|import|export`` — review and move the
memories of the project at ``--cwd`` in the embedded store.

* ``list [--scope DIR] [--limit N] [--all] [--format human|json]`` — newest first; when
  ``--limit`` cuts the list, stderr says how many there are;
* ``show ID`` — one memory as JSON;
* ``search TEXT [--limit N] [--format human|json]`` — full-text (BM25) search;
* ``forget ID`` — delete one memory; ``forget --session ID`` — every memory imported
  (``transcripts import``) or captured from one agent session (``source``
  ``transcript:<host>:<id>`` or ``capture:<host>:<id>``; the id or its first 8+ characters);
* ``import FILE|-`` — JSON Lines (a line needs only ``text``); all-or-nothing, Ctrl-C
  included (``interrupted; nothing imported``, exit 130);
* ``export [FILE|-] [--salvage]`` — JSON Lines, oldest first; ``--salvage`` reads a
  damaged store row by row and writes every memory still readable
  (:mod:`memhooks.store.salvage`), the count of unreadable rows on stderr.

A store file of 0 bytes, or one without a schema (what a killed first import leaves),
reads as an empty store and is not written by the readers.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys

from ..backends.embedded import refresh
from ..errors import MissingStoreError, UsageError, fail
from ..maintain.targets import root_hook
from ..store import MemoryStore, default_path
from ..store.connection import CommittedInterrupt
from ..store.jsonl import parse
from ..store.salvage import salvage
from ..terminal import visible
from ..workspace import locate

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..store import Memory
    from ..workspace import Workspace


def _line(memory: Memory, score: float | None = None) -> str:

    first = memory.text.splitlines()[0] if memory.text else ""
    if memory.obsolete:  # only listed with --all: say why recall leaves it out
        first += (
            f"  (superseded by {memory.superseded_by})" if memory.superseded_by else "  (obsolete)"
        )
    meta = " ".join(x for x in (memory.kind or "", memory.created_at) if x)
    prefix = f"{score:10.4g}  " if score is not None else ""
    return visible(f"{prefix}{memory.id}  [{memory.scope or '.'}] {meta}  {first}")


def run(args: argparse.Namespace) -> int:

    where = locate(args.cwd)
    if args.action == "import":
        return _import(args, where)
    if args.action == "export" and args.salvage:
        return _salvage(args, where)
    # Only an import creates the store: reading a mistyped path must not create one.
    with MemoryStore(args.store, create=False) as store:
        store.adopt(where.project, where.aliases)  # memories kept under the project's older ids
        if args.action == "list":
            limit = None if args.limit == 0 else args.limit
            found = store.list(
                where.project,
                scope=args.scope,
                limit=None if limit is None else limit + 1,
                include_obsolete=args.all,
            )
            listed = found[:limit]
            _print(listed, args.format)
            if len(found) > len(listed):
                total = store.count(where.project, scope=args.scope, include_obsolete=args.all)
                print(
                    f"memhooks: showing the newest {len(listed)} of {total} memories;"
                    " --limit 0 lists them all",
                    file=sys.stderr,
                )
        elif args.action == "search":
            hits = store.search(
                where.project, args.text, limit=args.limit, include_obsolete=args.all
            )
            if args.format == "json":
                print(
                    json.dumps(
                        [{**m.to_json(), "score": s} for m, s in hits], ensure_ascii=False, indent=2
                    )
                )
            else:
                for memory, score in hits:
                    print(_line(memory, score))
        elif args.action == "show":
            shown = store.get(args.id, project=where.project)
            if shown is None:
                raise _no_memory(args.id, where)
            print(json.dumps(shown.to_json(), ensure_ascii=False, indent=2))
        elif args.action == "forget":
            _forget(store, where, args.id, args.session)
        elif args.action == "export":
            if args.file in (None, "-"):
                store.export_jsonl(where.project, sys.stdout)
            else:
                with open(args.file, "w", encoding="utf-8") as fp:
                    count = store.export_jsonl(where.project, fp)
                print(f"Exported {count} memories to {args.file}", file=sys.stderr)
    if args.action == "forget":
        refresh(store.path)  # the hooks' cached searches, ready for the next recall
    return 0


def _no_memory(memory: str, where: Workspace) -> UsageError:
    """MH044 at the id ``memory`` that names no memory of the project (it printed an
    uncoded ``error:``, exit 1: newcomer10)."""
    return UsageError(
        f"no memory {memory!r} in project {where.project}",
        argument=memory,
        help="`memhooks memories list` (or `memories search TEXT`) gives the ids",
    )


def _forget(store: MemoryStore, where: Workspace, memory: str | None, session: str | None) -> None:
    if (memory is None) == (session is None):
        raise UsageError("give a memory id or --session ID (one of them)", argument="--session")
    if memory is not None:
        if not store.forget(memory, project=where.project):
            raise _no_memory(memory, where)
        print(f"Forgot {memory}")
        return
    assert session is not None
    if len(session.strip()) < 8:
        raise UsageError(
            "give the session id, or at least its first 8 characters", argument="--session"
        )
    found = [
        m
        for m in store.list(where.project, limit=None, include_obsolete=True)
        if m.source.startswith(("transcript:", "capture:"))
        and m.source.split(":", 2)[-1].startswith(session.strip())
    ]
    sessions = {m.source for m in found}
    if not found:
        raise UsageError(
            f"no memory of session {session!r} in project {where.project}",
            argument=session,
            help="`memhooks memories list --format json` gives each memory's source, with the"
            " session's id in it (transcript:HOST:ID, capture:HOST:ID)",
        )
    if len(sessions) > 1 and not any(s.endswith(":" + session.strip()) for s in sessions):
        names = ", ".join(sorted(sessions)[:5])
        raise UsageError(
            f"{session!r} names {len(sessions)} sessions ({names}); give more of the id",
            argument=session,
        )
    for m in found:
        store.forget(m.id, project=where.project)
    print(
        f"Forgot {len(found)} memor{'y' if len(found) == 1 else 'ies'} of session {session.strip()}"
    )


def _salvage(args: argparse.Namespace, where: Workspace) -> int:

    path = default_path() if args.store is None else os.path.abspath(args.store)
    if not os.path.isfile(path):
        raise MissingStoreError(f"there is no memory store at {path}; nothing to salvage")
    out = io.StringIO()  # a store that cannot be read at all leaves no half-written file
    got = salvage(path, {where.project, *where.aliases}, out)
    if args.file in (None, "-"):
        sys.stdout.write(out.getvalue())
        target = "standard output"
    else:
        with open(args.file, "w", encoding="utf-8") as fp:
            fp.write(out.getvalue())
        target = args.file
    lost = (
        "every row was readable"
        if not got.unreadable
        else f"{got.unreadable} rows could not be read (of any project; an older export "
        "may still have them)"
    )
    print(
        f"Salvaged {got.written} memories of project {where.project} to {target}; {lost}",
        file=sys.stderr,
    )
    return 0


def _import(args: argparse.Namespace, where: Workspace) -> int:

    root_hook(where.root)  # the enablement rule of every write (see commands.remember)
    try:
        # Every line is checked before the store is opened: a bad file creates nothing.
        if args.file == "-":
            lines, name = sys.stdin.buffer.readlines(), "<stdin>"
        else:
            lines, name = _read(args.file), args.file
        parse(lines, name)
        with MemoryStore(args.store) as store:
            store.adopt(where.project, where.aliases)
            counts = store.import_jsonl(where.project, lines, default_scope=where.scope)
    except CommittedInterrupt:
        raise KeyboardInterrupt("the import was complete") from None
    except KeyboardInterrupt:
        # One transaction: an interrupted import rolled back (opening the store migrates
        # in a transaction too).
        raise KeyboardInterrupt("nothing imported") from None
    print(
        f"Imported {counts['added']} new and {counts['updated']} updated memories"
        + (f" ({counts['unchanged']} already as given)" if counts["unchanged"] else "")
        + f" into {store.path}"
        f" (project id {where.project})"
    )
    refresh(store.path)  # the hooks' cached searches, ready for the next recall
    return 0


#: What to do about a memory file that is not there or cannot be read (MH024).
_NAME_FILE = (
    "name a JSON Lines file of memories (`memhooks memories export` writes one), or - for stdin"
)


def _read(path: str) -> list[bytes]:
    """The lines of the file at ``path``, as bytes (exact line numbers for encoding
    errors). Raises DiagnosticError MH024 at ``path`` when there is no file there or it
    cannot be read (a folder, no permission): ``No such file or directory`` had no code."""
    try:
        with open(path, "rb") as binary:
            return binary.readlines()
    except FileNotFoundError:
        message = "the memory file does not exist"
    except IsADirectoryError:
        message = "the memory file is a folder, not a file"
    except OSError as exc:
        message = f"the memory file cannot be read: {exc.strerror or exc}"
    raise fail("MH024", message, path, help=_NAME_FILE)


def _print(found: list[Memory], fmt: str) -> None:
    if fmt == "json":
        print(json.dumps([m.to_json() for m in found], ensure_ascii=False, indent=2))
    else:
        for memory in found:
            print(_line(memory))
