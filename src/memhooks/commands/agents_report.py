"""The human form of an ``agents install|uninstall|status`` report (:mod:`.agents`'s JSON):
what changed or would change per host, then where its hook fires, which channel carries
context to the model, the capture and MCP wiring, the skill, and what is left to do.
"""

from __future__ import annotations

import os

from ..install.command import suggest

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


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
        runs = entry.get("runs")
        if runs and entry["fires"] is not False:  # not the memhooks it was installed from
            said = (
                f"memhooks {runs['version']}"
                if runs["version"]
                else "a memhooks of unknown version"
            )
            fires += f", but it runs another installation: {said} at {runs['program']}"
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
