"""Claude Code: ``.claude/settings.local.json`` (project, git-ignored by Claude Code: the
command holds this machine's path) or ``~/.claude/settings.json`` (user).

Events: ``UserPromptSubmit`` (recall; ``hookSpecificOutput.additionalContext`` reaches the
model as a mid-conversation system message, or a ``<system-reminder>`` in the user
message on older models) and ``PostToolUse`` on file tools (hook maintenance).
"""

from __future__ import annotations

from . import command, eventmap
from .base import PROJECT, USER, Context, Edit, Status

NAME = "claude-code"
LEVELS: tuple[str, ...] = (PROJECT, USER)
EVENTS: tuple[str, ...] = ("UserPromptSubmit", "PostToolUse")
CHANNEL: str = (
    "UserPromptSubmit hookSpecificOutput.additionalContext (a system message after the prompt)"
)
APPROVAL: str | None = None
MATCHER = "Write|Edit|MultiEdit|NotebookEdit"


def config_path(ctx: Context) -> str:
    return ctx.path(".claude/settings.local.json", ".claude/settings.json")


def entries(ctx: Context) -> dict[str, list[dict[str, object]]]:
    hook = {
        "type": "command",
        "command": command.shell(NAME, roles=ctx.roles, exe=ctx.exe),
        "timeout": 10,
    }
    return {
        "UserPromptSubmit": [{"hooks": [hook]}],
        "PostToolUse": [{"matcher": MATCHER, "hooks": [hook]}],
    }


def install(ctx: Context) -> list[Edit]:
    return eventmap.install_edits(config_path(ctx), entries(ctx))


def uninstall(ctx: Context) -> list[Edit]:
    return eventmap.uninstall_edits(config_path(ctx), {})


def status(ctx: Context) -> Status:
    found: Status = eventmap.status_of(NAME, ctx.level, config_path(ctx))
    if found.installed:
        found.todo.append("restart running Claude Code sessions: hooks are read at session start")
        if ctx.level == PROJECT:
            found.todo.append(
                f"Claude Code reads project settings from the folder it starts in: start it in {ctx.root} (or install with --user)"
            )
    return found


def skills_dir(ctx: Context) -> str:
    """Where the memhooks Agent Skill goes (Claude Code 2.1.197 reads both (verified))."""
    return ctx.path(".claude/skills", ".claude/skills")
