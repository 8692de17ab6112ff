"""``memhooks transcripts import|superseded|confirm|undo``: the agents' past sessions as memories.

* ``import [PATH] [--agent NAME]... [--chat FILE]... [--dry-run]`` — the sessions Claude
  Code, Codex, Gemini CLI and Copilot CLI kept for the project of PATH (and plain chat
  files named with ``--chat``), cut into anchored pieces (:mod:`memhooks.transcripts`);
  a re-run adds only what is new. Like ``history import``, it writes only in an enabled
  project (``memhooks init`` first); a dry run reads anywhere.
* ``superseded`` — the pieces a later piece superseded, with what superseded them;
* ``confirm ID`` — keep that supersession (it is marked confirmed);
* ``undo ID`` — the piece is live again and never superseded automatically again.

Named ``transcripts``, not ``sessions``: ``memhooks sessions`` is what the hook delivered
to running sessions; this reads what the hosts themselves kept of them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from ..backends.embedded import refresh
from ..errors import UsageError
from ..maintain.targets import root_hook
from ..store import Memory, MemoryStore
from ..store.location import default_path
from ..terminal import visible
from ..transcripts import READERS, ImportReport, chat, import_transcripts
from ..transcripts.render import KIND
from ..transcripts.supersede import CONFIRMED, KEPT
from ..workspace import Workspace, locate
from .arguments import nonblank as _nonblank
from .arguments import store_option as _store_option


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``memhooks transcripts`` (``sub``: the CLI's subcommands)."""
    p = sub.add_parser("transcripts", help="import the agents' past sessions as memories")
    acts = p.add_subparsers(dest="action", metavar="ACTION")
    acts.required = True
    a = acts.add_parser(
        "import",
        help="the project's sessions the hosts kept, as anchored pieces; a re-run adds only what is new",
    )
    a.add_argument("path", nargs="?", default=".", help="a folder of the project (default: .)")
    a.add_argument(
        "--agent",
        action="append",
        choices=sorted(READERS),
        metavar="NAME",
        help=f"only this host's sessions (repeatable; default: all of {', '.join(sorted(READERS))})",
    )
    a.add_argument(
        "--chat",
        action="append",
        default=[],
        type=_nonblank,
        metavar="FILE",
        help="a plain chat JSONL file (role, text, optional time, files, session) to import too",
    )
    a.add_argument(
        "--dry-run", action="store_true", help="count what would be imported; write nothing"
    )
    _store_option(a)
    a.add_argument("--format", choices=("human", "json"), default="human")
    s = acts.add_parser("superseded", help="pieces a later piece superseded, and by which")
    s.add_argument("--cwd", default=".", help="a folder of the project (default: .)")
    _store_option(s)
    s.add_argument("--format", choices=("human", "json"), default="human")
    for name, says in (
        ("confirm", "keep a supersession: the piece stays superseded"),
        ("undo", "undo a supersession: the piece is live again, and stays so"),
    ):
        c = acts.add_parser(name, help=says)
        c.add_argument(
            "id", help="the superseded piece's id (`memhooks transcripts superseded` lists them)"
        )
        c.add_argument("--cwd", default=".", help="a folder of the project (default: .)")
        _store_option(c)


def run(args: argparse.Namespace) -> int:
    if args.action == "import":
        return _import(args)
    where = locate(args.cwd)
    with MemoryStore(args.store, create=False) as store:
        store.adopt(where.project, where.aliases)
        if args.action == "superseded":
            return _superseded(store, where, args.format)
        return _decide(store, where, args.id, args.action)


def _import(args: argparse.Namespace) -> int:
    """``transcripts import``: a missing store is made by the first piece written (a
    first run in the wrong folder must not leave an empty store)."""
    where = locate(args.path)
    dry_run = args.dry_run
    if not dry_run:
        root_hook(where.root)  # one enablement rule for every write (as history import)
    with MemoryStore.for_import(args.store, dry_run=dry_run, lazy=True) as store:
        if not dry_run:
            store.adopt(where.project, where.aliases)
        report = import_transcripts(
            store, where, env=os.environ, hosts=args.agent, chats=args.chat, dry_run=dry_run
        )
        path = store.path if store.path != ":memory:" else args.store or default_path()
    if not (report.sessions or report.unchanged_files):
        return _nothing(args, where, report, path)
    if not dry_run and (report.added or report.updated):
        refresh(path)  # the next prompt's hook finds its lists ready
    if args.format == "json":
        out = {"project": where.project, "root": where.root, "store": path, **report.to_json()}
        print(json.dumps(out, indent=2))
    else:
        print(_summary(report, where))
    return 0


