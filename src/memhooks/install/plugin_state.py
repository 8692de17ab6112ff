"""Whether a host has memhooks' plugin (:mod:`.plugins`) installed and enabled.

:func:`active` reads Claude Code's ``installed_plugins.json`` and ``enabledPlugins``,
Codex's ``config.toml``, Copilot CLI's ``settings.json`` and ``config.json``, Gemini
CLI's extension folder and ``extension-enablement.json``, Cursor's ``~/.cursor/plugins/``, so ``agents install`` never
wires the host a second time and ``agents status`` says which path is active.
"""

from __future__ import annotations

import os

from . import command, jsonc
from .codex import _config
from .eventmap import installed
from .files import read
from .plugins import CLAUDE_MARKETPLACE, COPILOT_MARKETPLACE, NAME

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .base import Context
    from .hosts import Host


class Active:
    """Our plugin as a host has it: ``ref`` (what the host calls it, e.g.
    ``memhooks@memhooks``), ``path`` (its installed folder), ``enabled``."""

    __slots__ = ("enabled", "hooks_file", "path", "ref")

    def __init__(
        self, ref: str, path: str, enabled: bool, hooks_file: str = "hooks/hooks.json"
    ) -> None:
        self.ref = ref
        self.path = path
        self.enabled = enabled
        self.hooks_file = os.path.join(path, *hooks_file.split("/"))

    def hooks(self) -> dict[str, list[str]]:
        """Event -> our commands in the installed plugin's hooks file."""
        return installed(read(self.hooks_file))


def active(host: Host, ctx: Context) -> Active | None:
    """Our plugin in ``host`` for the user of ``ctx`` (None: not installed)."""
    kind = host.wiring.get("plugin", {}).get("kind")
    if kind == "claude-plugin":
        return _claude(ctx)
    if kind == "codex-plugin":
        return _codex(ctx)
    if kind == "gemini-extension":
        return _gemini(ctx)
    if kind == "copilot-plugin":
        return _copilot(ctx)
    if kind == "cursor-plugin":
        return _cursor(ctx)
    return None


def _claude(ctx: Context) -> Active | None:
    """``~/.claude/plugins/installed_plugins.json`` (run: 2.1.197) lists installs by
    ``name@marketplace``; ``enabledPlugins`` in the user's or the project's settings
    switches them (code.claude.com/docs/en/plugins-reference)."""
    base = os.path.join(ctx.home, ".claude")
    listed = jsonc.value_of(os.path.join(base, "plugins", "installed_plugins.json")).get("plugins")
    for ref, installs in (listed or {}).items() if isinstance(listed, dict) else ():
        if not ref.startswith(NAME + "@") or not isinstance(installs, list) or not installs:
            continue
        path = installs[-1].get("installPath", "") if isinstance(installs[-1], dict) else ""
        if not _ours(path):
            continue
        enabled = False
        for settings in (
            os.path.join(base, "settings.json"),
            os.path.join(ctx.root, ".claude", "settings.json"),
            os.path.join(ctx.root, ".claude", "settings.local.json"),
        ):
            switch = jsonc.value_of(settings).get("enabledPlugins")
            if isinstance(switch, dict) and ref in switch:
                enabled = switch[ref] is True
        return Active(ref, path, enabled)
    return None


def _codex(ctx: Context) -> Active | None:
    """``[plugins."name@marketplace"] enabled`` in ``$CODEX_HOME/config.toml``; the
    plugin's files in ``plugins/cache/<marketplace>/<name>/<version>`` (run: 0.171.0)."""
    home = ctx.user_path("{CODEX_HOME:.codex}")
    table = _config(os.path.join(home, "config.toml")).get("plugins")
    for ref, entry in table.items() if isinstance(table, dict) else ():
        name, _, market = ref.partition("@")
        if name != NAME or not isinstance(entry, dict):
            continue
        cache = os.path.join(home, "plugins", "cache", market, name)
        versions = sorted(os.listdir(cache)) if os.path.isdir(cache) else []
        path = os.path.join(cache, versions[-1]) if versions else cache
        if _ours(path):
            return Active(ref, path, entry.get("enabled", True) is True)
    return None


