"""The extra hook events opt-in capture needs (``memhooks agents install --capture``).

A plain install wires only what recall and hook maintenance use (the prompt event and
file edits), so that users who never capture pay no process per command or turn end.
Capture (:mod:`memhooks.capture`) also learns from command outcomes, turn ends,
compaction and session ends; :data:`EXTRA` lists, per host, the native events that
carry them — only events the host really has (``memhooks.agents.<host>.EVENTS``,
``shared/spec/agent-hooks.md``), with the tool matcher where the host filters by tool.

The entries run the same ``memhooks hook`` command as the host's own entries (copied
from ``installer.entries(ctx)``), so :mod:`.eventmap` recognises, replaces and removes
them like the others: installing twice changes nothing, ``uninstall`` removes them with
the rest, and ``uninstall --capture`` removes only these (:func:`plan`). A plain
``install`` keeps them when they are already wired, so re-running it never turns capture
wiring off behind the user's back.

Hosts not in :data:`EXTRA` (Kiro, Cline, OpenCode, Hermes) are not handled here yet.
"""

from __future__ import annotations

import copy

from . import eventmap, jsonc
from .files import read

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .base import Context, Edit

#: agent -> ((native event, tool matcher or None), ...) added by ``--capture``.
EXTRA: dict[str, tuple[tuple[str, str | None], ...]] = {
    "claude-code": (
        ("PostToolUse", "Bash|PowerShell"),
        ("PostToolUseFailure", "Bash|PowerShell"),
        ("Stop", None),
        ("PreCompact", None),
        ("PostCompact", None),
        ("SessionEnd", None),
    ),
    # No SessionEnd: unconfirmed for Codex; idle sessions are recorded by `capture process`.
    "codex": (
        ("PostToolUse", "Bash"),
        ("Stop", None),
        ("PreCompact", None),
        ("PostCompact", None),
    ),
    "gemini-cli": (
        ("AfterTool", "run_shell_command"),
        ("AfterAgent", None),
        ("PreCompress", None),
        ("SessionEnd", None),
    ),
    # postToolUse is already wired for every tool (no matcher), commands included.
    "copilot-cli": (
        ("postToolUseFailure", None),
        ("agentStop", None),
        ("preCompact", None),
        ("sessionEnd", None),
    ),
    # PostToolUse is already wired (VS Code ignores matchers); it has no session end.
    "copilot-vscode": (("Stop", None), ("PreCompact", None)),
    "cursor": (
        ("afterShellExecution", None),
        ("postToolUseFailure", None),
        ("stop", None),
        ("preCompact", None),
        ("sessionEnd", None),
    ),
    "windsurf": (("post_run_command", None), ("post_cascade_response", None)),
}

#: ``name`` of Gemini CLI hook entries added here (its own are memhooks-recall/-maintain).
GEMINI_NAME = "memhooks-capture"


def supported(agent: str) -> bool:
    return agent in EXTRA


def entries(installer: Any, ctx: Context) -> dict[str, list[dict[str, Any]]]:
    """The host's own entries plus the capture ones, event by event."""
    wanted: dict[str, list[dict[str, Any]]] = {
        event: list(group) for event, group in installer.entries(ctx).items()
    }
    for event, matcher in EXTRA[installer.NAME]:
        wanted.setdefault(event, []).append(_entry(installer, ctx, event, matcher))
    return wanted


def _entry(installer: Any, ctx: Context, event: str, matcher: str | None) -> dict[str, Any]:
    """One entry for ``event`` shaped like the host's own (same command and timeout)."""
    if installer.NAME == "copilot-cli":
        from . import command

        # Copilot's payloads name no event: the command passes it.
        cmd = command.shell(installer.NAME, event, ctx.roles, ctx.exe)
        return {"type": "command", "bash": cmd, "timeoutSec": 10}
    own = installer.entries(ctx)
    template: dict[str, Any] = copy.deepcopy(own[installer.EVENTS[0]][0])
    if not isinstance(template.get("hooks"), list):  # flat entries: Cursor, Windsurf, VS Code
        return template
    hooks = [dict(hook) for hook in template["hooks"]]
    for hook in hooks:
        if "name" in hook:
            hook["name"] = GEMINI_NAME
    return {"matcher": matcher, "hooks": hooks} if matcher else {"hooks": hooks}


