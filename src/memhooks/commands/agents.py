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
import os

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
from ..install.command import suggest
from ..install.gitexclude import tracked
from ..protocol.root import canonical, find_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from ..install import Host


def run(args: argparse.Namespace) -> int:

    if args.action == "check":
        from .agents_check import run as check

        return check(args)
    root, enabled = project(args.cwd)
    base = Context(root, USER, roles=args.role, via=args.via)
    for name in args.agent:
        host(name)  # UsageError for an unknown name, before anything is written
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


def project(cwd: str) -> tuple[str, bool]:
    """(the memhooks root of ``cwd``, whether it has a root MEMHOOKS.md)."""

    root, _ = find_root(canonical(os.path.abspath(cwd), "--cwd"))
    return root, os.path.isfile(os.path.join(root, "MEMHOOKS.md"))


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


def render(out: dict[str, Any]) -> str:
    """The human form of a report (see :func:`run`)."""
    lines = []
    action, dry_run = out["action"], out["dry_run"]
    detected = out.get("detected")
    if detected is not None:
        found = [f"{f['agent']} ({', '.join(f['why'])})" for f in detected if f["found"]]
        lines.append(
            f"found: {', '.join(found)}" if found else "found: no agent host on this machine"
        )
        for f in detected:
            if not f["found"]:
                lines.append(f"{f['agent']}: skipped: not found (looked for {f['looked_for']})")
        if not found:
            lines.append(
                "nothing installed: name a host with --agent NAME, or use --all for every host"
            )
    for entry in out["agents"]:
        lines += _entry_lines(action, dry_run, entry)
    if action == "uninstall" and not out["agents"]:
        lines.append("memhooks is not installed in any agent host: nothing to change")
    if out["agents"] and not out["project"]["enabled"] and action != "uninstall":
        lines.append(
            f"note: {out['project']['root']} has no root MEMHOOKS.md: the hooks do nothing there "
            "until you run `memhooks init`"
        )
    return "\n".join(lines)


def _entry_lines(action: str, dry_run: bool, entry: dict[str, Any]) -> list[str]:
    name = entry["agent"]
    if "skipped" in entry:
        return [f"{name}: skipped: {entry['skipped']}"]
    lines = [
        f"{name}: {'would ' if dry_run else ''}{verb} {path}"
        for verb, path in _changes(entry.get("changes", []))
    ]
    if action != "status" and not entry.get("changes"):
        lines.append(f"{name}: nothing to change")
    for rel in entry.get("tracked", []):
        lines.append(
            f"{name}:   note: {rel} is tracked by git and now holds this machine's path to "
            "memhooks: do not commit that change (or install at user level)"
        )
    if "installed" not in entry:
        return lines
    level = entry["level"]
    if entry["installed"]:
        fires = {True: "yes", False: "no", None: "after the steps below"}[entry["fires"]]
        lines.append(
            f"{name}: installed ({level}) in {', '.join(entry['files'])}; events: {', '.join(entry['events'])}; fires: {fires}"
        )
        if _through_plugin(entry):
            plugin = entry["plugin"]
            lines.append(f"{name}:   through the plugin {plugin['ref']} ({plugin['path']})")
        if entry.get("fires_when"):
            lines.append(f"{name}:   fires {entry['fires_when']}")
        title = entry.get("title", name)
        prompt = entry.get("prompt_channel")
        tool = entry.get("tool_channel")
        none = f"none: no hook output of {title} reaches the model"
        lines.append(f"{name}:   prompt time: {prompt or none + ' at prompt time'}")
        instead = entry.get("without_tool_channel")
        lines.append(
            f"{name}:   tool time: {tool or ('none: ' + instead if instead else none + ' on tool events')}"
        )
        if tool:  # line-level recall (issue 20): what arrives before an edit is planned
            lines.append(
                f"{name}:   lines read: their commits, with the read's result (before the model plans an edit)"
            )
        edit = entry.get("edit_channel")
        after = (
            "in the edit's tool-time reply, with its result (no pre-tool channel reaches the model)"
        )
        lines.append(f"{name}:   lines an edit replaces: {edit or (after if tool else 'none')}")
        lines.append(f"{name}:   capture events: {_capture_line(entry)}")
    elif action == "status":
        lines.append(f"{name}: not installed ({level})")
    server = entry.get("mcp_server")
    if action == "status" or entry["installed"] or (server and server["registered"]):
        lines.append(f"{name}:   mcp server: {_mcp_line(entry, server)}")
    skill = entry.get("skill")
    if skill and (entry["installed"] or skill["state"] != "missing"):
        lines.append(f"{name}:   skill: {skill['path']} ({_skill_state(entry, skill)})")
    for key, label in (("problems", "problem"), ("notes", "note"), ("todo", "to do")):
        lines += [f"{name}:   {label}: {text}" for text in entry.get(key, [])]
    if entry.get("repair"):
        lines.append(f"{name}:   repair: run `{entry['repair']}`")
    return lines


def _suggest(entry: dict[str, Any], *flags: str) -> str:

    return suggest("install", entry["agent"], entry["level"], entry["default_level"], *flags)


def _through_plugin(entry: dict[str, Any]) -> bool:
    plugin = entry.get("plugin")
    return bool(
        plugin and plugin["enabled"] and entry.get("files", [""])[0].startswith(plugin["path"])
    )


def _capture_line(entry: dict[str, Any]) -> str:
    if _through_plugin(entry):
        return "not with the plugin yet (it wires the events above; see docs/agents.md)"
    found = entry.get("capture_events")
    if found is None:
        return "not handled for this host yet (capture sees the events above only)"
    if found["wired"]:
        return "wired"
    return f"not wired ({', '.join(found['missing'])}): {_suggest(entry, '--capture')}"


def _mcp_line(entry: dict[str, Any], server: dict[str, Any] | None) -> str:
    if _through_plugin(entry):
        return "in the plugin (`memhooks mcp`; needs the mcp extra: docs/mcp.md)"
    if server is None:
        return f"not supported by memhooks yet ({entry['level']} level; see docs/mcp.md)"
    if server["registered"]:
        return f"registered in {server['path']}"
    return f"not registered ({_suggest(entry, '--mcp')})"


SKILL_STATES = {
    "installed": "installed",
    "outdated": "from another memhooks version",
    "missing": "not installed",
    "foreign": "another skill of that name, left alone",
}


def _skill_state(entry: dict[str, Any], skill: dict[str, Any]) -> str:
    """The skill's state in words; a shared folder names the other hosts using it."""
    state = SKILL_STATES[skill["state"]]
    users = skill.get("shared_with") or []
    if not users or skill["state"] == "missing":
        return state
    which = f"{', '.join(users)}, which read{'s' if len(users) == 1 else ''} the same folder"
    if entry["installed"]:
        return f"{state}; shared with {which}"
    return f"{state}, kept for {which}"


def _changes(changes: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """``(verb, path)`` per change; the skill's files as one line per verb and folder."""
    marker = f"{os.sep}skills{os.sep}memhooks{os.sep}"
    out: list[tuple[str, str]] = []
    skill: dict[tuple[str, str], int] = {}
    for change in changes:
        path = change["path"]
        if marker in path:
            key = (change["action"], path[: path.index(marker) + len(marker)])
            skill[key] = skill.get(key, 0) + 1
        else:
            why = change.get("why")
            out.append((change["action"], f"{path} ({why})" if why else path))
    for (verb, folder), count in skill.items():
        out.append((verb, f"{folder} (the memhooks skill: {count} files)"))
    return out
