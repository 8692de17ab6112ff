"""Installers: put memhooks' hook into each agent host's config, take it out, report it.

Public API::

    INSTALLERS                          agent name -> Host (hosts.py; rows in memhooks.agents)
    Context(root, level, ...)           where and how (base.py)
    plan(action, agent, ctx, capture=, mcp=) -> list[Edit]     "install" / "uninstall", computed, not written
    apply(edits)                        write them atomically
    status(agent, ctx) -> Status        one level, with where it fires (reach.py) and the repair
                                        command when it no longer reaches memhooks
    present(ctx) -> list[Found]         which hosts are on this machine (detect.py)

What one host needs is data in its ``INSTALL`` row (``memhooks.agents.<host>``, keys in
``memhooks.agents.wiring``); the behaviour modules here turn rows into edits. Hosts that
read Agent Skills also get the memhooks skill (``skill.py``), installed and removed with
the hooks and reported in ``Status.skill``. ``mcp=True`` also registers the MCP server
``memhooks mcp`` where the host's MCP config is known (``mcp_servers.py``). At project
level, files an install creates that hold this machine's path to memhooks are kept out of
git (``gitexclude.py``). Commands run the launcher (``launcher.py``), one path per user
that the install writes and that survives upgrades; ``launcher_state.py`` tells what
running it does now.

Only our own entries are ever added or removed: other tools' hooks, comments (JSONC,
YAML), key order and indentation survive (see ``jsonc.py``, ``eventmap.py``,
``yamlconf.py``). Raises ``memhooks.errors.UsageError`` for an unknown agent or a level
the host does not have, :class:`InstallError` (MH028, naming the file, line and column)
for a config file that cannot be read or merged.
"""

from __future__ import annotations

import os

from . import (
    capture_events,
    gitexclude,
    launcher,
    launcher_state,
    mcp_servers,
    plugin_state,
    reach,
    retire,
    skill,
)
from .base import PROJECT, USER, Context, Edit, InstallError, Status
from .command import suggest, target
from .detect import find
from .files import read, remove, write
from .hosts import INSTALLERS, Host, host

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .detect import Found

__all__ = [
    "INSTALLERS",
    "PROJECT",
    "USER",
    "Context",
    "Edit",
    "Host",
    "InstallError",
    "Status",
    "apply",
    "host",
    "plan",
    "present",
    "status",
]


def _host(agent: str, ctx: Context) -> Host:
    found = host(agent)
    found.config_path(ctx)  # UsageError for a level the host does not have
    return found


def plan(
    action: str, agent: str, ctx: Context, capture: bool = False, mcp: bool = False
) -> list[Edit]:
    """The edits ``action`` (``install`` or ``uninstall``) needs for ``agent``;
    ``capture``: also wire (or, uninstalling, only remove) the events opt-in capture
    uses (``capture_events.py``); ``mcp``: also register (or, uninstalling, only
    remove) the MCP server (``mcp_servers.py``). A plain uninstall removes everything."""
    found = _host(agent, ctx)
    try:
        extra = capture_events.plan(action, found, ctx, capture)
        carried = plugin_state.active(found, ctx) if action == "install" else None
        if carried is not None and carried.enabled:
            return _carried(found, ctx, carried.ref)
        if action == "uninstall" and (capture or mcp):
            # only what was named goes; the hooks and skill stay
            edits: list[Edit] = (extra or []) if capture else []
        else:
            behaviour = found.behaviour
            edits = getattr(behaviour, action)(found, ctx) if extra is None else extra
            edits += getattr(skill, action)(found, ctx)
        if action == "install":
            want = True if mcp else None  # a plain install leaves a registered server be
        else:
            want = False if mcp or not capture else None
        edits = mcp_servers.plan(agent, ctx, want, edits)
        if action == "install":
            edits = launcher.plan(ctx) + edits + retire.record(ctx, edits)
        else:
            edits += retire.plan(ctx, edits)
        if ctx.level == PROJECT:
            edits += gitexclude.plan(ctx, edits)
        return edits
    except InstallError:
        raise
    except (ValueError, OSError) as exc:
        raise InstallError.at(agent, found.config_path(ctx), exc) from exc


def _carried(found: Host, ctx: Context, ref: str) -> list[Edit]:
    """An install for a host that has memhooks' plugin ``ref``: the plugin wires the
    hooks, the skill and the MCP server, so ours go from the host's config (never
    twice); the launcher, which the plugin runs first, is written."""
    edits = found.behaviour.uninstall(found, ctx) + skill.uninstall(found, ctx)
    edits = mcp_servers.plan(found.name, ctx, False, edits)
    for change in edits:
        change.why = change.why or f"the memhooks plugin {ref} carries it"
    edits = launcher.plan(ctx) + edits
    return edits + (gitexclude.plan(ctx, edits) if ctx.level == PROJECT else [])


def apply(edits: list[Edit]) -> None:
    """Write (or delete) every edit's file, each atomically."""
    for edit in edits:
        if edit.text is None:
            remove(edit.path)
        else:
            write(edit.path, edit.text, edit.mode)


