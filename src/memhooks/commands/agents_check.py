"""``memhooks agents check [--agent NAME]... [--project|--user] [--cwd DIR] [--format
human|json]``: run every installed host's hook as the host will, in a throwaway project
with a known memory, and say whether the memory would reach the model
(:mod:`memhooks.install.check`). Exit 1 when any check fails, or when memhooks is
installed in no host named."""

from __future__ import annotations

import json
import os

from ..backends.registry import selected, selected_store
from ..errors import MemhooksError
from ..install import INSTALLERS, USER, Context, host, status
from ..install.check import check as run_checks
from ..install.mcp_check import MCP_SERVER, check_mcp
from .arguments import project

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any


def run(args: argparse.Namespace) -> int:
    """``agents check``: run every installed host's hook (``--agent``: those named) as the
    host will, in a throwaway project (:mod:`memhooks.install.check`). Exit 1 when a check
    fails or no host has memhooks installed."""
    root, _ = project(args.cwd)
    base = Context(root, USER, roles=args.role, via=args.via)
    names = list(dict.fromkeys(args.agent)) or list(INSTALLERS)
    results = []
    for name in names:
        found_host = host(name)
        for level in [args.level] if args.level else found_host.LEVELS:
            if level not in found_host.LEVELS:
                continue
            ctx = base.at(level)
            found = status(name, ctx)
            if found.installed:
                results += run_checks(found_host, ctx, found)
            server = check_mcp(found_host, ctx)
            if server is not None:
                results.append(server)
    store = memory_store(dict(os.environ))
    if args.format == "json":
        print(json.dumps({"checks": [r.to_dict() for r in results], "store": store}, indent=2))
    else:
        print(render_checks(results, names if args.agent else None, store))
    run = [r for r in results if not r.skipped]
    return 0 if run and all(r.ok for r in run) else 1


def memory_store(env: dict[str, str]) -> dict[str, Any]:
    """What the hooks will read, beside the throwaway project the checks use: the
    embedded store ``{"path", "exists"}`` (it may not exist yet: a project with hooks
    and no memories yet is normal, so it is said, not failed), ``{"backend": name}``
    for another backend, or ``{"problem"}`` (no home folder for the default path)."""
    try:
        path = selected_store(env)
        if path is None:
            return {"backend": selected(env=env)}
    except MemhooksError as exc:
        return {"problem": str(exc)}
    return {"path": path, "exists": os.path.isfile(path)}


def _store_line(store: dict[str, Any]) -> str:
    if "backend" in store:
        return f"memory: the {store['backend']} backend (`memhooks backends check` tests it)"
    if "problem" in store:
        return f"memory store: none: {store['problem']}"
    if store["exists"]:
        return f"memory store: {store['path']}"
    return (
        f"memory store: {store['path']}: none yet — `memhooks history import` (the "
        "project's commits) or `memhooks remember` makes it; until then hooks give the "
        "hooks' own guidance only"
    )


def render_checks(
    results: list[Any], named: list[str] | None, store: dict[str, Any] | None = None
) -> str:
    """The human form of ``agents check``: one line per check, then its problems, the
    memory store the hooks will read (``store``: :func:`memory_store`), the count."""
    if not results:
        which = ", ".join(named) if named else "any agent host"
        return f"memhooks is not installed in {which}: run `memhooks agents install` first"
    lines = []
    for r in results:
        title = INSTALLERS[r.agent].wiring.get("title", r.agent)
        if r.skipped:
            lines.append(f"{r.agent} ({r.level}): not checked: {r.skipped}")
            continue
        verdict = "ok" if r.ok else "FAILED"
        lines.append(f"{r.agent} ({r.level}): {r.event}: {verdict}")
        if r.fired and r.event == MCP_SERVER:
            lines.append(f"{r.agent}:   started: stopped at the end of its input in {r.ms:.0f} ms")
        elif r.fired:
            lines.append(
                f"{r.agent}:   fired: answered in {r.ms:.0f} ms ({title} waits {r.deadline_ms / 1000:g} s)"
            )
        if r.fired and r.shape is None and r.delivered is not None:
            said = (
                "the known memory reached the reply"
                if r.delivered
                else "the reply lacks the known memory"
            )
            lines.append(f"{r.agent}:   reply: the shape {title} reads; {said}")
        elif r.fired and r.shape is None and r.event != MCP_SERVER:
            lines.append(f"{r.agent}:   reply: none expected ({title} has no channel to the model)")
        if r.trust is not None:
            lines.append(f"{r.agent}:   {title}: {r.trust[1]}")
        lines += [
            f"{r.agent}:   problem: {p}" for p in r.problems if r.trust is None or p != r.trust[1]
        ]
        lines.append(f"{r.agent}:   command: {r.command}")
    if store is not None:
        lines.append(_store_line(store))
    run = [r for r in results if not r.skipped]
    failed = sum(1 for r in run if not r.ok)
    lines.append(f"{len(run) - failed} of {len(run)} checks passed")
    return "\n".join(lines)