def _nothing(args: argparse.Namespace, where: Workspace, report: ImportReport, path: str) -> int:
    """Say that nothing was found: in each chat file named (``--chat``), and where each
    host's sessions were looked for."""
    looked = {name: READERS[name].folder(os.environ) for name in args.agent or sorted(READERS)}
    chats = {name: _chat_said(name) for name in args.chat or ()}
    if args.format == "json":
        out = {"project": where.project, "root": where.root, "store": path, **report.to_json()}
        print(json.dumps({**out, "looked_in": looked, "chats": chats}, indent=2))
        return 0
    lines = [f"Nothing to import for {where.root}: no session of this project found in"]
    if chats:
        lines = [f"Nothing to import for {where.root}:"]
        lines += [f"  {name}: {said}" for name, said in chats.items()]
        lines.append("and no session of this project found in")
    width = max(map(len, looked), default=0)
    lines += [f"  {name:<{width}}  {folder}" for name, folder in looked.items()]
    if report.elsewhere:
        lines.append(f"  ({report.elsewhere} session(s) there ran in other projects)")
    if report.unchanged_files:
        lines.append(f"  ({report.unchanged_files} file(s) unchanged since the last import)")
    lines.append(
        "Sessions belong to a project by the folder they ran in"
        + ("." if chats else "; name another tool's chat with --chat FILE (JSON Lines).")
    )
    print("\n".join(lines))
    return 0


def _chat_said(name: str) -> str:
    """Why a chat file named with ``--chat`` gave nothing to import (the import read it
    already: a file that cannot be read is :func:`memhooks.transcripts.chat.read_all`'s
    error, MH024/MH034, before anything is said here)."""
    if chat.blank(name):
        return "the file is empty: no chat lines in it"
    return "nothing in it to keep (no user or assistant text worth a memory)"


def _summary(report: ImportReport, where: Workspace) -> str:
    verb = "Would import" if report.dry_run else "Imported"
    hosts = ", ".join(f"{n} {h}" for h, n in sorted(report.by_host.items())) or "none new"
    lines = [f"{verb} the agents' sessions of {where.root} into project {where.project}:"]
    lines.append(
        f"  sessions read: {report.sessions} ({hosts}); {report.unchanged_files} unchanged since the last import"
    )
    lines.append(
        f"  pieces: {report.added} {'to add' if report.dry_run else 'added'}, "
        f"{report.updated} {'to update' if report.dry_run else 'updated'}, {report.unchanged} already imported"
        + (f", {report.forgotten} forgotten earlier (not added again)" if report.forgotten else "")
    )
    if report.superseded:
        lines.append(
            f"  {report.superseded} piece(s) superseded by a later one on the same files and topic;"
            " `memhooks transcripts superseded` lists them"
        )
    if report.elsewhere:
        lines.append(f"  {report.elsewhere} session(s) of other projects left alone")
    if report.hollow:
        lines.append(
            f"  {report.hollow} piece(s) left out: nothing said in them but filler around an edit or a read"
        )
    if report.damaged:
        lines.append(
            f"  {report.damaged} damaged line(s) skipped (a session cut short, or another version's format)"
        )
    return "\n".join(lines)


def _superseded(store: MemoryStore, where: Workspace, fmt: str) -> int:
    pieces = [
        m
        for m in store.list(where.project, limit=None, include_obsolete=True)
        if _superseded_piece(m)
    ]
    if fmt == "json":
        rows = [{"id": m.id, "superseded_by": m.superseded_by, "confirmed": CONFIRMED in m.tags,
                 "created_at": m.created_at, "source": m.source} for m in pieces]  # fmt: skip
        print(json.dumps(rows, indent=2))
        return 0
    if not pieces:
        print("No conversation piece is superseded.")

    for m in pieces:
        state = "confirmed" if CONFIRMED in m.tags else "automatic"
        first = m.text.split("\nWhere it ended:\n", 1)[-1].splitlines()[0] if m.text else ""
        print(
            visible(
                f"{m.id}  superseded by {m.superseded_by} ({state})  {m.created_at}  {first[:80]}"
            )
        )
    return 0


def _superseded_piece(memory: Memory) -> bool:
    return memory.kind == KIND and memory.obsolete and memory.superseded_by is not None


def _decide(store: MemoryStore, where: Workspace, ident: str, action: str) -> int:
    memory = store.get(ident, project=where.project)
    if memory is None or memory.kind != KIND:
        raise UsageError(
            f"no conversation piece {ident!r} in project {where.project}",
            argument=ident,
            help="`memhooks transcripts superseded` lists the pieces to confirm or undo",
        )
    if not _superseded_piece(memory):
        raise UsageError(
            f"{ident} is not superseded; `memhooks transcripts superseded` lists those that are",
            argument=ident,
        )
    tags = [t for t in memory.tags if t not in (CONFIRMED, KEPT)]
    if action == "confirm":
        line: dict[str, object] = {"id": ident, "text": memory.text, "tags": [*tags, CONFIRMED]}
        said = f"Confirmed: {ident} stays superseded by {memory.superseded_by}"
    else:
        line = {"id": ident, "text": memory.text, "tags": [*tags, KEPT], "obsolete": False}
        line["superseded_by"] = None
        said = f"Undone: {ident} is live again and will not be superseded automatically"
    store.import_jsonl(where.project, [json.dumps(line)])

    refresh(store.path)
    print(said)
    sys.stdout.flush()
    return 0
