"""Argument types and options several commands share: what argparse checks before a
command runs (an integer within its range, a value that is not blank, ``--format``'s old
names, ``--store``). :mod:`memhooks.cli` builds the parser with them, and each command
module that adds its own arguments (``history``, ``sessions``) uses them too.

``argparse`` is imported only to raise: a command whose arguments need no parser
(:func:`memhooks.cli._plain_arguments`) never loads it.
"""

from __future__ import annotations

from ..errors import MissingStoreError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable

    from ..store import MemoryStore

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
        help="embedded store file (default: MEMHOOKS_STORE, else the user data directory)",
    )


def open_for_import(path: str | None, dry_run: bool, *, lazy: bool = False) -> MemoryStore:
    """The store at ``path`` (``--store``; default :func:`memhooks.store.default_path`)
    an import writes into (``history import``, ``transcripts import``): created when
    missing — with ``lazy``, by its first write (:class:`MemoryStore`) — or, for a
    ``dry_run``, read only, and an empty in-memory store when there is none yet (a dry
    run compares with what is stored and writes nothing)."""
    # here, not at the top: the parser is built for every command, most open no store
    from ..store import MemoryStore

    if not dry_run:
        return MemoryStore(path, lazy=lazy)
    try:
        return MemoryStore(path, create=False)
    except MissingStoreError:
        return MemoryStore(":memory:")
