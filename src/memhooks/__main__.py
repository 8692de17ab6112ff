"""``python -m memhooks``, and ``python [-S] <this file>``: what agent hook commands run
through the launcher (:mod:`memhooks.install.launcher`, which starts
:func:`memhooks.install.command.hook_program`: no console-script wrapper, no site module).

Without the site module (``-S``) this file puts its own package's folder on the path;
the first top-level import found nowhere on it runs :func:`site.main` then and retries
(a dependency kept in site-packages, or put there by a ``.pth`` file, as for an editable
install), so every import works as with site, only later and only when needed.
"""

import os
import sys

# Run as a file, the package's own folder is sys.path[0]: its modules must not shadow
# top-level names (errors, settings, ...).
_HERE = os.path.dirname(os.path.abspath(__file__))
if sys.path and os.path.abspath(sys.path[0] or os.curdir) == _HERE:
    del sys.path[0]


class _LateSite:
    """The last meta path finder under ``-S``: on the first top-level import nothing else
    found, runs the site module's setup (site-packages, ``.pth`` files) and looks again;
    then it leaves the meta path."""

    @classmethod
    def find_spec(cls, name, path=None, target=None):  # type: ignore[no-untyped-def]
        if path is not None:
            return None  # a submodule: its package's own path decides
        sys.meta_path.remove(cls)
        import site
        from importlib.machinery import PathFinder

        site.main()
        return PathFinder.find_spec(name, None, target)


if sys.flags.no_site:
    if os.path.dirname(_HERE) not in sys.path:  # the launcher's -c program put it there
        sys.path.append(os.path.dirname(_HERE))
    sys.meta_path.append(_LateSite)

if sys.argv[1:2] == ["hook"] and not {"-h", "--help"} & set(sys.argv):
    import gc

    from memhooks.fast.bytecode import Finder

    # memhooks' own modules straight from their bytecode (memhooks/fast/README.md)
    sys.meta_path.insert(0, Finder)

    # A hook process lives at most its deadline with a bounded payload: what cycles it
    # leaves go at its exit. The cyclic collector's passes over the objects its imports
    # create cost ~1 ms of CPU per call (bench A/B, 31 rounds: 27.0 vs 28.0 ms).
    gc.disable()
    # Straight to the hook command: the CLI module's table of commands is not needed.
    from memhooks.commands.hook import main as hook_main

    code = hook_main(sys.argv[2:])
    # A hook process has written its reply and committed its state: end it without the
    # interpreter's teardown (closing the state file checkpoints its WAL, ~1 ms; module
    # and object teardown more). SQLite keeps what was committed either way.
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)
from memhooks.cli import main

raise SystemExit(main())
