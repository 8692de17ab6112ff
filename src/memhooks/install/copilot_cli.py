"""GitHub Copilot CLI: ``.github/hooks/memhooks.json`` (project) or
``$COPILOT_HOME/hooks/memhooks.json`` (user, default ``~/.copilot/hooks``), a file of our own.

Events: ``userPromptSubmitted`` (recall; top-level ``additionalContext`` is appended to the
prompt in a ``<system_reminder>``, seen with 1.0.102) and ``postToolUse`` (hook
maintenance). Copilot's payloads name no event, so the command passes it.
"""

from __future__ import annotations

import os

from . import command, eventmap
from .base import PROJECT, USER, Context, Edit, Status

NAME = "copilot-cli"
LEVELS: tuple[str, ...] = (PROJECT, USER)
EVENTS: tuple[str, ...] = ("userPromptSubmitted", "postToolUse")
CHANNEL: str = "userPromptSubmitted additionalContext (appended to the prompt as <system_reminder>)"
APPROVAL: str | None = (
    "Copilot CLI loads a repository's hooks only in a trusted folder: accept the folder-trust prompt once"
)
SKELETON = {"version": 1, "hooks": {}}


def config_path(ctx: Context) -> str:
    if ctx.level == PROJECT:
        return os.path.join(ctx.root, ".github", "hooks", "memhooks.json")
    return os.path.join(ctx.env_dir("COPILOT_HOME", ".copilot"), "hooks", "memhooks.json")


def entries(ctx: Context) -> dict[str, list[dict[str, object]]]:
    return {
        event: [
            {
                "type": "command",
                "bash": command.shell(NAME, event, ctx.roles, ctx.exe),
                "timeoutSec": 10,
            }
        ]
        for event in EVENTS
    }


def install(ctx: Context) -> list[Edit]:
    return eventmap.install_edits(config_path(ctx), entries(ctx), SKELETON)


def uninstall(ctx: Context) -> list[Edit]:
    return eventmap.uninstall_edits(config_path(ctx), SKELETON)


def status(ctx: Context) -> Status:
    found: Status = eventmap.status_of(NAME, ctx.level, config_path(ctx))
    if found.installed and ctx.level == PROJECT:
        found.todo.append(str(APPROVAL))
    return found


def skills_dir(ctx: Context) -> str:
    """Where the memhooks Agent Skill goes (Copilot CLI 1.0.102 reads both (verified))."""
    return ctx.path(".github/skills", ".copilot/skills")
