"""``memhooks init [PATH]``: enable MemHooks for the project containing PATH.

stdout ``MemHooks enabled: <root hook path>`` (also when it already existed), exit 0,
and, when the project is a git repository, one line on stderr pointing at
``memhooks history import`` (outside one there is no history to import: no hint);
errors are diagnostics on stderr (``--format json``: a JSON array), exit 1.
"""

from __future__ import annotations

import argparse
import os
import sys

from ..git import find_repository
from ..maintain.enable import init_project
from ..terminal import visible


def run(args: argparse.Namespace) -> int:
    hook, _created = init_project(args.path)
    print(f"MemHooks enabled: {visible(hook)}")
    if find_repository(os.path.dirname(hook)) is not None:
        print(
            "hint: `memhooks history import` turns the project's git history into memories",
            file=sys.stderr,
        )
    return 0
