"""``memhooks init [PATH]``: enable MemHooks for the project containing PATH.

stdout ``MemHooks enabled: <root hook path>`` (also when it already existed), exit 0,
and on stderr one line pointing at ``memhooks history import``;
errors are diagnostics on stderr (``--format json``: a JSON array), exit 1.
"""

from __future__ import annotations

import argparse
import sys

from ..maintain.enable import init_project
from ..terminal import visible


def run(args: argparse.Namespace) -> int:

    hook, _created = init_project(args.path)
    print(f"MemHooks enabled: {visible(hook)}")
    print(
        "hint: `memhooks history import` turns the project's git history into memories",
        file=sys.stderr,
    )
    return 0
