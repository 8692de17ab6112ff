"""``memhooks recall [PATH] [--prompt TEXT] [--file F]... [--role R]... [--budget CHARS]
[--backend NAME] [--store FILE] [--format text|json|context]``.

``text`` is for people, ``json`` the versioned ``memhooks/recall-v1`` result, ``context``
the exact labelled text an agent would be given (nothing when nothing was recalled).
Exit 0 whenever recall ran, even when it found nothing (the status says so); 1 when the
target or its hooks are invalid, or when no backend could be opened or every query failed
(status ``no_backend`` / ``failed``: the result is still printed, with the reason).
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
    if args.format == "json":
        print(json.dumps(result, ensure_ascii=False, indent=2))
    elif args.format == "context":
        injected = context(result)
        if injected:
            print(injected)
    else:
        print(text(result))
    if result["status"] in ("no_backend", "failed"):  # diagnostics go to stderr, too
        print(f"memhooks recall: {headline(result)[0]}", file=sys.stderr)
    return 1 if result["status"] in ("no_backend", "failed") else 0
