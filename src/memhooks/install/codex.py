"""Codex: the generic JSON installer (:mod:`.jsonhooks`) plus what only Codex's
``config.toml`` can tell ``status``: ``[features] hooks = false`` turns hooks off, and
project-level hooks load only in a trusted project (``[projects."<root>"]``).

Codex silently skips every hook until the user approves it (``/hooks``); approvals live
inside Codex, so ``status`` says "after the steps below" rather than "yes".
"""

from __future__ import annotations

import os

from . import jsonhooks
from .base import PROJECT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .base import Context, Edit, Status
    from .hosts import Host


def install(host: Host, ctx: Context) -> list[Edit]:
    return jsonhooks.install(host, ctx)


def uninstall(host: Host, ctx: Context) -> list[Edit]:
    return jsonhooks.uninstall(host, ctx)


def status(host: Host, ctx: Context) -> Status:
    found = jsonhooks.status(host, ctx)
    if not found.installed:
        return found
    config = _config(os.path.join(ctx.user_path("{CODEX_HOME:.codex}"), "config.toml"))
    features = config.get("features")
    features = features if isinstance(features, dict) else {}
    if features.get("hooks") is False or features.get("codex_hooks") is False:
        found.problems.append("hooks are disabled in config.toml ([features] hooks = false)")
        found.fires = False
    projects = config.get("projects")
    entry = projects.get(ctx.root) if isinstance(projects, dict) else None
    trusted = isinstance(entry, dict) and entry.get("trust_level") == "trusted"
    if ctx.level == PROJECT and not trusted:
        found.todo.insert(
            0, f"trust the project: run `codex` in {ctx.root} and accept, or pass --trust once"
        )
    return found


def _config(path: str) -> dict[str, Any]:
    try:
        import tomllib
    except ImportError:  # Python 3.10: no reader in the standard library
        return {}
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except (OSError, ValueError):
        return {}
