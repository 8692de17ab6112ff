"""``python -m memhooks``, and ``python [-S] <this file>``: what agent hook commands run
(through the launcher, :mod:`memhooks.install.launcher`, or as
:func:`memhooks.install.command.hook_program` words it). Run as a file it is compiled
on every call, so it only puts the package on the path and hands over:
:func:`memhooks.fast.prepare` puts the speed shims in place,
:func:`memhooks.commands.hook.process` serves a hook call.
"""

import gc

gc.disable()  # until prepare() knows the command: a hook call keeps it off (fast/__init__.py)

import os  # after the collector is off: with it on, os's imports ran it (~0.4 M instructions)
import sys

# Run as a file, the package's own folder is sys.path[0]: its modules must not shadow
# top-level names (errors, settings, ...). Without the site module (-S) the package's
# parent joins the path last (the launcher's -c program put it there already).
_HERE = os.path.dirname(os.path.abspath(__file__))
if sys.path and os.path.abspath(sys.path[0] or os.curdir) == _HERE:
    del sys.path[0]
if sys.flags.no_site and os.path.dirname(_HERE) not in sys.path:
    sys.path.append(os.path.dirname(_HERE))

from memhooks.fast import prepare  # the path first

if prepare(sys.argv):
    from memhooks.commands.hook import process

    process(sys.argv[2:])
from memhooks.cli import main

raise SystemExit(main())
