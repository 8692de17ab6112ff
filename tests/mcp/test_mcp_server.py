"""The MCP server with the official SDK's own client: in-process and over stdio (a real
subprocess). Skipped when the optional ``mcp`` extra is not installed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

# Not plain "mcp": without the SDK, this tests/mcp folder itself imports as a namespace
# package of that name.
pytest.importorskip("mcp.server.mcpserver")

import anyio
from mcp import Client, StdioServerParameters

from memhooks.mcp.server import build

TOOLS = {"explain", "recall", "remember", "note", "forget", "why"}
TEXT = "The limiter keeps its buckets in Redis because deploys reset process memory."


async def _round_trip(client: Client, project: Path) -> dict[str, Any]:
    listed = await client.list_tools()
    schemas = {tool.name: tool.input_schema for tool in listed.tools}
    stored = await client.call_tool(
        "remember", {"text": TEXT, "path": str(project / "src"), "kind": "decision"}
    )
    assert not stored.is_error, stored.content
    memory_id = stored.structured_content["id"]
    found = await client.call_tool(
        "recall", {"path": str(project / "src"), "prompt": "limiter buckets"}
    )
    plan = await client.call_tool("explain", {"path": str(project)})
    gone = await client.call_tool("forget", {"id": memory_id, "path": str(project)})
    bad = await client.call_tool("explain", {"path": str(project / "missing")})
    invalid = await client.call_tool("recall", {"path": str(project), "budget": 0})
    return {
        "schemas": schemas,
        "recalled": [m["id"] for m in found.structured_content["memories"]],
        "memory_id": memory_id,
        "context": found.structured_content["context"],
        "queries": [q["query"] for q in plan.structured_content["effective_queries"]],
        "forgotten": gone.structured_content["forgotten"],
        "bad": (bad.is_error, bad.content[0].text),
        "invalid": invalid.is_error,
    }


def _check(result: dict[str, Any]) -> None:
    assert set(result["schemas"]) == TOOLS
    assert result["schemas"]["remember"]["required"] == ["text"]
    assert result["schemas"]["forget"]["required"] == ["id"]
    assert result["schemas"]["why"]["required"] == ["path"]
    assert result["schemas"]["recall"]["properties"]["budget"]["minimum"] == 1
    assert result["recalled"] == [result["memory_id"]]
    assert TEXT in result["context"]
    assert result["queries"] == ["Why does the limiter keep its buckets in Redis?"]
    assert result["forgotten"] is True
    assert result["bad"][0] and "MH024" in result["bad"][1]
    assert result["invalid"]


def test_in_process(project: Path, store_path: str) -> None:
    async def main() -> dict[str, Any]:
        async with Client(build(store_path)) as client:
            return await _round_trip(client, project)

    _check(anyio.run(main))


def test_over_stdio(project: Path, store_path: str) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "memhooks", "mcp", "--store", store_path],
        env={**os.environ},
        cwd=str(project),
    )

    async def main() -> dict[str, Any]:
        async with Client(params) as client:
            return await _round_trip(client, project)

    _check(anyio.run(main))


def test_note_tool_adds_a_cue_to_the_nearest_hook(project: Path, store_path: str) -> None:
    arguments = {"query": "Why a sliding window?", "path": str(project / "src"), "priority": 0.9}

    async def main() -> tuple[Any, Any]:
        async with Client(build(store_path)) as client:
            noted = await client.call_tool("note", arguments)
            return noted, await client.call_tool("explain", {"path": str(project / "src")})

    noted, plan = anyio.run(main)
    if noted.is_error:  # a memhooks without the maintenance commands
        assert "no `note` command" in noted.content[0].text
        return
    queries = [q["query"] for q in plan.structured_content["effective_queries"]]
    assert "Why a sliding window?" in queries


def test_cli_without_the_sdk_says_how_to_install_it(tmp_path: Path) -> None:
    """MH046 naming the extra, exit 2 (it was ``error: …`` without a code, exit 1)."""
    script = "import sys; sys.modules['mcp'] = None\nfrom memhooks.cli import main\nsys.exit(main(['mcp']))"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert done.returncode == 2
    assert done.stderr == (
        "error[MH046]: the MCP server needs the optional MCP SDK, not installed (mcp.server cannot"
        " be imported): pip install 'memhooks[mcp]'\n"
        "  --> memhooks mcp\n"
        "  help: install the extra the message names into the environment memhooks runs in, then"
        " run the command again\n"
    )
    assert json.dumps(done.stdout) == '""'
