"""OpenAI Codex CLI: ``.codex/hooks.json`` (project) or ``$CODEX_HOME/hooks.json`` (user).

Events: ``UserPromptSubmit`` (recall; ``hookSpecificOutput.additionalContext`` becomes its
own ``developer`` message) and ``PostToolUse`` on ``apply_patch`` (hook maintenance).
Codex silently skips hooks until the user approves them (``/hooks``), loads project hooks
only in a trusted project, and honours ``[features] hooks = false``.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

from . import command, eventmap
from .base import PROJECT, USER, Context, Edit, Status

NAME = "codex"
LEVELS: tuple[str, ...] = (PROJECT, USER)
EVENTS: tuple[str, ...] = ("UserPromptSubmit", "PostToolUse")
CHANNEL: str = "UserPromptSubmit hookSpecificOutput.additionalContext (a developer message)"
APPROVAL: str | None = (
    "Codex skips new hooks until they are reviewed: start `codex`, open /hooks and approve "
    "memhooks' two hooks (`codex exec` cannot ask: pass --dangerously-bypass-hook-trust)"
)
MATCHER = "apply_patch|Edit|Write"


def home(ctx: Context) -> str:
    return ctx.env_dir("CODEX_HOME", ".codex")


def config_path(ctx: Context) -> str:
    return (
        os.path.join(ctx.root, ".codex", "hooks.json")
        if ctx.level == PROJECT
        else os.path.join(home(ctx), "hooks.json")
    )


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
    if not found.installed:
        return found
    config = _config(os.path.join(home(ctx), "config.toml"))
    features = config.get("features") or {}
    if (
        isinstance(features, dict)
        and features.get("hooks") is False
        or features.get("codex_hooks") is False
    ):
        found.problems.append("hooks are disabled in config.toml ([features] hooks = false)")
    projects = config.get("projects") or {}
    trusted = (
        isinstance(projects, dict)
        and (projects.get(ctx.root) or {}).get("trust_level") == "trusted"
    )
    if ctx.level == PROJECT and not trusted:
        found.todo.append(
            f"trust the project: run `codex` in {ctx.root} and accept, or pass --trust once"
        )
    found.todo.append(str(APPROVAL))
    # Approvals live inside Codex; from here we cannot tell whether they were given.
    found.fires = None if not found.problems else False
    return found


def _config(path: str) -> dict[str, Any]:
    try:
        import tomllib
    except ImportError:  # Python 3.10: no reader in the standard library
        return {}
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except (OSError, ValueError):
        return {}


def skills_dir(ctx: Context) -> str:
    """Where the memhooks Agent Skill goes (Codex 0.171.0 reads both (verified); its docs name these folders)."""
    return ctx.path(".agents/skills", ".agents/skills")
