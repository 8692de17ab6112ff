"""``python -m memhooks``, and ``python <this file>``: what agent hook commands run
(:func:`memhooks.install.command.hook_program`: no console-script wrapper)."""

import os
import sys

# Run as a file, the package's own folder is sys.path[0]: its modules must not shadow
# top-level names (errors, settings, ...).
if sys.path and os.path.abspath(sys.path[0] or os.curdir) == os.path.dirname(os.path.abspath(__file__)):
    del sys.path[0]

from memhooks.cli import main  # noqa: E402

raise SystemExit(main())
