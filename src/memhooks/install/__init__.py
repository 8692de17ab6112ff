"""Installers: put memhooks' hook into each agent host's config, take it out, report it.

Public API::

    INSTALLERS                          agent name -> installer module (registry.py)
    Context(root, level, ...)           where and how (base.py)
    plan(action, agent, ctx, capture=, mcp=) -> list[Edit]     "install" / "uninstall", computed, not written
    apply(edits)                        write them atomically
    status(agent, ctx) -> Status

Hosts that read Agent Skills also get the memhooks skill (``skill.py``), installed and
removed with the hooks and reported in ``Status.skill``. ``mcp=True`` also registers
the MCP server ``memhooks mcp`` where the host's MCP config is known (``mcp_servers.py``).

Only our own entries are ever added or removed: other tools' hooks, comments (JSONC,
YAML), key order and indentation survive (see ``jsonc.py``, ``eventmap.py``,
``yamlconf.py``). Raises ``memhooks.errors.UsageError`` for an unknown agent or a level
the host does not have, ``InstallError`` for a config file that cannot be read or merged.
"""

from __future__ import annotations

from ..errors import MemhooksError, UsageError
from .base import PROJECT, USER, Context, Edit, Status
from .registry import INSTALLERS

__all__ = [
    "INSTALLERS",
    "PROJECT",
    "USER",
    "Context",
    "Edit",
    "InstallError",
    "Status",
    "apply",
    "plan",
    "status",
]


class InstallError(MemhooksError):
    """An agent's config file could not be read, parsed or merged."""


def _installer(agent: str, ctx: Context) -> object:
    installer = INSTALLERS.get(agent)
    if installer is None:
        raise UsageError(f"unknown agent {agent!r}; expected one of: {', '.join(INSTALLERS)}")
    if ctx.level not in installer.LEVELS:
        raise UsageError(f"{agent} has no {ctx.level}-level config; use --{installer.LEVELS[0]}")
    return installer


def plan(
    action: str, agent: str, ctx: Context, capture: bool = False, mcp: bool = False
) -> list[Edit]:
    """The edits ``action`` (``install`` or ``uninstall``) needs for ``agent``;
    ``capture``: also wire (or, uninstalling, only remove) the events opt-in capture
    uses (``capture_events.py``); ``mcp``: also register (or, uninstalling, only
    remove) the MCP server (``mcp_servers.py``). A plain uninstall removes everything."""
    from . import capture_events, mcp_servers, skill

    installer = _installer(agent, ctx)
    try:
        extra = capture_events.plan(action, installer, ctx, capture)
        if action == "uninstall" and (capture or mcp):
            # only what was named goes; the hooks and skill stay
            edits: list[Edit] = (extra or []) if capture else []
        else:
            edits = getattr(installer, action)(ctx) if extra is None else extra
            edits += getattr(skill, action)(installer, ctx)
        if action == "install":
            want = True if mcp else None  # a plain install leaves a registered server be
        else:
            want = False if mcp or not capture else None
        return mcp_servers.plan(agent, ctx, want, edits)
    except (ValueError, OSError) as exc:
        raise InstallError(f"{agent}: {exc}") from exc


def apply(edits: list[Edit]) -> None:
    """Write (or delete) every edit's file, each atomically."""
    from .files import remove, write

    for edit in edits:
        if edit.text is None:
            remove(edit.path)
        else:
            write(edit.path, edit.text, edit.mode)


def status(agent: str, ctx: Context) -> Status:
    from . import skill

    installer = _installer(agent, ctx)
    found: Status = installer.status(ctx)  # type: ignore[attr-defined]
    skill.report(installer, ctx, found)
    return found
