"""Plugins and extensions: memhooks packaged the way each host installs things.

Claude Code, Codex and Copilot CLI install plugins from a marketplace (``claude plugin
marketplace add <repo>``, ``claude plugin install memhooks``; ``codex plugin marketplace
add``, ``codex plugin add memhooks@memhooks``; ``copilot plugin marketplace add``,
``copilot plugin install memhooks@memhooks``), Gemini CLI installs extensions (``gemini
extensions install <folder>``), Cursor plugins from a marketplace repository or a folder
(``.cursor-plugin/``). A host whose ``INSTALL`` row has ``plugin`` gets one,
generated here into the package's ``plugins/<host>/`` folder (so the wheel carries it)
and committed; ``scripts/gen_plugins.py`` writes them and a test holds the committed
files equal to what this module generates. Each carries:

* the hook wiring: exactly the entries ``memhooks agents install`` writes (the row's
  ``events`` through :meth:`~memhooks.install.hosts.Host.entries`: one source of truth
  for both paths), whose command reads the plugin's ``bin/memhooks`` into the shell the
  host runs it in (a row with ``shell``: :func:`.command.sourcing`), or runs it by ``sh``;
* the Agent Skill (``skills/memhooks/``, the package's ``skill/`` copied);
* the MCP server ``memhooks mcp`` (``.mcp.json``, or the manifest's ``mcpServers``);
* a manifest whose version is :data:`memhooks.__version__`.

The plugin's ``bin/memhooks`` (:func:`memhooks.install.launcher.plugin_script`) runs
the per-user launcher when ``agents install`` wrote one, else the ``memhooks`` on
``PATH`` or in ``~/.local/bin`` (pipx, uv), else fails open naming the fix.

Whether a host has our plugin installed and enabled is :mod:`.plugin_state`.
"""

from __future__ import annotations

import json
import shlex

from .. import __version__
from . import command, launcher, skill
from .base import USER, Context
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
CURSOR_MARKETPLACE = ".cursor-plugin/marketplace.json"
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
    plugin's program in place of the launcher: read into the host's shell where the row
    has ``shell`` (no second shell per call), else run by ``sh`` (no executable bit
    needed after the host copies the plugin)."""
    marker = "/memhooks-plugin-program"
    ctx = Context("/", USER, home="/", env={}, exe=[marker])
    quoted = f'sh "{program(host)}"'

    def swap(value: Any) -> Any:
        if isinstance(value, str) and value.startswith(marker + " ") and host.wiring.get("shell"):
            words = shlex.split(value[len(marker) :])
            return command.sourcing(program(host), words, expand=True)
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
    if kind == "cursor-plugin":
        out.update(displayName=NAME, skills="./skills/", hooks="./hooks/hooks.json")
        out.update(mcpServers="./" + _mcp_file(host))
    return out


def _mcp_file(host: Host) -> str:
    """The plugin's MCP server file: ``.mcp.json``, or the name its host's plugins use."""
    name: str = host.wiring["plugin"].get("mcp_file", ".mcp.json")
    return name


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
        out[_mcp_file(host)] = (_dump({"mcpServers": {NAME: mcp_server(host)}}), 0o644)
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
        if "cursor" in found:  # Cursor's marketplace rules: cursor/plugin-template's validator
            entry = {"name": NAME, "source": base + "cursor", "description": DESCRIPTION}
            body = {"name": NAME, "owner": AUTHOR, "metadata": {"description": DESCRIPTION},
                    "plugins": [entry]}  # fmt: skip
            out[prefix + CURSOR_MARKETPLACE] = _dump(body)
    return out


def tree() -> dict[str, tuple[str, int]]:
    """Every generated file, relative to the repository root -> (text, mode)."""
    out = {rel: (text, 0o644) for rel, text in marketplaces().items()}
    for name, host in hosts().items():
        for rel, value in files(host).items():
            out[f"{IN_REPO}/{name}/{rel}"] = value
    return dict(sorted(out.items()))
