"""``memhooks event [--agent NAME] [--anchor directory|nearest]``: one agent hook payload
on stdin → generated cues for the files it wrote, deleted or renamed.

Any host's payload is understood (:mod:`memhooks.agents`); a reference ``post_tool_call``
payload is handled exactly as the reference engine handles it (every explicit path
field, whatever the tool; ``memhooks.maintain.events.maintain`` with ``strict``).
stdout stays empty. stderr: ``MemHooks maintained N hook file(s).`` when N > 0; one line
when no host recognises the payload. Exit 0 on success and for payloads with nothing to
do, 2 for invalid JSON, 1 for maintenance errors — among them, for any post-tool event,
a missing payload ``cwd``, an invalid root hook or an invalid ``MEMHOOKS_AUTO_PATHS``.
Unlike ``memhooks hook`` (the fail-open entry hosts run), this command reports them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from ..agents import UNKNOWN, normalize
from ..agents.folder import named_folder
from ..maintain.events import maintain


def run(args: argparse.Namespace) -> int:
    raw = sys.stdin.buffer.read()
    try:
        payload = json.loads(raw.decode("utf-8"))
    except ValueError as exc:  # UnicodeDecodeError is a ValueError too
        print(f"error: invalid event JSON: {exc}", file=sys.stderr)
        return 2

    event = normalize(payload, host=args.agent)
    if event.host == UNKNOWN:
        print(
            "memhooks event: payload not recognised as any agent's hook; nothing to do (pass --agent NAME)",
            file=sys.stderr,
        )
        return 0
    env = dict(os.environ)
    if args.anchor:
        env["MEMHOOKS_ANCHOR"] = args.anchor

    changed = maintain(event, named_folder(event), env=env, strict=True)
    if changed:
        print(f"MemHooks maintained {len(changed)} hook file(s).", file=sys.stderr)
    return 0
