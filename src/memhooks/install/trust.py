"""Whether a host will run memhooks' hook at all, where the host keeps that on disk.

Each reader returns ``(ok, words)``, or None for hosts that keep nothing we can read:

* Claude Code: ``disableAllHooks: true`` in the user's, the project's or the managed
  settings turns every hook off (https://code.claude.com/docs/en/settings);
* Codex: ``[features] hooks = false`` turns hooks off, and a hook runs only once its
  definition is approved in ``/hooks``, which records ``[hooks.state."<hooks file>:
  <event>:<group>:<handler>"]`` with a ``trusted_hash`` in ``config.toml`` (openai/codex
  PR 20321); we read that an approval exists for the event, not the hash (the launcher
  keeps the command, so an approval stays valid across upgrades); a project-level
  install also needs the project trusted;
* Gemini CLI: ``hooksConfig.enabled: false`` turns hooks off; user-level hooks need no
  approval, project-level ones are recorded by ``name:command`` in
  ``~/.gemini/trusted_hooks.json`` once accepted (``shared/spec/real-agents.md`` §3).
"""

from __future__ import annotations

import json
import os
import re

from . import jsonc
from .base import PROJECT
from .codex import _config

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .base import Context
    from .hosts import Host


def state(host: Host, ctx: Context, event: str, line: str) -> tuple[bool, str] | None:
    """``(ok, words)`` for ``host`` running the hook ``line`` on ``event``."""
    if host.name == "claude-code":
        return _claude(ctx)
    if host.name == "codex":
        return _codex(host, ctx, event)
    if host.name == "gemini-cli":
        return _gemini(ctx, line)
    return None


def _claude(ctx: Context) -> tuple[bool, str]:
    for path in (
        os.path.join(ctx.home, ".claude", "settings.json"),
        os.path.join(ctx.root, ".claude", "settings.json"),
        os.path.join(ctx.root, ".claude", "settings.local.json"),
        "/etc/claude-code/managed-settings.json",
    ):
        data = jsonc.value_of(path)
        if isinstance(data, dict) and data.get("disableAllHooks") is True:
            return False, f"hooks are off: disableAllHooks is true in {path}"
    return True, "hooks on (no disableAllHooks in the settings)"


def _table(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def _snake(event: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()


def _codex(host: Host, ctx: Context, event: str) -> tuple[bool, str]:
    config = _config(os.path.join(ctx.user_path("{CODEX_HOME:.codex}"), "config.toml"))
    features = _table(config, "features")
    if features.get("hooks") is False or features.get("codex_hooks") is False:
        return False, "hooks are off in config.toml ([features] hooks = false)"
    if ctx.level == PROJECT:
        entry = _table(config, "projects").get(ctx.root)
        if not (isinstance(entry, dict) and entry.get("trust_level") == "trusted"):
            return False, f"the project is not trusted: run `codex` in {ctx.root} and accept"
    approved = _table(_table(config, "hooks"), "state")
    label = f":{_snake(event)}:"
    if any(label in key and "trusted_hash" in (value or {}) for key, value in approved.items()):
        return True, "approved in /hooks (config.toml hooks.state)"
    return False, (
        "not approved: Codex skips the hook until you approve it: start `codex` and open "
        "/hooks (`codex exec` runs it only with --dangerously-bypass-hook-trust)"
    )


def _gemini(ctx: Context, line: str) -> tuple[bool, str]:
    for path in (
        os.path.join(ctx.home, ".gemini", "settings.json"),
        os.path.join(ctx.root, ".gemini", "settings.json"),
    ):
        data = jsonc.value_of(path)
        switch = data.get("hooksConfig") if isinstance(data, dict) else None
        if isinstance(switch, dict) and switch.get("enabled") is False:
            return False, f"hooks are off: hooksConfig.enabled is false in {path}"
    if ctx.level != PROJECT:
        return True, "hooks on (user-level hooks need no approval)"
    trusted = json.dumps(jsonc.value_of(os.path.join(ctx.home, ".gemini", "trusted_hooks.json")))
    if json.dumps(f"memhooks:{line}")[1:-1] in trusted:
        return True, "accepted (~/.gemini/trusted_hooks.json)"
    return (
        False,
        "not accepted yet: Gemini CLI asks about new project hooks when it starts in the project",
    )
