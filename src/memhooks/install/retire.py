"""Who runs the launcher (:mod:`.launcher`), and the edit that removes it after the last:
``agents uninstall`` leaves no file of memhooks' behind that nothing runs (issue 24).

Runners are what memhooks can see: every host's configuration at the user level and in
the project at hand — its hooks, its MCP server entry, Cline's hook scripts — that names
the launcher, memhooks' plugin in a host (the plugin runs the launcher first), and the
project-level configurations an install wrote it into anywhere: a project install
records them beside the launcher (:func:`record`, ``<launcher>.projects``, one path a
line), so an uninstall in one project never takes the launcher from another. Only a
user-level uninstall removes it; a project-level one never does (a project installed by
a memhooks older than the record is not known: ``agents install`` there records it).
"""

from __future__ import annotations

import os

from . import mcp_servers, plugin_state
from .base import PROJECT, Edit, edit
from .files import read
from .hosts import INSTALLERS
from .launcher_state import points_at

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from .base import Context

#: The record of project-level configurations that run the launcher: beside it.
PROJECTS = ".projects"


def runners(ctx: Context, pending: Sequence[Edit] = ()) -> list[str]:
    """What runs the launcher at ``ctx.launcher`` once ``pending`` is applied (the files
    that name it, and ``memhooks' plugin <ref>``; see the module docstring)."""
    launcher = ctx.launcher
    if launcher is None:
        return []
    after = {e.path: e.text for e in pending}
    found = [p for p in recorded(launcher) if launcher in _text(p, after)]
    levels = {level for host in INSTALLERS.values() for level in host.LEVELS}
    found += [f for f in _configs(ctx, levels) if launcher in _text(f, after)]
    for host in INSTALLERS.values():
        plugin = plugin_state.active(host, ctx)
        if plugin is not None:
            found.append(f"memhooks' plugin {plugin.ref}")
    return list(dict.fromkeys(found))


def _configs(ctx: Context, levels: set[str]) -> list[str]:
    """Every host's configuration files at ``levels`` (user; the project of ``ctx``):
    its hooks' file (a folder's files: Cline's hook scripts) and its MCP servers' file."""
    paths = []
    for host in INSTALLERS.values():
        for level in levels & set(host.LEVELS):
            paths.append(host.config_path(ctx, level))
            mcp = mcp_servers.location(host.name, ctx.at(level))
            paths += [mcp[0]] if mcp else []
    files = []
    for path in dict.fromkeys(paths):
        files += [os.path.join(path, n) for n in _names(path)] if os.path.isdir(path) else [path]
    return files


def _text(path: str, after: dict[str, str | None]) -> str:
    """What ``path`` holds once the pending edits ``after`` are applied."""
    return (after[path] if path in after else read(path)) or ""


def _names(folder: str) -> list[str]:
    try:
        return sorted(os.listdir(folder))
    except OSError:
        return []


def recorded(launcher: str) -> list[str]:
    """The project-level configuration files installs wrote ``launcher`` into."""
    return (read(launcher + PROJECTS) or "").splitlines()


def record(ctx: Context, pending: Sequence[Edit]) -> list[Edit]:
    """The edit that adds to the record beside the launcher every project-level
    configuration file of the project of ``ctx`` (an install at the project level) that
    runs it once ``pending`` is applied — written now or before: a project installed by a
    memhooks older than the record is recorded by installing again; [] when all are in."""
    launcher = ctx.launcher
    if launcher is None or ctx.level != PROJECT:
        return []
    after = {e.path: e.text for e in pending}
    known = recorded(launcher)
    here = [f for f in _configs(ctx, {PROJECT}) if launcher in _text(f, after)]
    new = [f for f in here if f not in known]
    return edit(launcher + PROJECTS, "".join(f"{p}\n" for p in [*known, *new])) if new else []


def plan(ctx: Context, pending: list[Edit]) -> list[Edit]:
    """The edits that remove the launcher and its record when, ``pending`` applied,
    nothing runs it (:func:`runners`) — only at the user level: [] for a project-level
    uninstall, or while something runs it. A file there that is not ours stays."""
    where = ctx.launcher
    if where is None or ctx.level == PROJECT or points_at(where) is None:
        return []
    if runners(ctx, pending):
        return []
    gone = [Edit(where, None, read(where))] + edit(where + PROJECTS, None)
    for change in gone:
        change.why = "nothing memhooks can see runs the launcher any more"
    return gone