def missing(installer: Any, ctx: Context) -> list[str] | None:
    """Capture events not wired in the host's config (``Event`` or ``Event[matcher]``);
    None when none of our hooks is installed there at all."""
    text = read(installer.config_path(ctx))
    if not eventmap.installed(text):
        return None
    try:
        hooks = jsonc.parse(text or "{}").value.get("hooks")
    except (jsonc.JsoncError, AttributeError):
        return None
    out = []
    for event, matcher in EXTRA[installer.NAME]:
        found = hooks.get(event) if isinstance(hooks, dict) else None
        if not any(_wired(entry, matcher) for entry in _list(found)):
            out.append(f"{event}[{matcher}]" if matcher else event)
    return out


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _wired(entry: Any, matcher: str | None) -> bool:
    if not eventmap.commands(entry):
        return False
    return matcher is None or (isinstance(entry, dict) and entry.get("matcher") == matcher)


def plan(action: str, installer: Any, ctx: Context, capture: bool) -> list[Edit] | None:
    """The edits for ``action`` when capture events are involved; None when the host's
    own ``install``/``uninstall`` does the job (host not supported here, or no capture
    events wanted or present).

    * ``install`` with ``capture`` (or with capture events already wired): own + capture;
    * ``uninstall`` with ``capture``: back to the host's own entries only (nothing to do
      when none of ours is installed); without: the host's uninstall removes everything.
    """
    if not supported(installer.NAME):
        return None
    path = installer.config_path(ctx)
    skeleton = getattr(installer, "SKELETON", None)
    if action == "install":
        gaps = missing(installer, ctx)
        already = gaps is not None and len(gaps) < len(EXTRA[installer.NAME])
        if not (capture or already):
            return None
        return eventmap.install_edits(path, entries(installer, ctx), skeleton)
    if action == "uninstall" and capture:
        if missing(installer, ctx) is None:
            return []
        return eventmap.install_edits(path, installer.entries(ctx), skeleton)
    return None


def report(installer: Any, ctx: Context) -> dict[str, object] | None:
    """``{"wired": bool, "missing": [...]}`` for ``status``; None when the host is not
    supported here or none of our hooks is installed."""
    if not supported(installer.NAME):
        return None
    gaps = missing(installer, ctx)
    if gaps is None:
        return None
    return {"wired": not gaps, "missing": gaps}


def unwired(root: str, env: Any = None) -> list[tuple[str, str]]:
    """``(agent, level)`` whose memhooks hooks are installed for the project at ``root``
    (project level) or the user (user level) without the capture events: what
    ``memhooks capture on`` points out. Reads one config file per host and level."""
    from .base import PROJECT, USER, Context
    from .registry import INSTALLERS

    out = []
    for level in (PROJECT, USER):
        ctx = Context(root, level, exe=[], env=env)
        for agent in EXTRA:
            try:
                gaps = missing(INSTALLERS[agent], ctx)
            except (OSError, ValueError):
                continue
            if gaps:
                out.append((agent, level))
    return out


def hint(found: list[tuple[str, str]]) -> str | None:
    """One line telling the user how to wire the capture events, or None."""
    if not found:
        return None
    commands = []
    for level in ("project", "user"):
        agents = [agent for agent, at in found if at == level]
        if agents:
            options = " ".join(f"--agent {agent}" for agent in agents)
            user = " --user" if level == "user" else ""
            commands.append(f"`memhooks agents install --capture {options}{user}`")
    return (
        "hint: the installed hooks do not send capture command outcomes, turn ends, "
        f"compaction or session ends; run {' and '.join(commands)}"
    )
