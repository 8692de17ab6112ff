"""Plugins and extensions: memhooks packaged the way each host installs things.

Claude Code, Codex and Copilot CLI install plugins from a marketplace (``claude plugin
marketplace add <repo>``, ``claude plugin install memhooks``; ``codex plugin marketplace
add``, ``codex plugin add memhooks@memhooks``; ``copilot plugin marketplace add``,
``copilot plugin install memhooks@memhooks``), Gemini CLI installs extensions (``gemini
extensions install <folder>``). A host whose ``INSTALL`` row has ``plugin`` gets one,
generated here into the package's ``plugins/<host>/`` folder (so the wheel carries it)
and committed; ``scripts/gen_plugins.py`` writes them and a test holds the committed
files equal to what this module generates. Each carries:

* the hook wiring: exactly the entries ``memhooks agents install`` writes (the row's
  ``events`` through :meth:`~memhooks.install.hosts.Host.entries`: one source of truth
  for both paths), whose command is the plugin's ``bin/memhooks`` run by ``sh``;
* the Agent Skill (``skills/memhooks/``, the package's ``skill/`` copied);
* the MCP server ``memhooks mcp`` (``.mcp.json``, or the manifest's ``mcpServers``);
* a manifest whose version is :data:`memhooks.__version__`.

The plugin's ``bin/memhooks`` (:func:`memhooks.install.launcher.plugin_script`) runs
the per-user launcher when ``agents install`` wrote one, else the ``memhooks`` on
``PATH`` or in ``~/.local/bin`` (pipx, uv), else fails open naming the fix.

:func:`active` reads whether the host has our plugin installed and enabled (Claude
Code's ``installed_plugins.json`` and ``enabledPlugins``, Codex's ``config.toml``,
Copilot CLI's ``settings.json`` and ``config.json``, Gemini CLI's extension folder and
``extension-enablement.json``), so ``agents install``
never wires the host a second time and ``agents status`` says which path is active.
"""

from __future__ import annotations

import json
import os

from .. import __version__
from . import command, jsonc, launcher, skill
from .base import USER, Context
from .codex import _config
from .eventmap import installed
from .files import read
from .hosts import INSTALLERS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .hosts import Host

NAME = "memhooks"
DESCRIPTION = (
    "Folder-scoped memory recall for coding agents: MEMHOOKS.md cues route recall to the "
    "folder the agent works in, before it edits"
)
AUTHOR = {"name": "memhooks contributors"}
LICENSE = "MIT"
KEYWORDS = ["memory", "recall", "hooks", "context"]
#: Repository-relative marketplace manifests, and the package folder's own (for a wheel).
CLAUDE_MARKETPLACE = ".claude-plugin/marketplace.json"
CODEX_MARKETPLACE = ".agents/plugins/marketplace.json"
COPILOT_MARKETPLACE = ".github/plugin/marketplace.json"
#: Where the package's plugins are, relative to the repository root.
IN_REPO = "src/memhooks/plugins"


def hosts() -> dict[str, Host]:
    """Host name -> host, for every host whose row has ``plugin``."""
    return {name: host for name, host in INSTALLERS.items() if "plugin" in host.wiring}


def program(host: Host) -> str:
    """The plugin's program as the host's config names it (its root variable)."""
    return f"${{{host.wiring['plugin']['root_var']}}}/bin/{NAME}"


def hook_entries(host: Host) -> dict[str, list[Any]]:
    """The hook entries, event by event: the ones ``agents install`` writes, with the
    plugin's program (run by ``sh``: no executable bit needed after the host copies the
    plugin) in place of the launcher."""
    marker = "/memhooks-plugin-program"
    ctx = Context("/", USER, home="/", env={}, exe=[marker])
    quoted = f'sh "{program(host)}"'

    def swap(value: Any) -> Any:
        if isinstance(value, str) and value.startswith(marker + " "):
            return quoted + value[len(marker) :]
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        if isinstance(value, list):
            return [swap(v) for v in value]
        return value

    entries: dict[str, list[Any]] = swap(host.entries(ctx))
    return entries


