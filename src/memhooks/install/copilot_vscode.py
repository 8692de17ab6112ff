"""GitHub Copilot agent hooks in VS Code: ``.github/hooks/memhooks-vscode.json`` (project)
or ``~/.copilot/hooks/memhooks-vscode.json`` (user), a file of our own.

Events: ``SessionStart`` (recall; ``hookSpecificOutput.additionalContext``; VS Code's
``UserPromptSubmit`` cannot inject, so recall happens once per session, from the folder's
cues without the prompt) and ``PostToolUse`` (hook maintenance; VS Code ignores matchers).
Copilot CLI reads the same folder: install one of the two per project, or both fire.
"""

from __future__ import annotations

import os

from . import command, eventmap
from .base import PROJECT, USER, Context, Edit, Status

NAME = "copilot-vscode"
LEVELS: tuple[str, ...] = (PROJECT, USER)
EVENTS: tuple[str, ...] = ("SessionStart", "PostToolUse")
CHANNEL: str = (
    "SessionStart hookSpecificOutput.additionalContext (UserPromptSubmit cannot inject in VS Code)"
)
APPROVAL: str | None = None
SKELETON: dict[str, object] = {"hooks": {}}


def config_path(ctx: Context) -> str:
    if ctx.level == PROJECT:
        return os.path.join(ctx.root, ".github", "hooks", "memhooks-vscode.json")
    return os.path.join(ctx.env_dir("COPILOT_HOME", ".copilot"), "hooks", "memhooks-vscode.json")


def entries(ctx: Context) -> dict[str, list[dict[str, object]]]:
    cmd = command.shell(NAME, roles=ctx.roles, exe=ctx.exe)
    return {event: [{"type": "command", "command": cmd, "timeout": 10}] for event in EVENTS}


def install(ctx: Context) -> list[Edit]:
    return eventmap.install_edits(config_path(ctx), entries(ctx), SKELETON)


def uninstall(ctx: Context) -> list[Edit]:
    return eventmap.uninstall_edits(config_path(ctx), SKELETON)


def status(ctx: Context) -> Status:
    found: Status = eventmap.status_of(NAME, ctx.level, config_path(ctx))
    sibling = os.path.join(os.path.dirname(config_path(ctx)), "memhooks.json")
    if found.installed and eventmap.installed(_read(sibling)):
        found.problems.append(
            f"Copilot CLI hooks in {sibling} are read by VS Code too: recall may run twice"
        )
    return found


def _read(path: str) -> str | None:
    from .files import read

    return read(path)


def skills_dir(ctx: Context) -> str:
    """Where the memhooks Agent Skill goes (GitHub's docs: agent mode in VS Code reads the same folders as Copilot CLI (not run here))."""
    return ctx.path(".github/skills", ".copilot/skills")
