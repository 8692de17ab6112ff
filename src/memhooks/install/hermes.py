"""Hermes Agent: user level only (``$HERMES_HOME``, default ``~/.hermes``), two ways.

* ``--via plugin`` (default): an in-process plugin ``plugins/memhooks/`` that calls the
  memhooks library directly (no process per turn; :mod:`memhooks.integrations.hermes`),
  enabled by adding ``memhooks`` to ``plugins.enabled`` in ``config.yaml``.
* ``--via shell``: shell hooks in ``config.yaml`` for the events of the host's row:
  ``pre_llm_call`` (recall, before every model call) and ``post_tool_call`` on the file
  tools (an observer: it feeds the session's working set and hook maintenance). Hermes
  asks once per command for consent; non-interactive runs need ``--accept-hooks``,
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
from .base import USER, Context, Edit, Status, edit, reading
from .files import read
from .hermes_plugin import manifest, shim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .hosts import Host

NAME = "hermes"
PLUGIN = "memhooks"


def home(ctx: Context) -> str:
    return ctx.user_path("{HERMES_HOME:.hermes}")


def plugin_dir(ctx: Context) -> str:
    return os.path.join(home(ctx), "plugins", PLUGIN)


def shell_entries(host: Host, ctx: Context) -> dict[str, dict[str, object]]:
    """Event -> our shell hook entry, for the events of the host's row."""
    out: dict[str, dict[str, object]] = {}
    for event, matcher in host.events:
        entry: dict[str, object] = {"command": command.shell(NAME, event, ctx.roles, ctx.exe)}
        if matcher:
            entry["matcher"] = matcher
        entry["timeout"] = 10
        out[event] = entry
    return out


def install(host: Host, ctx: Context) -> list[Edit]:
    path = host.config_path(ctx)
    text = read(path)
    with reading(NAME, path):
        data, yaml = yamlconf.load(text)
    _strip(data)
    if ctx.via == "shell":
        hooks = data.setdefault("hooks", yamlconf.mapping())
        for event, entry in shell_entries(host, ctx).items():
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
        edit(path, new if new != yamlconf.dump(*yamlconf.load(text)) or text is None else text)
        + edits
    )


def uninstall(host: Host, ctx: Context) -> list[Edit]:
    path = host.config_path(ctx)
    text = read(path)
    edits = _remove_plugin(ctx)
    if text is None:
        return edits
    with reading(NAME, path):
        data, yaml = yamlconf.load(text)
    if _strip(data):
        edits = edit(path, yamlconf.dump(data, yaml)) + edits
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


def status(host: Host, ctx: Context) -> Status:
    found = Status(NAME, ctx.level)
    if ctx.level != USER:
        found.problems.append("Hermes has no per-project config: use --user")
        return found
    path = host.config_path(ctx)
    try:
        data, _ = yamlconf.load(read(path))
    except yamlconf.YamlError as exc:  # a broken config is reported, not fatal for status
        where = f":{exc.line}:{exc.column}" if exc.line is not None else ""
        found.problems.append(f"{path}{where}: not valid YAML: {exc.reason}")
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
        found.files.append(path)
        found.events = list(ours)
        approved = _approved(ctx)
        auto = data.get("hooks_auto_accept") is True or ctx.env.get("HERMES_ACCEPT_HOOKS") == "1"
        missing = [event for event, cmd in ours.items() if (event, cmd) not in approved]
        if missing and not auto:
            found.todo.append(str(host.wiring.get("approval")))
            found.fires = None
        else:
            found.fires = True
    if init is not None and command.MARKER in init:
        found.files.append(plugin_dir(ctx))
        found.events += [e for e in host.EVENTS if e not in found.events]
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
