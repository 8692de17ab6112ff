"""``memhooks recall [PATH] [--prompt TEXT] [--file F]... [--role R]... [--budget CHARS]
[--tool-time] [--backend NAME] [--store FILE] [--format human|json|context]``.

``--tool-time`` recalls as the agent hook does right after a tool touched PATH: only the
memories anchored to that folder or the ``--file`` files (:mod:`memhooks.recall.anchoring`),
within 2,000 characters unless ``--budget`` says otherwise — what ``memhooks sessions
show`` lists for a ``PostToolUse`` delivery, short of the session's ledger.

``human`` (also spelled ``text``) is for people, ``json`` the versioned ``memhooks/recall-v1`` result, ``context``
the exact labelled text an agent would be given (nothing when nothing was recalled).
Exit 0 whenever recall ran, even when it found nothing (the status says so); 1 when the
target or its hooks are invalid, or when no backend could be opened or every query failed
(status ``no_backend`` / ``failed``: the result is still printed, with the reason; in
the human format on stderr, in the others on stdout with the reason on stderr). A store
file that cannot be used (a folder, not a database, damaged, locked, read-only) is MH037
at its path, as every command says it (:func:`memhooks.errors.store_diagnostic`): the
diagnostic instead of the human report, or on stderr beside the JSON result; so is an
invalid backend configuration (MH028 at its file, line and column, as ``memhooks
backends list`` says it).
"""

from __future__ import annotations

import argparse
import json
import sys

from ..errors import diagnostics_of
from ..recall import DEFAULT_BUDGET, context, recall_result, text
from ..recall.status import headline
from ..report import print_errors
from ..settings import default


def run(args: argparse.Namespace) -> int:

    found = recall_result(
        args.path,
        prompt=args.prompt,
        files=args.file,
        roles=args.role,
        budget=args.budget
        or (default("MEMHOOKS_TOOL_MAX_CHARS") if args.tool_time else DEFAULT_BUDGET),
        backend=args.backend,
        store_path=args.store,
        anchored=args.tool_time,
    )
    result = found.to_dict()
    failed = found.failed
    # no store yet is no failure (status empty_store): nothing to recall yet
    unusable = diagnostics_of(found.unavailable) if failed else []
    if unusable:
        if args.format == "json":  # the result stays on stdout for scripts
            print(json.dumps(result, ensure_ascii=False, indent=2))
        print_errors(unusable, "json" if args.format == "json" else "human")
        return 1
    if args.format == "json":
        print(json.dumps(result, ensure_ascii=False, indent=2))
    elif args.format == "context":
        injected = context(result)
        if injected:
            print(injected)
    else:
        # A failed recall's report is its diagnostic: said once, on stderr.
        print(text(result), file=sys.stderr if failed else sys.stdout)
        return 1 if failed else 0
    if failed:  # the machine-readable output is on stdout; the why goes to stderr
        print(f"memhooks recall: {headline(result)[0]}", file=sys.stderr)
    return 1 if failed else 0
