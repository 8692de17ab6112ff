"""The ``memhooks`` command as pip installs it (``[project.scripts]``): the speed shims in
place first (:func:`memhooks.fast.prepare`: memhooks' modules straight from their
bytecode, without the import system's locks), then :func:`memhooks.cli.main` — whose own
imports, ~80 modules for ``validate --all`` (a fresh process in CI and pre-commit:
``bench/bench_engine.py`` ``validate_warm``), load through them. ``python -m memhooks``
and the hook launcher go through :mod:`memhooks.__main__`, which does the same.
"""

from __future__ import annotations

import sys

from .fast import prepare


def main() -> int:
    """Run the command ``sys.argv`` names; its exit code (:func:`memhooks.cli.main`)."""
    prepare(sys.argv)
    from .cli import main as cli  # after the shims: its imports load through them

    return cli()
