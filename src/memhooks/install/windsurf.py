"""Windsurf (Devin) Cascade: ``.windsurf/hooks.json`` (project) or
``~/.codeium/windsurf/hooks.json`` (user).

Event: ``post_write_code`` (hook maintenance) only. Windsurf has no documented way for
hook output to reach the model (``pre_user_prompt`` can only block; stdout goes to the
user with ``show_output``), so memhooks recalls nothing there: a known gap.
"""

from __future__ import annotations

from . import command, eventmap
from .base import PROJECT, USER, Context, Edit, Status

NAME = "windsurf"
LEVELS: tuple[str, ...] = (PROJECT, USER)
EVENTS: tuple[str, ...] = ("post_write_code",)
CHANNEL: str = "none: Windsurf hooks cannot add context for the model (maintenance only)"
APPROVAL: str | None = None
SKELETON: dict[str, object] = {"hooks": {}}


def config_path(ctx: Context) -> str:
    return ctx.path(".windsurf/hooks.json", ".codeium/windsurf/hooks.json")


def entries(ctx: Context) -> dict[str, list[dict[str, object]]]:
    cmd = command.shell(NAME, roles=ctx.roles, exe=ctx.exe)
    return {"post_write_code": [{"command": cmd, "show_output": False}]}


def install(ctx: Context) -> list[Edit]:
    return eventmap.install_edits(config_path(ctx), entries(ctx), SKELETON)


def uninstall(ctx: Context) -> list[Edit]:
    return eventmap.uninstall_edits(config_path(ctx), SKELETON)


def status(ctx: Context) -> Status:
    found: Status = eventmap.status_of(NAME, ctx.level, config_path(ctx))
    if found.installed:
        found.todo.append(
            "recall is not injected in Windsurf (no model-visible hook output); only hook maintenance runs"
        )
    return found


def skills_dir(ctx: Context) -> str:
    """Where the memhooks Agent Skill goes (Windsurf's docs (not run here))."""
    return ctx.path(".windsurf/skills", ".codeium/windsurf/skills")
