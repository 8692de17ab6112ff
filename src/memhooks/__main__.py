"""``python -m memhooks``, and ``python <this file>``: what agent hook commands run
(:func:`memhooks.install.command.hook_program`: no console-script wrapper)."""

import os
import sys

# Run as a file, the package's own folder is sys.path[0]: its modules must not shadow
# top-level names (errors, settings, ...).
if sys.path and os.path.abspath(sys.path[0] or os.curdir) == os.path.dirname(
    os.path.abspath(__file__)
):
    del sys.path[0]

from memhooks.cli import main

code = main()
if sys.argv[1:2] == ["hook"]:
    # A hook process has written its reply and committed its state: end it without the
    # interpreter's teardown (closing the state file checkpoints its WAL, ~1 ms; module
    # and object teardown more). SQLite keeps what was committed either way.
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)
raise SystemExit(code)
