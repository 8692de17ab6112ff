"""``memhooks memories list|show|search|forget|import|export`` — review and move the
memories of the project at ``--cwd`` in the embedded store.

* ``list [--scope DIR] [--limit N] [--all] [--format text|json]`` — newest first;
* ``show ID`` — one memory as JSON;
* ``search TEXT [--limit N] [--format text|json]`` — full-text (BM25) search;
* ``forget ID`` — delete one memory;
* ``import FILE|-`` — JSON Lines (a line needs only ``text``); all-or-nothing;
* ``export [FILE|-]`` — JSON Lines, oldest first.
"""

from __future__ import annotations

import argparse
import json
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..store import Memory


def _line(memory: Memory, score: float | None = None) -> str:
    from ..terminal import visible

    first = memory.text.splitlines()[0] if memory.text else ""
    meta = " ".join(x for x in (memory.kind or "", memory.created_at) if x)
    prefix = f"{score:10.4g}  " if score is not None else ""
    return visible(f"{prefix}{memory.id}  [{memory.scope or '.'}] {meta}  {first}")


def run(args: argparse.Namespace) -> int:
    from ..errors import StoreError
    from ..store import MemoryStore
    from ..workspace import locate

    where = locate(args.cwd)
    lines: list[bytes] = []
    if args.action == "import":
        # Every line is checked before the store is opened: a bad file creates nothing.
        from ..store.jsonl import parse

        if args.file == "-":
            lines, name = sys.stdin.buffer.readlines(), "<stdin>"
        else:
            with open(args.file, "rb") as binary:
                lines, name = binary.readlines(), args.file
        parse(lines, name)
    # Only an import creates the store: reading a mistyped path must not create one.
    with MemoryStore(args.store, create=args.action == "import") as store:
        if args.action == "list":
            found = store.list(
                where.project,
                scope=args.scope,
                limit=None if args.limit == 0 else args.limit,
                include_obsolete=args.all,
            )
            _print(found, args.format)
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
                raise StoreError(f"no memory {args.id!r} in project {where.project}")
            print(json.dumps(shown.to_json(), ensure_ascii=False, indent=2))
        elif args.action == "forget":
            if not store.forget(args.id, project=where.project):
                raise StoreError(f"no memory {args.id!r} in project {where.project}")
            print(f"Forgot {args.id}")
        elif args.action == "import":
            counts = store.import_jsonl(where.project, lines, default_scope=where.scope)
            print(
                f"Imported {counts['added']} new and {counts['updated']} updated memories into {store.path}"
                f" (project id {where.project})"
            )
        elif args.action == "export":
            if args.file in (None, "-"):
                store.export_jsonl(where.project, sys.stdout)
            else:
                with open(args.file, "w", encoding="utf-8") as fp:
                    count = store.export_jsonl(where.project, fp)
                print(f"Exported {count} memories to {args.file}", file=sys.stderr)
    if args.action in ("forget", "import"):
        from ..backends.embedded import refresh

        refresh(store.path)  # the hooks' cached searches, ready for the next recall
    return 0


def _print(found: list[Memory], fmt: str) -> None:
    if fmt == "json":
        print(json.dumps([m.to_json() for m in found], ensure_ascii=False, indent=2))
    else:
        for memory in found:
            print(_line(memory))
