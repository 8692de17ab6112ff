"""``memhooks note --query TEXT [--cwd] [--priority] [--role]... [--entity]... [--resource]...
[--tag]... [--backends JSON]``: add or enrich a recall query in the nearest hook.

Flag values are checked before anything is read (exit 2, ``error: ...``): ``--priority``
must be finite and within 0.0..1.0; an ``--entity``/``--resource`` starting with ``{`` must
be JSON; ``--backends`` must be a JSON object. Field types inside those objects are
checked by validating the result (exit 1, nothing written), and a blank ``--role`` is
MH006 naming the flag (exit 1, as the reference). stdout ``Updated <hook>``.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from ..errors import UsageError
from ..maintain.notes import add_note
from ..terminal import visible


def run(args: argparse.Namespace) -> int:
    priority = args.priority
    if priority is not None and not (math.isfinite(priority) and 0.0 <= priority <= 1.0):
        raise UsageError(
            "--priority must be between 0.0 and 1.0",
            argument="--priority",
            help="give a number from 0.0 to 1.0, or leave --priority out",
        )
    entities = [cue_value(value, "--entity") for value in args.entity]
    resources = [cue_value(value, "--resource") for value in args.resource]
    backends = backends_value(args.backends)

    change = add_note(
        args.cwd,
        args.query,
        priority=priority,
        roles=args.role,
        entities=entities,
        resources=resources,
        tags=args.tag,
        backends=backends,
    )

    print(f"Updated {visible(change.path)}")
    return 0


def cue_value(value: str, flag: str) -> Any:
    """A plain name (trimmed), or the JSON value of text that starts with ``{``."""
    text = value.lstrip()
    if not text.startswith("{"):
        return value.strip()
    try:
        return json.loads(text)
    except ValueError as exc:
        raise UsageError(
            f"invalid {flag}: {exc}",
            argument=flag,
            help=f'give {flag} a name, or a JSON object such as \'{{"name": "x"}}\'',
        ) from None


#: Where a bad ``--backends`` is, and what to give instead.
_BACKENDS = {
    "argument": "--backends",
    "help": """give --backends a JSON object such as '{"mem0": {"top_k": 8}}'""",
}


def backends_value(value: str) -> dict[str, Any]:
    try:
        parsed = json.loads(value)
    except ValueError as exc:
        raise UsageError(
            f"--backends must be a JSON object of provider mappings: {exc}", **_BACKENDS
        ) from None
    if not isinstance(parsed, dict):
        raise UsageError(
            f"--backends must be a JSON object of provider mappings: got {type(parsed).__name__ if parsed is not None else 'null'}",
            **_BACKENDS,
        )
    return parsed
