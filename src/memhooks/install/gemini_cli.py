"""Gemini CLI: ``.gemini/settings.json`` (project) or ``~/.gemini/settings.json`` (user).

Events: ``BeforeAgent`` (recall; ``hookSpecificOutput.additionalContext`` becomes a
``<hook_context>`` part of the user's turn) and ``AfterTool`` on ``write_file|replace``
(hook maintenance). Timeouts are milliseconds here. Gemini CLI warns once about new
project hooks and runs them; headless runs need a trusted folder.
"""

from __future__ import annotations

from . import command, eventmap, jsonc
from .base import PROJECT, USER, Context, Edit, Status
from .files import read

NAME = "gemini-cli"
LEVELS: tuple[str, ...] = (PROJECT, USER)
EVENTS: tuple[str, ...] = ("BeforeAgent", "AfterTool")
CHANNEL: str = (
    "BeforeAgent hookSpecificOutput.additionalContext (a <hook_context> part of the user turn)"
)
APPROVAL: str | None = None
MATCHER = "write_file|replace"


def config_path(ctx: Context) -> str:
    return ctx.path(".gemini/settings.json", ".gemini/settings.json")


def entries(ctx: Context) -> dict[str, list[dict[str, object]]]:
    cmd = command.shell(NAME, roles=ctx.roles, exe=ctx.exe)
    prompt = {"type": "command", "name": "memhooks-recall", "command": cmd, "timeout": 10000}
    edits = {"type": "command", "name": "memhooks-maintain", "command": cmd, "timeout": 10000}
    return {
        "BeforeAgent": [{"hooks": [prompt]}],
        "AfterTool": [{"matcher": MATCHER, "hooks": [edits]}],
    }


def install(ctx: Context) -> list[Edit]:
    return eventmap.install_edits(config_path(ctx), entries(ctx))


def uninstall(ctx: Context) -> list[Edit]:
    return eventmap.uninstall_edits(config_path(ctx), {})


def status(ctx: Context) -> Status:
    found: Status = eventmap.status_of(NAME, ctx.level, config_path(ctx))
    if not found.installed:
        return found
    try:
        settings = jsonc.parse(read(config_path(ctx)) or "{}").value
    except jsonc.JsoncError:
        settings = {}
    hooks_config = settings.get("hooksConfig") if isinstance(settings, dict) else None
    if isinstance(hooks_config, dict) and hooks_config.get("enabled") is False:
        found.problems.append("hooks are disabled (hooksConfig.enabled = false)")
        found.fires = False
    if ctx.level == PROJECT:
        found.todo.append(
            "headless runs need a trusted folder: GEMINI_CLI_TRUST_WORKSPACE=true or --skip-trust"
        )
    return found


def skills_dir(ctx: Context) -> str:
    """Where the memhooks Agent Skill goes (Gemini CLI 0.61.0: the project folder only when started there, like its settings (verified))."""
    return ctx.path(".gemini/skills", ".gemini/skills")
