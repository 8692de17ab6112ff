"""``memhooks remember TEXT [--cwd PATH] [--kind K] [--tag T]... [--entity E]... [--file F]...
[--replaces ID] [--backend NAME] [--store FILE]``: record one memory, scoped to the folder
of ``--cwd`` (default: the current folder), in the active backend — the embedded store
unless the user configured another (``memhooks backends list``) — so the same scenario
runs on every backend. A backend that does not support writes is an error, never a silent
fallback to another store. Prints the new memory's id.

In the embedded store the same text said again in the same folder is the same memory
(its id is printed, with what the new flags added to it), and ``--replaces ID`` marks an
older memory superseded by this one: it stays in the store, out of recall
(:meth:`memhooks.store.MemoryStore.remember`). Other backends have no such mark:
``--replaces`` is refused there.

Like ``note``, it writes only in an enabled project (its root ``MEMHOOKS.md`` exists, is a
regular file and validates; :func:`memhooks.maintain.targets.root_hook`): otherwise the
not-enabled diagnostic (MH013 as an error), exit 1."""

from __future__ import annotations

import argparse

from ..backends import DEFAULT
from ..backends.capabilities import Remembers
from ..backends.embedded import refresh
from ..backends.registry import open_backend, selected
from ..errors import BackendError, UsageError
from ..maintain.targets import root_hook
from ..store import MemoryStore
from ..store.memory import Draft
from ..workspace import locate


def run(args: argparse.Namespace) -> int:

    where = locate(args.cwd)
    # One enablement rule for every write (memhooks.maintain.targets): a project whose
    # root hook is missing, unsafe or invalid gets no memories, as it gets no notes.
    root_hook(where.root)
    files = [where.relative(f) for f in args.file]
    outside = [f for f in files if f == ".." or f.startswith(("/", "../"))]
    if outside:
        raise UsageError(
            f"--file must name paths inside the project root {where.root}: {outside[0]}",
            argument="--file",
        )
    draft = Draft(args.text, project=where.project, scope=where.scope, files=files,
                  kind=args.kind, tags=args.tag, entities=args.entity, source="cli")  # fmt: skip
    name = written(args.backend, args.store)
    if name != DEFAULT:
        if args.replaces:
            raise UsageError(
                f"--replaces needs the embedded store; the backend is {name}", argument="--replaces"
            )
        return _remember_in(name, draft)

    with MemoryStore(args.store) as store:
        store.adopt(where.project, where.aliases)  # memories kept under the project's older ids
        if args.replaces and store.get(args.replaces, project=where.project) is None:
            # MH044 at the argument (it printed an uncoded `error:`); the write checks again
            raise UsageError(
                f"--replaces {args.replaces!r}: no memory of project {where.project} has that id;"
                " nothing was remembered",
                argument=args.replaces,
                help="`memhooks memories list` (or `memories search TEXT`) gives the ids",
            )
        memory, added = store.remember(draft, replaces=args.replaces)
    refresh(store.path)
    said = "Remembered" if added else "Already remembered as"
    line = f"{said} {memory.id} in project {memory.project} (scope {memory.scope or '.'})"
    if args.replaces:
        line += f"; it replaces {args.replaces}, which recall now leaves out"
    print(line)
    return 0


def written(backend: str | None, store: str | None) -> str:
    """The name of the backend a write goes to (``remember``, ``history import``):
    ``backend`` (``--backend``), else the configured one
    (:func:`memhooks.backends.registry.selected`). Raises UsageError at ``--store`` when
    ``store`` names an embedded store file and the backend is another (never a silent
    write elsewhere), BackendError for a backend memhooks does not know."""
    name = selected(backend)
    if name != DEFAULT and store:
        raise UsageError(
            f"--store names an embedded store file, but the backend is {name}", argument="--store"
        )
    return name


def _remember_in(name: str, draft: Draft) -> int:

    backend = open_backend(name)
    try:
        if not isinstance(backend, Remembers):
            raise BackendError(f"backend {name} does not support writes (as configured)")
        written = backend.remember(draft)
    finally:
        backend.close()
    print(f"Remembered {written} in {name} (scope {draft.scope or '.'})")
    return 0
