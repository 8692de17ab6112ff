"""``memhooks agents install|uninstall|status [--agent NAME ...|--all] [--project|--user]
[--cwd DIR] [--role R]... [--via plugin|shell] [--capture] [--mcp] [--dry-run]
[--format human|json]``.

``--capture`` also wires the events opt-in capture learns from (command outcomes, turn
ends, compaction, session end; :mod:`memhooks.install.capture_events`); with
``uninstall`` it removes only those. ``status`` says whether they are wired. ``--mcp``
likewise registers the MCP server ``memhooks mcp`` (:mod:`memhooks.install.mcp_servers`);
``status`` says whether it is registered, or that memhooks does not know where yet.

Without ``--agent``/``--all``: every agent for ``status``, a usage error otherwise.
Without ``--project``/``--user`` each agent uses its first level (project, except Hermes,
which only has a user config); with ``--all`` an install or uninstall stays at project
level (Hermes is then skipped, saying so) so it never writes into the home directory
unasked. After an install the status is printed, with what the
user still has to do (approve hooks, trust a folder). Exit 0 on success, 1 when a
config could not be merged, 2 for usage errors.
"""

from __future__ import annotations

import json
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Mapping
    from typing import Any


def run(args: argparse.Namespace) -> int:
    from ..errors import UsageError
    from ..install import INSTALLERS, Context, apply, capture_events, mcp_servers, plan, status

    agents = (
        list(INSTALLERS) if args.all or (args.action == "status" and not args.agent) else args.agent
    )
    if not agents:
        raise UsageError("name an agent with --agent NAME (repeatable) or use --all")
    for name in agents:
        if name not in INSTALLERS:
            raise UsageError(f"unknown agent {name!r}; expected one of: {', '.join(INSTALLERS)}")
    report: list[dict[str, object]] = []
    for name in agents:
        levels = INSTALLERS[name].LEVELS
        # --all alone means this project: it must not write into the home directory
        level = args.level or ("project" if args.all and args.action != "status" else levels[0])
        entry: dict[str, object] = {"agent": name, "level": level}
        report.append(entry)
        if level not in levels:
            entry["skipped"] = f"{name} has no {level}-level config (use --{levels[0]})"
            continue
        ctx = Context(os.path.abspath(args.cwd), level, roles=args.role, via=args.via)
        if args.action != "status":
            edits = plan(
                args.action,
                name,
                ctx,
                capture=getattr(args, "capture", False),
                mcp=getattr(args, "mcp", False),
            )
            entry["changes"] = [{"action": e.action, "path": e.path} for e in edits]
            if not args.dry_run:
                apply(edits)
        if not (args.action == "status" or not args.dry_run):
            continue
        state = status(name, ctx)
        entry.update(state.to_dict())
        entry["capture_events"] = capture_events.report(INSTALLERS[name], ctx)
        entry["mcp_server"] = mcp_servers.report(name, ctx)
    if args.format == "json":
        print(
            json.dumps({"action": args.action, "dry_run": args.dry_run, "agents": report}, indent=2)
        )
    else:
        print(render(args.action, args.dry_run, report, INSTALLERS))
    return 0


def render(
    action: str, dry_run: bool, report: list[dict[str, Any]], installers: Mapping[str, object]
) -> str:
    lines = []
    for entry in report:
        name = entry["agent"]
        if "skipped" in entry:
            lines.append(f"{name}: skipped: {entry['skipped']}")
            continue
        for verb, path in _changes(entry.get("changes", [])):
            lines.append(f"{name}: {'would ' if dry_run else ''}{verb} {path}")
        if action != "status" and not entry.get("changes"):
            lines.append(f"{name}: nothing to change")
        if "installed" not in entry:
            continue
        if entry["installed"]:
            fires = {True: "yes", False: "no", None: "after the steps below"}[entry["fires"]]
            lines.append(
                f"{name}: installed ({entry['level']}) in {', '.join(entry['files'])}; events: {', '.join(entry['events'])}; fires: {fires}"
            )
            lines.append(f"{name}:   context reaches the model via {getattr(installers[name], 'CHANNEL', '?')}")
        elif action == "status":
            lines.append(f"{name}: not installed ({entry['level']})")
        if entry["installed"]:
            found = _capture_line(name, entry.get("capture_events"))
            lines.append(f"{name}:   capture events: {found}")
        server = entry.get("mcp_server")
        if action == "status" or entry["installed"] or (server and server["registered"]):
            lines.append(f"{name}:   mcp server: {_mcp_line(name, entry['level'], server)}")
        skill = entry.get("skill")
        if skill and (entry["installed"] or skill["state"] != "missing"):
            lines.append(f"{name}:   skill: {skill['path']} ({SKILL_STATES[skill['state']]})")
        for problem in entry.get("problems", []):
            lines.append(f"{name}:   problem: {problem}")
        for todo in entry.get("todo", []):
            lines.append(f"{name}:   to do: {todo}")
    return "\n".join(lines)


def _capture_line(name: str, found: dict[str, Any] | None) -> str:
    if found is None:
        return "not handled for this host yet (capture sees the events above only)"
    if found["wired"]:
        return "wired"
    return f"not wired ({', '.join(found['missing'])}): memhooks agents install --agent {name} --capture"


def _mcp_line(name: str, level: str, server: dict[str, Any] | None) -> str:
    if server is None:
        return f"not supported by memhooks yet ({level} level; see docs/mcp.md)"
    if server["registered"]:
        return f"registered in {server['path']}"
    user = " --user" if level == "user" else ""
    return f"not registered (memhooks agents install --agent {name}{user} --mcp)"


SKILL_STATES = {
    "installed": "installed",
    "outdated": "from another memhooks version",
    "missing": "not installed",
    "foreign": "another skill of that name, left alone",
}


def _changes(changes: list[dict[str, str]]) -> list[tuple[str, str]]:
    """``(verb, path)`` per change; the skill's files as one line per verb."""
    marker = f"{os.sep}skills{os.sep}memhooks{os.sep}"
    out: list[tuple[str, str]] = []
    skill: dict[str, list[str]] = {}
    for change in changes:
        path = change["path"]
        if marker in path:
            skill.setdefault(change["action"], []).append(path)
        else:
            out.append((change["action"], path))
    for verb, paths in skill.items():
        folder = paths[0][: paths[0].index(marker) + len(marker)]
        out.append((verb, f"{folder} (the memhooks skill: {len(paths)} files)"))
    return out
