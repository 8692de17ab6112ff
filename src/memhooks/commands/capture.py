"""``memhooks capture on|off|status [--project|--user] [--cwd DIR]`` and
``memhooks capture process [--store FILE]``.

* ``on`` / ``off``: opt the project at ``--cwd`` (default) or every project of the user
  (``--user``) in or out of capture; the switch lives in the user's configuration
  directory, never in the project (:mod:`memhooks.capture.settings`);
* ``status``: whether capture is on for the project and why (project entry, user
  entry, default off), plus what the store holds from capture and the sessions' capture
  records waiting in the state file — read only, a missing store is not created;
* ``process``: the explicit, heavier part of capture (idle sessions, duplicate sweep,
  pruning; :mod:`memhooks.capture.upkeep`).
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
from urllib.parse import quote

from ..capture import config_path, marks, settings
from ..capture.upkeep import process
from ..install import capture_events
from ..session import capture_record
from ..session.location import state_path
from ..store import default_path
from ..store.connection import connect
from ..workspace import locate


def run(args: argparse.Namespace) -> int:
    if args.action == "process":
        counts = process(args.store)
        if args.format == "json":
            print(json.dumps(counts, indent=2))
        else:
            print(
                f"Recorded {counts['sessions']} idle sessions ({counts['memories']} memories), "
                f"superseded {counts['superseded']} duplicates, pruned {counts['pruned_marks']} marks, "
                f"{counts['pruned_sessions']} sessions and {counts['pruned_failures']} failures"
            )
        return 0

    workspace = locate(args.cwd)
    project = workspace.project
    if args.action in ("on", "off"):
        level = args.level or settings.PROJECT
        path = settings.switch(args.action == "on", level, project)
        whom = "every project of this user" if level == settings.USER else f"project {project}"
        print(f"Capture {args.action} for {whom} ({path})")
        on, why = settings.effective(settings.load(path, strict=True), project, workspace.aliases)
        if level == settings.USER and why == settings.PROJECT:
            print(f"note: this project's own setting keeps capture {'on' if on else 'off'} here")
        if on:
            line = capture_events.hint(capture_events.unwired(workspace.root))
            if line:
                print(line)
        return 0
    return _status(args, project, workspace.aliases)


def _status(args: argparse.Namespace, project: str, aliases: tuple[str, ...] = ()) -> int:

    path = config_path()
    config = settings.load(path, strict=True)
    on, why = settings.effective(config, project, aliases)
    report = {
        "project": project,
        "capture": "on" if on else "off",
        "decided_by": why,
        "user": config["user"],
        "settings": path,
        **_stored(args.store, project),
    }
    if args.format == "json":
        print(json.dumps(report, indent=2))
        return 0
    reason = {
        settings.PROJECT: "this project's setting",
        settings.USER: "the user-wide setting",
        settings.DEFAULT: "default: off until turned on",
    }[why]
    print(f"capture: {report['capture']} for {project} ({reason})")
    print(f"settings: {path}")
    if "captured" in report:
        print(
            f"captured memories: {report['captured']}; open sessions: {report['open_sessions']}; "
            f"failures awaiting a fix: {report['open_failures']}"
        )
    return 0


def _stored(store_path: str | None, project: str) -> dict[str, int]:
    """Counts from the store and the state file, read only; ``{}`` when the store or its
    capture tables are missing."""

    path = store_path or default_path()
    if not os.path.isfile(path):
        return {}
    conn = connect(path, create=False)
    try:
        if not marks.present(conn):
            return {}
        captured = conn.execute(
            "SELECT count(*) FROM memories WHERE project = ? AND obsolete = 0"
            " AND EXISTS (SELECT 1 FROM json_each(tags) WHERE value = 'captured')",
            (project,),
        ).fetchone()[0]
        sessions, failures = _waiting(conn, state_path(), project)
    finally:
        conn.close()
    return {"captured": int(captured), "open_sessions": sessions, "open_failures": failures}


def _waiting(conn: sqlite3.Connection, state_file: str, project: str) -> tuple[int, int]:
    """Sessions of ``project`` not recorded yet and failures awaiting a fix: the state
    file's (:func:`memhooks.session.capture_record.open_counts`; read only, none when it
    does not exist or predates them), or the store's own tables when capture has not
    handed them over yet (:func:`memhooks.capture.marks.upgrade`)."""
    if not marks.ready(conn):
        return marks.former_counts(conn, project)
    if not os.path.isfile(state_file):
        return 0, 0
    reader = sqlite3.connect(f"file:{quote(state_file)}?mode=ro", uri=True)
    try:
        return capture_record.open_counts(reader, project)
    except sqlite3.OperationalError:  # a state file of an older layout: none there yet
        return 0, 0
    finally:
        reader.close()
