"""Who runs the launcher (:mod:`.launcher`), and the edit that removes it after the last:
``agents uninstall`` leaves no file of memhooks' behind that nothing runs (issue 24).

Runners are what memhooks can see: every host's configuration at the user level and in
the project at hand — its hooks, its MCP server entry, Cline's hook scripts — that names
the launcher, and memhooks' plugin in a host (the plugin runs the launcher first). A
project-level install in another project is not seen: once the launcher is gone its
hooks fail open (the shell names the missing file) and ``agents status`` there prints
the repair.
"""

from __future__ import annotations

import os

from . import mcp_servers, plugin_state
from .base import Edit
from .files import read
from .hosts import INSTALLERS
from .launcher_state import points_at

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from .base import Context


def runners(ctx: Context, pending: Sequence[Edit] = ()) -> list[str]:
    """What runs the launcher at ``ctx.launcher`` once ``pending`` is applied (the files
    that name it, and ``memhooks' plugin <ref>``; see the module docstring)."""
    launcher = ctx.launcher
    if launcher is None:
        return []
    after = {e.path: e.text for e in pending}
    found = []
    for host in INSTALLERS.values():
        paths = [host.config_path(ctx, level) for level in host.LEVELS]
        for level in host.LEVELS:
            mcp = mcp_servers.location(host.name, ctx.at(level))
            paths += [mcp[0]] if mcp else []
        for path in dict.fromkeys(paths):
            inside = (
                [os.path.join(path, n) for n in _names(path)] if os.path.isdir(path) else [path]
            )
            found += [
                f for f in inside if launcher in ((after[f] if f in after else read(f)) or "")
            ]
        plugin = plugin_state.active(host, ctx)
        if plugin is not None:
            found.append(f"memhooks' plugin {plugin.ref}")
    return found


def _names(folder: str) -> list[str]:
    try:
        return sorted(os.listdir(folder))
    except OSError:
        return []


def plan(ctx: Context, pending: list[Edit]) -> list[Edit]:
    """The edit that removes the launcher when, ``pending`` applied, nothing runs it
    (:func:`runners`); [] while something does. A file there that is not ours stays."""
    where = ctx.launcher
    if where is None or points_at(where) is None or runners(ctx, pending):
        return []
    gone = Edit(where, None, read(where))
    gone.why = "nothing memhooks can see runs the launcher any more"
    return [gone]
