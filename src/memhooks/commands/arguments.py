"""Argument types and options several commands share: what argparse checks before a
command runs (an integer within its range, a value that is not blank, ``--format``'s old
names, ``--store``, the project of ``--cwd``). :mod:`memhooks.parser` builds the parser with them, and each command
module that adds its own arguments (``history``, ``sessions``) uses them too.

``argparse`` is imported only to raise: a command whose arguments need no parser
(:func:`memhooks.cli._plain_arguments`) never loads it.
"""

from __future__ import annotations

import os

from ..protocol import HOOK_NAME
from ..protocol.root import canonical, find_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable

FORMATS = ("human", "json")


def format_name(value: str) -> str:
    """``--format`` ``text`` is the old name of ``human`` (recall, memories and backends
    said ``text`` before every command said ``human``); scripts and installed hooks keep it."""
    return "human" if value == "text" else value


def integer(low: int, high: int, unit: str = "") -> Callable[[str], int]:
    """An argparse ``type``: an integer from ``low`` to ``high`` (the error says the range)."""

    def parse(value: str) -> int:
        import argparse

        try:
            number = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer, not {value!r}") from None
        if not low <= number <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}{unit}")
        return number

    return parse


def seconds(value: str) -> float:
    """An argparse ``type``: a number of seconds above 0, finite (``--timeout``: "nan", "-1"
    and "0" had each meant "stop now" without a word, newcomer22)."""
    import argparse

    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, not {value!r}") from None
    if not 0 < number < float("inf"):  # nan too
        raise argparse.ArgumentTypeError("must be a number of seconds above 0")
    return number


budget = integer(1, 1_000_000, " characters")
count = integer(0, 1_000_000_000)  # --limit where 0 means all
positive = integer(1, 1_000_000_000)


def nonblank(value: str) -> str:
    """An argparse ``type``: a value that is not blank."""
    if not value.strip():
        import argparse

        raise argparse.ArgumentTypeError("must not be blank")
    return value


def project_options(p: argparse.ArgumentParser) -> None:
    """``--cwd`` and ``--store``."""
    p.add_argument("--cwd", default=".", help="a folder of the project (default: .)")
    store_option(p)


def store_option(p: argparse.ArgumentParser) -> None:
    """``--store FILE``."""
    p.add_argument(
        "--store",
        metavar="FILE",
        help=(
            "embedded store file (default: MEMHOOKS_EMBEDDED_PATH or MEMHOOKS_STORE, else"
            " the configuration file's [backends.embedded] path, else the user data"
            " directory)"
        ),
    )


def project(cwd: str) -> tuple[str, bool]:
    """(the memhooks root of ``--cwd`` ``cwd``, whether it has a root MEMHOOKS.md).
    Raises DiagnosticError as :func:`memhooks.protocol.root.canonical` does."""
    root, _ = find_root(canonical(os.path.abspath(cwd), "--cwd"))
    return root, os.path.isfile(os.path.join(root, HOOK_NAME))
