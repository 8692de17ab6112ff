"""``memhooks maintain [PATH] [--format human|json]``: apply the hook updates the agent
hook accepted for the project of PATH (default: the working folder) and has not applied
yet — those that waited for a broken hook file among them, once it validates
(docs/maintenance.md, "From the agent hook: an accepted update is never dropped in
silence").

stdout: ``Updated <hook>`` per hook file written, or ``No hook update was waiting`` /
``No hook update could be applied`` (``--format json``: ``{"root", "written",
"waiting"}``); each update still waiting or failing is one coded line on stderr naming
its files and the hook file at fault with what to do, and the exit status is 1. A
project that is not enabled is MH013 (exit 1).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from ..hook.maintenance import apply_works
from ..maintain.targets import require_enabled
from ..protocol.root import resolve_target
from ..session import journal, state_path
from ..session.report import open_existing
from ..terminal import visible

#: Seconds the command waits for the applier lock and applies (a hook call holds the lock
#: a few seconds at most).
WAIT_S = 60.0


def run(args: argparse.Namespace) -> int:
    root = resolve_target(os.path.abspath(args.path), os.environ, "PATH").root
    require_enabled(root)  # MH013 / MH029
    state = open_existing(state_path())
    written: list[str] = []
    notes: list[str] = []
    if state is not None and journal.pending(state, root):
        written, notes = journal.drain(state, root, apply_works, time.monotonic() + WAIT_S)
    if args.format == "json":
        print(json.dumps({"root": root, "written": written, "waiting": notes}, ensure_ascii=False))
    else:
        for hook in written:
            print(f"Updated {visible(hook)}")
        if not written:
            print("No hook update could be applied" if notes else "No hook update was waiting")
        for note in notes:
            print(f"memhooks maintain: {visible(note)}", file=sys.stderr)
    return 1 if notes else 0
