"""Kiro IDE (>= 1.0) and Kiro CLI v3 file hooks: ``.kiro/hooks/memhooks.json`` (project) or
``~/.kiro/hooks/memhooks.json`` (user), a file of our own in Kiro's list format.

Events: ``UserPromptSubmit`` (recall; plain stdout at exit 0 reaches the agent) and
``PostToolUse`` on ``fs_write|fs_append`` (hook maintenance). Kiro CLI's agent-config
hooks (``.kiro/agents/*.json``) and the legacy ``*.kiro.hook`` files are not written.
"""

from __future__ import annotations

import json
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

from . import command
from .base import PROJECT, USER, Context, Edit, Status, edit
from .files import read

NAME = "kiro"
LEVELS: tuple[str, ...] = (PROJECT, USER)
EVENTS: tuple[str, ...] = ("UserPromptSubmit", "PostToolUse")
CHANNEL: str = "UserPromptSubmit plain stdout"
APPROVAL: str | None = None


def config_path(ctx: Context) -> str:
    return ctx.path(".kiro/hooks/memhooks.json", ".kiro/hooks/memhooks.json")


def entries(ctx: Context) -> list[dict[str, object]]:
    cmd = command.shell(NAME, roles=ctx.roles, exe=ctx.exe)
    return [
        {
            "name": "memhooks-recall",
            "trigger": "UserPromptSubmit",
            "action": {"type": "command", "command": cmd},
            "timeout": 10,
            "enabled": True,
        },
        {
            "name": "memhooks-maintain",
            "trigger": "PostToolUse",
            "matcher": "fs_write|fs_append",
            "action": {"type": "command", "command": cmd},
            "timeout": 10,
            "enabled": True,
        },
    ]


def _ours(hook: object) -> bool:
    action = hook.get("action") if isinstance(hook, dict) else None
    return isinstance(action, dict) and command.is_ours(action.get("command"))


def _load(text: str | None) -> dict[str, Any]:
    data = json.loads(text) if text and text.strip() else {"version": "v1", "hooks": []}
    if not isinstance(data, dict) or not isinstance(data.get("hooks", []), list):
        raise ValueError('not a Kiro hooks file (expected {"version", "hooks": [...]})')  # noqa: TRY004  reported as a config error
    return data


def install(ctx: Context) -> list[Edit]:
    data = _load(read(config_path(ctx)))
    hooks = [h for h in data.get("hooks", []) if not _ours(h)]
    data["hooks"] = hooks + entries(ctx)
    return edit(config_path(ctx), json.dumps(data, indent=2) + "\n")


def uninstall(ctx: Context) -> list[Edit]:
    text = read(config_path(ctx))
    if text is None:
        return []
    data = _load(text)
    hooks = [h for h in data.get("hooks", []) if not _ours(h)]
    if len(hooks) == len(data.get("hooks", [])):
        return []
    data["hooks"] = hooks
    return edit(config_path(ctx), json.dumps(data, indent=2) + "\n" if hooks else None)


def status(ctx: Context) -> Status:
    found = Status(NAME, ctx.level)
    path = config_path(ctx)
    try:
        data = _load(read(path))
    except ValueError as exc:
        found.problems.append(f"{path}: {exc}")
        return found
    for hook in data.get("hooks", []):
        if _ours(hook) and hook.get("enabled", True):
            found.events.append(str(hook.get("trigger")))
            if not command.runnable(hook["action"]["command"]):
                found.problems.append(f"program not found: {hook['action']['command']}")
    if found.events:
        found.files.append(os.path.abspath(path))
        found.fires = not found.problems
    return found


def skills_dir(ctx: Context) -> str:
    """Where the memhooks Agent Skill goes (Kiro's docs (not run here))."""
    return ctx.path(".kiro/skills", ".kiro/skills")
