"""``memhooks agents check`` for a registered MCP server: start it as the host would.

A host starts the ``memhooks`` MCP server (:mod:`.mcp_servers`) at its own start; one
that cannot start (the MCP SDK not installed where memhooks runs: MH046, exit 2) fails
there every time, out of the user's sight. The check runs the registered command and
arguments — no shell, as hosts start MCP servers — with stdin at its end, so a server
that can start exits 0 at once, in a throwaway folder with its own store and state.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
import time

from . import mcp_servers
from .check import Result

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .base import Context
    from .hosts import Host

#: The ``event`` of the result that starts a registered MCP server (:func:`check_mcp`).
MCP_SERVER = "MCP server"


def check_mcp(host: Host, ctx: Context) -> Result | None:
    """Start the MCP server registered for ``host`` at ``ctx.level`` (None: none is);
    the result fails when it does not exit 0 within 10 s, with the server's own coded
    line and help (``exits 2 at start: error[MH046]: …; help: …``)."""
    entry = mcp_servers.registered(host.name, ctx)
    if entry is None:
        return None
    args = entry.get("args", [])
    argv = [str(entry.get("command")), *(str(a) for a in (args if isinstance(args, list) else []))]
    result = Result(host.name, ctx.level, MCP_SERVER, shlex.join(argv))
    with tempfile.TemporaryDirectory(prefix="memhooks-check-") as tmp:
        env = {k: v for k, v in os.environ.items() if not k.startswith("MEMHOOKS_")}
        env.update(MEMHOOKS_STORE=os.path.join(tmp, "store.sqlite3"),
                   MEMHOOKS_STATE_DIR=os.path.join(tmp, "state"))  # fmt: skip
        started = time.perf_counter()
        try:
            done = subprocess.run(argv, input="", text=True, capture_output=True, env=env, cwd=tmp,
                                  timeout=result.deadline_ms / 1000, check=False)  # fmt: skip
        except subprocess.TimeoutExpired:
            done = None
        except OSError as exc:
            result.problems.append(f"the MCP server cannot be started: {exc.strerror}: {argv[0]}")
            return result
    result.ms = (time.perf_counter() - started) * 1000
    if done is None:
        result.problems.append(
            f"the MCP server did not stop within {result.deadline_ms / 1000:g} s at the end of its input"
        )
        return result
    result.fired = done.returncode == 0
    if not result.fired:
        said = [line.strip() for line in done.stderr.strip().splitlines()]
        why = "; ".join(line for line in said if line.startswith(("error", "help:"))) or (
            said[-1] if said else "no message"
        )
        result.problems.append(f"the MCP server exits {done.returncode} at start: {why}")
    return result
