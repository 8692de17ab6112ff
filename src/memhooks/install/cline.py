"""Cline: one executable per event, ``.clinerules/hooks/<Event>`` (project) or
``~/Documents/Cline/Hooks/<Event>`` (user); each a two-line script of our own.

Events: ``UserPromptSubmit`` (recall; ``{"cancel": false, "contextModification"}`` is
wrapped in ``<hook_context>`` in the next request; Cline 4.x's SDK engine drops it for
TaskStart/UserPromptSubmit, cline/cline#13554: a known gap) and ``PostToolUse`` (hook
maintenance). A hook file someone else wrote is never replaced. Hooks must be enabled in
Cline (Settings, Features, Hooks) and the files executable.
"""

from __future__ import annotations

import os

from . import command
from .base import PROJECT, USER, Context, Edit, Status, edit
from .files import read

NAME = "cline"
LEVELS: tuple[str, ...] = (PROJECT, USER)
EVENTS: tuple[str, ...] = ("UserPromptSubmit", "PostToolUse")
CHANNEL: str = "UserPromptSubmit contextModification (dropped by Cline 4.x, cline/cline#13554)"
APPROVAL: str | None = (
    "enable hooks in Cline: Settings, Features, Hooks (CLI: `cline config set hooks-enabled=true`)"
)


def folder(ctx: Context) -> str:
    return ctx.path(".clinerules/hooks", "Documents/Cline/Hooks")


def script(ctx: Context, event: str) -> str:
    return f"#!/bin/sh\n# {command.MARKER}: `memhooks agents uninstall --agent cline` removes this file\nexec {command.shell(NAME, event, ctx.roles, ctx.exe)}\n"


def _ours(text: str | None) -> bool:
    return text is not None and command.MARKER in text


def install(ctx: Context) -> list[Edit]:
    edits: list[Edit] = []
    for event in EVENTS:
        path = os.path.join(folder(ctx), event)
        current = read(path)
        if current is None or _ours(current):
            edits += edit(path, script(ctx, event), mode=0o755)
    return edits


def uninstall(ctx: Context) -> list[Edit]:
    edits: list[Edit] = []
    for event in EVENTS:
        path = os.path.join(folder(ctx), event)
        if _ours(read(path)):
            edits += edit(path, None)
    return edits


def status(ctx: Context) -> Status:
    found = Status(NAME, ctx.level)
    for event in EVENTS:
        path = os.path.join(folder(ctx), event)
        text = read(path)
        if _ours(text):
            found.files.append(path)
            found.events.append(event)
            if not os.access(path, os.X_OK):
                found.problems.append(
                    f"{path} is not executable (Cline treats that as switched off)"
                )
        elif text is not None:
            found.problems.append(f"{path} belongs to another tool; memhooks left it alone")
    if found.events:
        found.fires = None if not found.problems else False
        found.todo.append(str(APPROVAL))
    return found


SKILLS_TODO = "Cline uses skills only with Settings → Features → Enable Skills (experimental)"


def skills_dir(ctx: Context) -> str:
    """Where the memhooks Agent Skill goes (Cline's docs, not run here; skills are an experimental Cline feature)."""
    return ctx.path(".cline/skills", ".cline/skills")
