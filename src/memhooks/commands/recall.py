"""``memhooks recall [PATH] [--prompt TEXT] [--file F]... [--role R]... [--budget CHARS]
[--backend NAME] [--store FILE] [--format human|json|context]``.

``human`` (also spelled ``text``) is for people, ``json`` the versioned ``memhooks/recall-v1`` result, ``context``
the exact labelled text an agent would be given (nothing when nothing was recalled).
Exit 0 whenever recall ran, even when it found nothing (the status says so); 1 when the
target or its hooks are invalid, or when no backend could be opened or every query failed
(status ``no_backend`` / ``failed``: the result is still printed, with the reason; in
the human format on stderr, in the others on stdout with the reason on stderr).
"""

from __future__ import annotations

import argparse


def run(args: argparse.Namespace) -> int:
    import json
    import sys

    from ..recall import context, recall, text
    from ..recall.result import headline

    result = recall(
        args.path,
        prompt=args.prompt,
        files=args.file,
        roles=args.role,
        budget=args.budget,
        backend=args.backend,
        store_path=args.store,
    )
    failed = result["status"] in ("no_backend", "failed")
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
