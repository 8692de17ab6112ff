"""Cursor: ``.cursor/hooks.json`` (project) or ``~/.cursor/hooks.json`` (user).

Events: ``sessionStart`` (recall; ``additional_context``: Cursor cannot inject at prompt
time, ``beforeSubmitPrompt`` may only allow or block, and sessionStart does not wait, so
the context can arrive after the first prompt) and ``afterFileEdit`` (hook maintenance).
"""

from __future__ import annotations

from . import command, eventmap
from .base import PROJECT, USER, Context, Edit, Status

NAME = "cursor"
LEVELS: tuple[str, ...] = (PROJECT, USER)
EVENTS: tuple[str, ...] = ("sessionStart", "afterFileEdit")
CHANNEL: str = "sessionStart additional_context (no prompt-time channel in Cursor)"
APPROVAL: str | None = None
SKELETON = {"version": 1, "hooks": {}}


def config_path(ctx: Context) -> str:
    return ctx.path(".cursor/hooks.json", ".cursor/hooks.json")


def entries(ctx: Context) -> dict[str, list[dict[str, object]]]:
    cmd = command.shell(NAME, roles=ctx.roles, exe=ctx.exe)
    return {event: [{"command": cmd, "timeout": 10}] for event in EVENTS}


def install(ctx: Context) -> list[Edit]:
    return eventmap.install_edits(config_path(ctx), entries(ctx), SKELETON)


def uninstall(ctx: Context) -> list[Edit]:
    return eventmap.uninstall_edits(config_path(ctx), SKELETON)


def status(ctx: Context) -> Status:
    found: Status = eventmap.status_of(NAME, ctx.level, config_path(ctx))
    return found


def skills_dir(ctx: Context) -> str:
    """Where the memhooks Agent Skill goes (Cursor's docs (not run here))."""
    return ctx.path(".cursor/skills", ".cursor/skills")
