"""``memhooks mcp [--store FILE]``: serve explain, recall, remember, note and forget as MCP
tools over stdio until the client disconnects. Needs the ``mcp`` extra."""

from __future__ import annotations

import argparse

from ..errors import ExtraMissingError


def run(args: argparse.Namespace) -> int:

    try:
        from ..mcp.server import serve
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in ("mcp", "pydantic"):
            raise
        raise ExtraMissingError(
            f"the MCP server needs the optional MCP SDK, not installed ({exc.name} cannot be"
            " imported): pip install 'memhooks[mcp]'"
        ) from None
    serve(args.store)
    return 0
