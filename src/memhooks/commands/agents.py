"""``memhooks agents install|uninstall|status [--agent NAME ...|--all] [--project|--user]
[--cwd DIR] [--role R]... [--via plugin|shell] [--capture] [--mcp] [--dry-run]
[--format human|json]``.

Which hosts: ``--agent`` (repeatable) or ``--all``; without either, ``install`` wires the
hosts found on this machine (their programs on ``PATH``, their folders in the home
directory; :mod:`memhooks.install.detect`) and says which it found and which it skipped,
``uninstall`` takes memhooks out of every host that has it, and ``status`` reports every
host.

Which level: ``--project`` or ``--user``; without either each host uses its default,
user level (Hermes has no other), because a user-level hook fires wherever the host
starts and does nothing outside a project with a root ``MEMHOOKS.md``, while hosts read
project config only from the folder they start in (or its git work tree, or the folder
an editor opens; :mod:`memhooks.install.reach`). ``status`` and ``uninstall`` without a
level look at every level where memhooks is installed. The project is the memhooks root
of ``--cwd`` (its git work tree).

``--capture`` also wires the events opt-in capture learns from (command outcomes, turn
ends, compaction, session end; :mod:`memhooks.install.capture_events`); with
``uninstall`` it removes only those. ``--mcp`` likewise registers the MCP server
``memhooks mcp`` (:mod:`memhooks.install.mcp_servers`). After an install the status is
printed: where the hook fires, which channel carries context to the model at prompt
time and at tool time, and what the user still has to do. Exit 0 on success, 1 when a
config could not be merged or no host was found, 2 for usage errors.
"""

from __future__ import annotations

import json

from ..install import (
    INSTALLERS,
    USER,
    Context,
    apply,
    capture_events,
    host,
    mcp_servers,
    plan,
    present,
    status,
)
from ..install.gitexclude import tracked
from .agents_check import run as check
from .agents_report import render
from .arguments import project
from .mcp import load as load_mcp

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from ..install import Host


def run(args: argparse.Namespace) -> int:
    if args.action == "check":
        return check(args)
    root, enabled = project(args.cwd)
    base = Context(root, USER, roles=args.role, via=args.via)
    for name in args.agent:
        host(name)  # UsageError for an unknown name, before anything is written
    if args.action == "install" and getattr(args, "mcp", False):
        load_mcp()  # MH046 before anything is written: a registered server must start
    out: dict[str, Any] = {"action": args.action, "dry_run": args.dry_run}
    out["project"] = {"root": root, "enabled": enabled}
    if args.agent:
        names = list(dict.fromkeys(args.agent))
    elif args.all or args.action == "status":
        names = list(INSTALLERS)
    elif args.action == "install":
        found = _detect(base)
        out["detected"] = found
        names = [f["agent"] for f in found if f["found"]]
    else:
        names = [n for n in INSTALLERS if _installed_levels(INSTALLERS[n], base, args.level)]
    report: list[dict[str, Any]] = []
    for name in names:
        report += _host_report(args, INSTALLERS[name], base)
    out["agents"] = report
    if args.format == "json":
        print(json.dumps(out, indent=2))
    else:
        print(render(out))
    if "detected" in out and not names:
        return 1
    return 0


def _detect(base: Context) -> list[dict[str, Any]]:

    return [
        {
            "agent": f.host.name,
            "found": f.present,
            "why": f.reasons,
            "looked_for": f.looked_for(base),
        }
        for f in present(base)
    ]


def _installed_levels(host: Host, base: Context, level: str | None) -> list[str]:

    levels = [level] if level else list(host.LEVELS)
    return [lv for lv in levels if lv in host.LEVELS and status(host.name, base.at(lv)).installed]


def _host_report(args: argparse.Namespace, host: Host, base: Context) -> list[dict[str, Any]]:
    """One entry per level acted on or reported for ``host``."""

    if args.level:
        levels = [args.level]
    elif args.action == "install":
        levels = [host.default_level]
    else:
        levels = _installed_levels(host, base, None) or [host.default_level]
    entries = []
    for level in levels:
        entry: dict[str, Any] = {"agent": host.name, "level": level}
        entries.append(entry)
        if level not in host.LEVELS:
            entry["skipped"] = (
                f"{host.name} has no {level}-level config (use --{host.default_level})"
            )
            continue
        ctx = base.at(level)
        if args.action != "status":
            capture = getattr(args, "capture", False)
            edits = plan(
                args.action, host.name, ctx, capture=capture, mcp=getattr(args, "mcp", False)
            )
            entry["changes"] = [{"action": e.action, "path": e.path, "why": e.why} for e in edits]
            if level == "project" and args.action == "install":
                entry["tracked"] = tracked(ctx, edits)
            if not args.dry_run:
                apply(edits)
            else:
                continue
        state = status(host.name, ctx)
        entry.update(state.to_dict())
        entry["default_level"] = host.default_level
        entry["title"] = host.wiring.get("title", host.name)
        entry["without_tool_channel"] = host.wiring.get("without_tool_channel")
        entry["capture_events"] = capture_events.report(host, ctx)
        entry["mcp_server"] = mcp_servers.report(host.name, ctx)
    return entries
