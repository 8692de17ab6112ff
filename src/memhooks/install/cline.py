"""Cline: one executable per event, named after it, in the host's hooks folder
(``.clinerules/hooks/`` or ``~/Documents/Cline/Hooks/``); each a two-line script of our
own that runs ``memhooks hook --agent cline <Event>``.

Cline has no matchers: ``PostToolUse`` runs for every tool and the hook filters. A hook
file someone else wrote is never replaced. Hooks must be enabled in Cline (Settings,
Features, Hooks) and the files executable. Both folders run, the user's first.
"""

from __future__ import annotations

import os

from . import command, launcher_state
from .base import Context, Edit, Status, edit
from .files import read

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .hosts import Host


def script(host: Host, ctx: Context, event: str) -> str:
    return (
        f"#!/bin/sh\n# {command.MARKER}: `memhooks agents uninstall --agent cline` removes this file\n"
        f"exec {command.shell(host.name, event, ctx.roles, ctx.exe)}\n"
    )


def _ours(text: str | None) -> bool:
    return text is not None and command.MARKER in text


def install(host: Host, ctx: Context) -> list[Edit]:
    edits: list[Edit] = []
    for event in host.EVENTS:
        path = os.path.join(host.config_path(ctx), event)
        current = read(path)
        if current is None or _ours(current):
            edits += edit(path, script(host, ctx, event), mode=0o755)
    return edits


def uninstall(host: Host, ctx: Context) -> list[Edit]:
    edits: list[Edit] = []
    for event in host.EVENTS:
        path = os.path.join(host.config_path(ctx), event)
        if _ours(read(path)):
            edits += edit(path, None)
    return edits


def status(host: Host, ctx: Context) -> Status:
    found = Status(host.name, ctx.level)
    for event in host.EVENTS:
        path = os.path.join(host.config_path(ctx), event)
        text = read(path)
        if _ours(text):
            found.files.append(path)
            found.events.append(event)
            if not os.access(path, os.X_OK):
                found.problems.append(
                    f"{path} is not executable (Cline treats that as switched off)"
                )
            runs = [line[5:] for line in (text or "").splitlines() if line.startswith("exec ")]
            why = launcher_state.command_problem(runs[0]) if runs else None
            if why is not None:
                found.problems.append(why)
                found.stale = True
        elif text is not None:
            found.problems.append(f"{path} belongs to another tool; memhooks left it alone")
    if found.events:
        found.fires = None if not found.problems else False
        found.todo.append(str(host.wiring.get("approval")))
    return found
