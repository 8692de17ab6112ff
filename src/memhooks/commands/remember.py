"""``memhooks remember TEXT [--cwd PATH] [--kind K] [--tag T]... [--entity E]... [--file F]...
[--store FILE]``: record one memory in the embedded store, scoped to the folder of
``--cwd`` (default: the current folder). Prints the new memory's id."""

from __future__ import annotations

import argparse


def run(args: argparse.Namespace) -> int:
    from ..errors import UsageError
    from ..store import MemoryStore
    from ..workspace import locate

    where = locate(args.cwd)
    files = [where.relative(f) for f in args.file]
    outside = [f for f in files if f == ".." or f.startswith(("/", "../"))]
    if outside:
        raise UsageError(
            f"--file must name paths inside the project root {where.root}: {outside[0]}"
        )
    with MemoryStore(args.store) as store:
        memory = store.add(
            where.project,
            args.text,
            scope=where.scope,
            files=files,
            kind=args.kind,
            tags=args.tag,
            entities=args.entity,
            source="cli",
        )
    print(f"Remembered {memory.id} (scope {memory.scope or '.'})")
    return 0