def _gemini(ctx: Context) -> Active | None:
    """``~/.gemini/extensions/memhooks/`` and ``extension-enablement.json``, whose
    ``overrides`` are path globs, ``!`` first when disabled there (run: 0.61.0)."""
    base = os.path.join(ctx.home, ".gemini", "extensions")
    path = os.path.join(base, NAME)
    if not _ours(path):
        return None
    overrides = jsonc.value_of(os.path.join(base, "extension-enablement.json")).get(NAME, {})
    rules = overrides.get("overrides", []) if isinstance(overrides, dict) else []
    enabled = True
    for rule in rules if isinstance(rules, list) else ():
        pattern = str(rule)
        negated = pattern.startswith("!")
        glob = pattern.lstrip("!").rstrip("*").rstrip("/")
        if ctx.root == glob or ctx.root.startswith(glob + os.sep) or not glob:
            enabled = not negated
    return Active("memhooks (extension)", path, enabled)


def _copilot(ctx: Context) -> Active | None:
    """Copilot CLI 1.0.102 keeps a plugin from a folder marketplace where it is, switched
    by ``enabledPlugins`` in ``$COPILOT_HOME/settings.json`` (the folder from
    ``extraKnownMarketplaces``); others it copies, listed in ``installedPlugins`` of
    ``config.json`` (JSONC: ``name``, ``marketplace``, ``cache_path``, ``enabled``)."""
    home = ctx.user_path("{COPILOT_HOME:.copilot}")
    live = _copilot_live(jsonc.value_of(os.path.join(home, "settings.json")))
    if live is not None:
        return live
    config = jsonc.value_of(os.path.join(home, "config.json"))
    listed = config.get("installedPlugins") if isinstance(config, dict) else None
    for entry in listed if isinstance(listed, list) else ():
        if not isinstance(entry, dict) or entry.get("name") != NAME:
            continue
        path = str(entry.get("cache_path", ""))
        if _ours(path):
            ref = f"{NAME}@{entry.get('marketplace')}" if entry.get("marketplace") else NAME
            return Active(ref, path, entry.get("enabled", True) is True, "hooks.json")
    return None


def _copilot_live(settings: Any) -> Active | None:
    """Our plugin in a folder marketplace Copilot CLI loads in place, or None."""
    switch = settings.get("enabledPlugins") if isinstance(settings, dict) else None
    markets = settings.get("extraKnownMarketplaces") if isinstance(settings, dict) else None
    for ref, enabled in switch.items() if isinstance(switch, dict) else ():
        name, _, market = ref.partition("@")
        source = (
            (markets or {}).get(market, {}).get("source", {}) if isinstance(markets, dict) else {}
        )
        folder = source.get("path") if isinstance(source, dict) else None
        if name != NAME or not isinstance(folder, str):
            continue
        for manifest in (COPILOT_MARKETPLACE, CLAUDE_MARKETPLACE):
            listed = jsonc.value_of(os.path.join(folder, *manifest.split("/"))).get("plugins")
            for entry in listed if isinstance(listed, list) else ():
                where = entry.get("source") if isinstance(entry, dict) else None
                path = (
                    os.path.normpath(os.path.join(folder, where)) if isinstance(where, str) else ""
                )
                if entry.get("name") == NAME and _ours(path):
                    return Active(ref, path, enabled is True, "hooks.json")
    return None


def _cursor(ctx: Context) -> Active | None:
    """Cursor keeps a plugin added from a folder in ``~/.cursor/plugins/local/<name>`` and
    one from a marketplace in ``~/.cursor/plugins/cache/<marketplace>/<name>/<commit>``
    (as Cursor's own plugin tools write them; Cursor is a desktop program that does not
    run here). Where it records a plugin switched off could not be read: an installed
    one counts as enabled."""
    base = os.path.join(ctx.home, ".cursor", "plugins")
    local = os.path.join(base, "local", NAME)
    if _ours(local):
        return Active(NAME, local, True)
    cache = os.path.join(base, "cache")
    for market in sorted(os.listdir(cache)) if os.path.isdir(cache) else ():
        folder = os.path.join(cache, market, NAME)
        for commit in sorted(os.listdir(folder)) if os.path.isdir(folder) else ():
            if _ours(os.path.join(folder, commit)):
                return Active(f"{NAME}@{market}", os.path.join(folder, commit), True)
    return None


def _ours(path: str) -> bool:
    """Whether ``path`` is a folder of one of our plugins (its ``bin/memhooks`` has the
    marker)."""
    return command.MARKER in (read(os.path.join(path, "bin", NAME)) or "")