def mcp_server(host: Host) -> dict[str, Any]:
    """The MCP server entry: the plugin's program with ``mcp``, in the shape of the host's
    MCP config (its ``INSTALL`` row's ``mcp`` template, where it has one)."""
    fill = {"command": "sh", "args": [program(host), "mcp"]}
    template = host.wiring.get("mcp", (None, None, "", {"command": None, "args": None}))[3]
    return {key: fill[key] if value is None else value for key, value in template.items()}


def manifest(host: Host) -> dict[str, Any]:
    """The plugin's (or extension's) manifest."""
    kind = host.wiring["plugin"]["kind"]
    base: dict[str, Any] = {"name": NAME, "version": __version__, "description": DESCRIPTION}
    if kind == "gemini-extension":
        return {**base, "mcpServers": {NAME: mcp_server(host)}}
    out = {**base, "author": AUTHOR, "license": LICENSE, "keywords": KEYWORDS}
    if kind == "codex-plugin":
        out.update(skills="./skills/", hooks="./hooks/hooks.json", mcpServers="./.mcp.json")
    return out


def hooks_file(host: Host) -> dict[str, Any]:
    """The plugin's hooks file: the host's own config shape (its row's ``skeleton``)."""
    skeleton = {k: v for k, v in host.wiring.get("skeleton", {}).items() if k != "hooks"}
    return {**skeleton, "hooks": hook_entries(host)}


def _dump(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def files(host: Host) -> dict[str, tuple[str, int]]:
    """Relative path (``/``-separated) -> (text, mode) of the host's plugin folder."""
    row = host.wiring["plugin"]
    out = {row["manifest"]: (_dump(manifest(host)), 0o644)}
    out[row["hooks"]] = (_dump(hooks_file(host)), 0o644)
    if row["kind"] != "gemini-extension":
        out[".mcp.json"] = (_dump({"mcpServers": {NAME: mcp_server(host)}}), 0o644)
    out[f"bin/{NAME}"] = (launcher.plugin_script(host), 0o755)
    for rel, text in skill.files().items():
        out[f"skills/{skill.NAME}/{rel}"] = (text, 0o644)
    return dict(sorted(out.items()))


def marketplaces() -> dict[str, str]:
    """Path relative to the repository root -> text: Claude Code's and Codex's
    marketplace manifests, at the root (``<marketplace> add <clone>``) and in the
    package's plugin folder (``<marketplace> add <installed package>/plugins``)."""
    found = hosts()
    out = {}
    for prefix, base in (("", f"./{IN_REPO}/"), (f"{IN_REPO}/", "./")):
        if "claude-code" in found:
            entry = {"name": NAME, "source": base + "claude-code", "description": DESCRIPTION,
                     "version": __version__, "author": AUTHOR}  # fmt: skip
            body = {"name": NAME, "owner": AUTHOR, "description": DESCRIPTION, "plugins": [entry]}
            out[prefix + CLAUDE_MARKETPLACE] = _dump(body)
        if "copilot-cli" in found:  # Copilot CLI reads .github/plugin/ before .claude-plugin/
            entry = {"name": NAME, "source": base + "copilot-cli", "description": DESCRIPTION,
                     "version": __version__, "author": AUTHOR}  # fmt: skip
            body = {"name": NAME, "owner": AUTHOR, "description": DESCRIPTION, "plugins": [entry]}
            out[prefix + COPILOT_MARKETPLACE] = _dump(body)
        if "codex" in found:
            entry = {
                "name": NAME,
                "source": {"source": "local", "path": base + "codex"},
                "policy": {"installation": "AVAILABLE", "authentication": "ON_INSTALL"},
                "category": "Productivity",
            }
            body = {"name": NAME, "interface": {"displayName": NAME}, "plugins": [entry]}
            out[prefix + CODEX_MARKETPLACE] = _dump(body)
    return out


def tree() -> dict[str, tuple[str, int]]:
    """Every generated file, relative to the repository root -> (text, mode)."""
    out = {rel: (text, 0o644) for rel, text in marketplaces().items()}
    for name, host in hosts().items():
        for rel, value in files(host).items():
            out[f"{IN_REPO}/{name}/{rel}"] = value
    return dict(sorted(out.items()))


# -- whether a host has our plugin -------------------------------------------------------


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


def _ours(path: str) -> bool:
    """Whether ``path`` is a folder of one of our plugins (its ``bin/memhooks`` has the
    marker)."""
    return command.MARKER in (read(os.path.join(path, "bin", NAME)) or "")
