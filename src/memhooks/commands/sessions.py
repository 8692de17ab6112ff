"""``memhooks sessions [list] [--cwd DIR] [--limit N]`` and ``memhooks sessions show ID
[--agent NAME]``, ``--format human|json``: what the hook delivered to agents, per session
— when, through which host event, for which folder or file, which memories (id, first
words), recalled by which query, and how many characters (:mod:`memhooks.session.report`).

Memory text is untrusted: control characters are shown as escapes.
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
import time

from ..errors import UsageError
from ..protocol.root import resolve_target
from ..session import state_path
from ..session.report import deliveries, find, open_existing, sessions
from ..session.state import unusable
from ..store.failures import unwritable
from ..terminal import visible
from .arguments import positive

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``memhooks sessions`` (``p``: its parser)."""

    acts = p.add_subparsers(dest="action", metavar="ACTION")
    listing = acts.add_parser("list", help="sessions, most recently active first (the default)")
    show = acts.add_parser("show", help="every delivery of one session")
    show.add_argument("id", help="the session id, or its first characters")
    show.add_argument("--agent", metavar="NAME", help="only sessions of this host")
    for q in (p, listing, show):
        q.add_argument("--format", choices=("human", "json"), default=argparse.SUPPRESS)
    for q in (p, listing):
        q.add_argument(
            "--cwd",
            metavar="DIR",
            default=argparse.SUPPRESS,
            help="only sessions of the project of DIR",
        )
        q.add_argument(
            "--limit",
            type=positive,
            metavar="N",
            default=argparse.SUPPRESS,
            help="at most N sessions (default: 50)",
        )


def _check_folder(path: str) -> None:
    """Raise StoreError (:func:`memhooks.session.state.unusable`) when the state file's
    folder cannot hold it (a file on its way, no permission, a read-only folder or file
    system): "none yet" would hide why the hook keeps no sessions. When a state file is
    there to read all the same, say on stderr that no new session can be recorded."""

    folder = os.path.dirname(path)
    try:
        found = os.stat(folder)
    except FileNotFoundError:
        return  # nothing recorded yet
    except OSError as exc:
        raise unusable(path, exc.strerror or str(exc)) from None
    if not stat.S_ISDIR(found.st_mode):
        raise unusable(path, "not a folder")
    why = unwritable(path)
    if why is None:
        return
    if not os.path.isfile(path):
        raise unusable(path, why[0])
    print(
        f"memhooks sessions: the hook cannot record sessions: {why[0]}; {why[1]}",
        file=sys.stderr,
    )


def run(args: argparse.Namespace) -> int:

    fmt = getattr(args, "format", "human")
    path = state_path()
    _check_folder(path)
    state = open_existing(path)
    if state is not None and state.replaced:  # damaged or of another layout: moved aside
        print(f"memhooks sessions: {state.replaced}", file=sys.stderr)
    if getattr(args, "action", None) == "show":
        if not args.id.strip():  # a blank id would name every session by its first characters
            raise UsageError(
                "give a session id, or its first characters",
                argument="ID",
                help="`memhooks sessions` lists the sessions",
            )
        found = [] if state is None else _find(state, args.id, args.agent)
        if not found:
            raise UsageError(
                f"no session {args.id!r} in {path}",
                argument=args.id,
                help="`memhooks sessions` lists the sessions; give one's id, or its first characters",
            )
        if len(found) > 1:
            names = ", ".join(f"{s['host']} {s['session']}" for s in found[:5])
            names += ", …" if len(found) > 5 else ""
            raise UsageError(
                f"{args.id!r} names {len(found)} sessions ({names})",
                argument=args.id,
                help="give more of the id, or --agent",
            )
        return _show(state, found[0], fmt)
    root = _root(getattr(args, "cwd", None))
    rows = [] if state is None else _list(state, root, getattr(args, "limit", 50))
    if fmt == "json":
        print(json.dumps({"state": path, "sessions": rows}, indent=2, ensure_ascii=False))
        return 0
    if not rows:
        print(f"memhooks sessions: none yet (state file: {path})")
        return 0

    print(f"memhooks sessions: {len(rows)} (state file: {path})")
    for s in rows:
        status = s["status"]
        print(visible(
            f"{s['host']:14} {s['session'][:36]:36}  {_when(s['updated'])}  {status:5}"
            f"  {s['deliveries']} deliveries, {s['chars']:,} characters  {s['root']}"
        ))  # fmt: skip
    return 0


def _find(state: Any, ident: str, host: str | None) -> list[dict[str, Any]]:

    return find(state, ident, host)


def _list(state: Any, root: str | None, limit: int) -> list[dict[str, Any]]:

    return sessions(state, root=root, limit=limit)


def _root(cwd: str | None) -> str | None:
    if cwd is None:
        return None

    return resolve_target(cwd).root


def _show(state: Any, session: dict[str, Any], fmt: str) -> int:

    rows = deliveries(state, session["key"])
    if fmt == "json":
        print(json.dumps({"session": session, "deliveries": rows}, indent=2, ensure_ascii=False))
        return 0
    print(visible(
        f"session {session['session']} of {session['host']} in {session['root']}:"
        f" started {_when(session['started'])}, {session['epoch']} compaction(s), "
        + _standing(session)
    ))  # fmt: skip
    if not rows:
        print("nothing delivered yet")
    for d in rows:
        print(
            visible(
                f"{_when(d['at'])}  {d['event']}  for {d['target'] or '.'}  {d['chars']:,} characters"
            )
        )
        listed = {str(item["item"]) for item in d["items"]}
        for item in d["items"]:
            if item.get("of") in listed:
                continue  # the commit of a history memory listed beside it
            cue = f"  (recalled by: {item['cue']})" if item.get("cue") else ""
            print(visible(f"    {item['item']}  {item['words']}{cue}"))
    sys.stdout.flush()
    return 0


def _standing(session: dict[str, Any]) -> str:
    """How the session stands: ended, idle or open, and when it is forgotten."""
    forgotten = f"forgotten after {_when(session['expires'])}"
    if session["status"] == "ended":
        return f"ended {_when(session['ended'])} ({forgotten})"
    if session["status"] == "idle":
        return (
            f"idle: no hook call since {_when(session['updated'])}"
            f" (open again if it resumes; {forgotten})"
        )
    return f"open, last hook call {_when(session['updated'])}"


def _when(seconds: object) -> str:
    if not isinstance(seconds, (int, float)):
        return "-"
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(seconds))