def status(agent: str, ctx: Context) -> Status:
    """``agent``'s installation at ``ctx.level``: files, events, whether and where it
    fires (``fires_when``; notes when a way of starting the host gets nothing), the
    channels that carry context to the model, the skill."""
    found_host = _host(agent, ctx)
    found = _level_status(found_host, ctx)
    if not _plugin(found_host, ctx, found):
        skill.report(found_host, ctx, found)
    delivery = found_host.delivery
    if delivery is not None:
        found.prompt_channel = delivery.prompt_channel
        found.tool_channel = delivery.tool_channel
        found.edit_channel = delivery.edit_channel
    others = [level for level in found_host.LEVELS if level != ctx.level]
    other = None
    if others:
        other = _level_status(found_host, ctx.at(others[0]))
    reach.annotate(found_host, ctx, found, other)
    _repair(found_host, ctx, found)
    if found.installed and found_host.wiring.get("reads"):
        reach.overlaps(found_host, ctx, found, _others(found_host, ctx))
    return found


def _plugin(host: Host, ctx: Context, found: Status) -> bool:
    """Report memhooks' plugin for ``host`` (user level): the hooks it wires, or the
    same events wired twice; True when the plugin is what fires (it carries the skill)."""
    carried = plugin_state.active(host, ctx) if ctx.level == USER else None
    if carried is None:
        return False
    found.plugin = {"ref": carried.ref, "path": carried.path, "enabled": carried.enabled}
    title = host.wiring.get("title", host.name)
    again = suggest("install", host.name, ctx.level, host.default_level)
    if not carried.enabled:
        found.notes.append(
            f"the memhooks plugin {carried.ref} is installed in {title} but disabled"
        )
        return False
    if found.installed:
        found.notes.append(
            f"wired twice: by the plugin {carried.ref} and in {', '.join(found.files)}: "
            f"{title} handles every event twice; `{again}` takes memhooks out of "
            f"{', '.join(found.files)} (the plugin keeps it)"
        )
        return False
    found.files, found.events, found.fires = [carried.hooks_file], list(carried.hooks()), True
    where = os.path.join(carried.path, "skills", "memhooks")
    found.skill = {"path": where, "state": "installed", "shared_with": []}
    now = launcher_state.state(ctx.launcher) if ctx.launcher else launcher_state.MISSING
    if now == launcher_state.REINSTALLED:
        found.notes.append(_reinstalled(ctx.launcher, again))
        found.repair = again
    elif now != launcher_state.OK and launcher_state.fallback() is None:
        found.problems.append(f"no memhooks for the plugin to run (the launcher: {now})")
        found.fires, found.repair = False, again
    elif now != launcher_state.OK:
        found.runs = _elsewhere()
        found.notes.append(
            f"the plugin runs {found.runs['program']} (slower): "
            f"`{again}` writes the launcher it runs first"
        )
        found.repair = again
    approval = host.wiring.get("approval")
    if approval:
        found.todo.append(approval)
        found.fires = None if found.fires else found.fires
    remove = host.wiring["plugin"]["remove"].format(ref=carried.ref)
    runs = remove.split()[0] in host.wiring.get("programs", ())  # a command, or where to click
    how = f"with `{remove}`" if runs else f"in {remove}"
    found.notes.append(f"`memhooks agents uninstall` leaves the plugin: remove it {how}")
    return True


def _repair(host: Host, ctx: Context, found: Status) -> None:
    """Say how to repair an install whose commands no longer reach memhooks, or whose
    launcher runs another memhooks than the one it names."""
    again = suggest("install", host.name, ctx.level, host.default_level)
    if found.stale:
        found.repair = again
        return
    uses = ctx.launcher is not None and any(
        ctx.launcher in (read(path) or "") for path in found.files if os.path.isfile(path)
    )
    if not found.installed or not uses:
        return
    assert ctx.launcher is not None
    now = launcher_state.state(ctx.launcher)
    names = launcher_state.points_at(ctx.launcher)
    if now == launcher_state.MOVED and names is not None:
        found.runs = _elsewhere()
        found.notes.append(
            f"the launcher {ctx.launcher} names a memhooks that is gone ({names[0]}); "
            f"it runs {found.runs['program']} instead, a little slower"
        )
        found.repair = again
    elif now == launcher_state.REINSTALLED:
        found.notes.append(_reinstalled(ctx.launcher, again))
        found.repair = again
    elif now == launcher_state.OK and names is not None and names != target():
        found.notes.append(
            f"the launcher {ctx.launcher} starts the memhooks of {names[0]}, not this one: "
            f"`{again}` switches it to this one"
        )


def _reinstalled(launcher: str | None, again: str) -> str:
    """The note for a launcher whose ``__main__.py`` is gone while its interpreter imports
    a memhooks installed again in its environment (:data:`launcher_state.REINSTALLED`)."""
    names = launcher_state.points_at(launcher) if launcher else None
    python, main = names or ("?", "?")
    return (
        f"the launcher {launcher} names {main}, which is gone; {python} runs the memhooks "
        f"installed again in its environment, a little slower: `{again}` re-points it"
    )


def _elsewhere() -> dict[str, str | None]:
    """``Status.runs``: the memhooks a launcher whose installation is gone runs."""
    program = launcher_state.fallback()
    assert program is not None
    return {"program": program, "version": launcher_state.version(program)}


def _others(found: Host, ctx: Context) -> dict[tuple[str, str], Status]:
    """The installs of the hosts ``found`` reads (``reads`` in its row), every level."""
    names = {spec.partition("@")[0] for spec in found.wiring.get("reads", ())}
    out = {}
    for name in sorted(names):
        other = host(name)
        for level in other.LEVELS:
            out[(name, level)] = _level_status(other, ctx.at(level))
    return out


def _level_status(found: Host, ctx: Context) -> Status:
    state: Status = found.behaviour.status(found, ctx)
    return state


def present(ctx: Context) -> list[Found]:
    """Every host, with why it counts as present on this machine (``PATH``, home)."""
    return [find(h, ctx) for h in INSTALLERS.values()]
