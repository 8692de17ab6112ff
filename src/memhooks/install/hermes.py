"""Hermes Agent: user level only (``$HERMES_HOME``, default ``~/.hermes``), two ways.

* ``--via plugin`` (default): an in-process plugin ``plugins/memhooks/`` that calls the
  memhooks library directly (no process per turn; :mod:`memhooks.integrations.hermes`),
  enabled by adding ``memhooks`` to ``plugins.enabled`` in ``config.yaml``.
* ``--via shell``: shell hooks in ``config.yaml``: ``pre_llm_call`` (recall) and
  ``post_tool_call`` on ``write_file|patch`` (hook maintenance). Hermes asks once per
  command for consent; non-interactive runs need ``--accept-hooks``,
  ``HERMES_ACCEPT_HOOKS=1`` or ``hooks_auto_accept: true``, else the hooks are silently
  skipped.

Either way ``pre_llm_call``'s ``{"context"}`` is appended to the current user message.
"""

from __future__ import annotations

import json
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

from . import command, yamlconf
from .base import USER, Context, Edit, Status, edit
from .files import read

NAME = "hermes"
LEVELS: tuple[str, ...] = (USER,)
EVENTS: tuple[str, ...] = ("pre_llm_call", "post_tool_call")
CHANNEL: str = 'pre_llm_call {"context"}: appended to the current user message'
APPROVAL: str | None = (
    "approve the shell hooks once in an interactive `hermes` session, or run with --accept-hooks / "
    "HERMES_ACCEPT_HOOKS=1 / `hooks_auto_accept: true`"
)
PLUGIN = "memhooks"
MATCHER = "write_file|patch"


def home(ctx: Context) -> str:
    return ctx.env_dir("HERMES_HOME", ".hermes")


def config_path(ctx: Context) -> str:
    return os.path.join(home(ctx), "config.yaml")


def plugin_dir(ctx: Context) -> str:
    return os.path.join(home(ctx), "plugins", PLUGIN)


def shell_entries(ctx: Context) -> dict[str, dict[str, object]]:
    return {
        "pre_llm_call": {
            "command": command.shell(NAME, "pre_llm_call", ctx.roles, ctx.exe),
            "timeout": 10,
        },
        "post_tool_call": {
            "command": command.shell(NAME, "post_tool_call", ctx.roles, ctx.exe),
            "matcher": MATCHER,
            "timeout": 10,
        },
    }


def install(ctx: Context) -> list[Edit]:
    text = read(config_path(ctx))
    data, yaml = yamlconf.load(text)
    _strip(data)
    if ctx.via == "shell":
        hooks = data.setdefault("hooks", yamlconf.mapping())
        for event, entry in shell_entries(ctx).items():
            hooks.setdefault(event, []).append(entry)
        edits = _remove_plugin(ctx)
    else:
        plugins = data.setdefault("plugins", yamlconf.mapping())
        enabled = plugins.setdefault("enabled", [])
        if PLUGIN not in enabled:
            enabled.append(PLUGIN)
        edits = plugin_files(ctx)
    new = yamlconf.dump(data, yaml)
    return (
        edit(
            config_path(ctx),
            new if new != yamlconf.dump(*yamlconf.load(text)) or text is None else text,
        )
        + edits
    )


def uninstall(ctx: Context) -> list[Edit]:
    text = read(config_path(ctx))
    edits = _remove_plugin(ctx)
    if text is None:
        return edits
    data, yaml = yamlconf.load(text)
    if _strip(data):
        edits = edit(config_path(ctx), yamlconf.dump(data, yaml)) + edits
    return edits


def _strip(data: Any) -> bool:
    """Take our shell hooks and plugin out of ``data``; True if anything changed."""
    changed = False
    hooks = data.get("hooks")
    if isinstance(hooks, dict):
        for event in list(hooks):
            entries = hooks[event]
            if not isinstance(entries, list):
                continue
            kept = [
                e
                for e in entries
                if not (isinstance(e, dict) and command.is_ours(e.get("command")))
            ]
            if len(kept) != len(entries):
                changed = True
                entries[:] = kept
                if not kept:
                    del hooks[event]
        if changed and not hooks:
            del data["hooks"]
    plugins = data.get("plugins")
    enabled = plugins.get("enabled") if isinstance(plugins, dict) else None
    if isinstance(enabled, list) and PLUGIN in enabled:
        changed = True
        enabled.remove(PLUGIN)
        if not enabled:
            del plugins["enabled"]
            if not plugins:
                del data["plugins"]
    return changed


def plugin_files(ctx: Context) -> list[Edit]:
    from ..integrations.hermes import manifest, shim

    folder = plugin_dir(ctx)
    return edit(os.path.join(folder, "plugin.yaml"), manifest()) + edit(
        os.path.join(folder, "__init__.py"), shim(ctx.roles, ctx.exe)
    )


def _remove_plugin(ctx: Context) -> list[Edit]:
    init = read(os.path.join(plugin_dir(ctx), "__init__.py"))
    if init is None or command.MARKER not in init:
        return []
    return edit(os.path.join(plugin_dir(ctx), "__init__.py"), None) + edit(
        os.path.join(plugin_dir(ctx), "plugin.yaml"), None
    )


def status(ctx: Context) -> Status:
    found = Status(NAME, ctx.level)
    if ctx.level != USER:
        found.problems.append("Hermes has no per-project config: use --user")
        return found
    try:
        data, _ = yamlconf.load(read(config_path(ctx)))
    except Exception as exc:  # noqa: BLE001  a broken config is reported, not fatal for status
        found.problems.append(f"{config_path(ctx)}: {exc}")
        return found
    hooks = data.get("hooks") if isinstance(data.get("hooks"), dict) else {}
    ours = {
        event: e["command"]
        for event, entries in hooks.items()
        if isinstance(entries, list)
        for e in entries
        if isinstance(e, dict) and command.is_ours(e.get("command"))
    }
    plugins = data.get("plugins") if isinstance(data.get("plugins"), dict) else {}
    enabled = PLUGIN in (plugins.get("enabled") or [])
    init = read(os.path.join(plugin_dir(ctx), "__init__.py"))
    if ours:
        found.files.append(config_path(ctx))
        found.events = list(ours)
        approved = _approved(ctx)
        auto = data.get("hooks_auto_accept") is True or ctx.env.get("HERMES_ACCEPT_HOOKS") == "1"
        missing = [event for event, cmd in ours.items() if (event, cmd) not in approved]
        if missing and not auto:
            found.todo.append(str(APPROVAL))
            found.fires = None
        else:
            found.fires = True
    if init is not None and command.MARKER in init:
        found.files.append(plugin_dir(ctx))
        found.events += [e for e in EVENTS if e not in found.events]
        if not enabled:
            found.problems.append("plugin present but not in plugins.enabled of config.yaml")
        found.fires = enabled if found.fires is not None else None
    return found


def _approved(ctx: Context) -> set[tuple[object, object]]:
    try:
        with open(
            os.path.join(home(ctx), "shell-hooks-allowlist.json"), encoding="utf-8"
        ) as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return set()
    approvals = data.get("approvals") if isinstance(data, dict) else None
    return {(a.get("event"), a.get("command")) for a in approvals or [] if isinstance(a, dict)}


def skills_dir(ctx: Context) -> str:
    """Where the memhooks Agent Skill goes: ``$HERMES_HOME/skills`` (Hermes 0.19.0 reads
    it and offers the skill as ``/memhooks``; verified)."""
    return os.path.join(home(ctx), "skills")
