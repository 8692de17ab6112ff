"""``memhooks mcp [--store FILE]``: serve explain, recall, remember, note and forget as MCP
tools over stdio until the client disconnects. Needs the ``mcp`` extra."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from ..errors import MemhooksError


class ExtraMissingError(MemhooksError):
    """A command needs an optional extra that is not installed (here: the MCP SDK; the
    message gives the ``pip install``): MH046 at the command, exit status 2
    (:func:`memhooks.cli.command_diagnostic`). Defined here, not in :mod:`memhooks.errors`:
    a class made at import costs each hook process that loads that module ~85,000
    instructions (callgrind), for an error only this command raises."""

    code = "MH046"


def load() -> Callable[[str | None], None]:
    """The server's ``serve(store_path)``, importing the MCP SDK it needs. Raises
    :class:`ExtraMissingError` (MH046) when the SDK (``mcp``, or its ``pydantic``)
    cannot be imported; ``agents install --mcp`` asks first, so no server that cannot
    start is registered."""
    try:
        from ..mcp.server import serve
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in ("mcp", "pydantic"):
            raise
        raise ExtraMissingError(
            f"the MCP server needs the optional MCP SDK, not installed ({exc.name} cannot be"
            " imported): pip install 'memhooks[mcp]'"
        ) from None
    return serve


def run(args: argparse.Namespace) -> int:
    load()(args.store)
    return 0
