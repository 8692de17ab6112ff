"""Where the agent is working, which files are active, and which roles apply.

The folder comes from the host, never from the hook process's own directory when the
host said otherwise: the payload's ``cwd`` (Cursor/Cline: the first workspace root),
else the host's project variables, else (only then) the process directory.

Roles are never guessed from a host's mode. They come only from explicit settings:

* ``--role R`` on the hook command line (written by ``memhooks agents install --role R``);
* ``MEMHOOKS_ROLES``: comma-separated roles, e.g. ``reviewer,backend``;
* ``MEMHOOKS_ROLE_MAP``: ``FIELD:VALUE=ROLE[,ROLE];...`` maps a top-level string field of
  the payload to roles, e.g. ``permission_mode:plan=architect;agent_type:Explore=researcher``.

The union of the three is used, in that order, without duplicates.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from ..agents.base import NormalizedEvent

#: Host variables naming the project folder, in the order they are trusted.
PROJECT_VARS = (
    "CLAUDE_PROJECT_DIR",
    "GEMINI_CWD",
    "GEMINI_PROJECT_DIR",
    "CURSOR_PROJECT_DIR",
    "COPILOT_PROJECT_DIR",
)
#: Most active files passed on (``memhooks.protocol.resolve.MAX_FILES``).
MAX_FILES = 64


def working_dir(event: NormalizedEvent, env: Mapping[str, str]) -> str:
    """The folder recall is for: the host's ``cwd`` or a workspace root (an existing
    absolute directory), else a host project variable, else — only when the host named
    no folder at all — the process directory.

    Raises UsageError when the host named folders and none exists: recalling for the
    process directory instead could serve another project's memories.
    """
    named = [c for c in (event.cwd, *event.workspace_roots) if c]
    for candidate in named:
        if os.path.isabs(candidate) and os.path.isdir(candidate):
            return candidate
    for var in PROJECT_VARS:
        value = env.get(var, "")
        if value and os.path.isabs(value) and os.path.isdir(value):
            return value
    if named:
        from ..errors import UsageError

        raise UsageError(
            f"the host's working folder {named[0]!r} is not an existing absolute directory"
        )
    return os.getcwd()


def active_files(event: NormalizedEvent) -> list[str]:
    """Absolute paths of the files the host said are in play (attachments, reads)."""
    out: list[str] = []
    for change in event.files:
        if os.path.isabs(change.path) and change.path not in out:
            out.append(change.path)
    return out[:MAX_FILES]


def roles(cli_roles: Iterable[str], payload: object, env: Mapping[str, str]) -> list[str]:
    """Roles from the command line, ``MEMHOOKS_ROLES`` and ``MEMHOOKS_ROLE_MAP``."""
    out: list[str] = []
    found = [*cli_roles, *env.get("MEMHOOKS_ROLES", "").split(",")]
    if isinstance(payload, dict):
        found += mapped_roles(env.get("MEMHOOKS_ROLE_MAP", ""), payload)
    for role in found:
        role = role.strip()
        if role and role not in out:
            out.append(role)
    return out


def mapped_roles(spec: str, payload: dict[str, object]) -> list[str]:
    """Roles of ``MEMHOOKS_ROLE_MAP`` rules whose ``FIELD:VALUE`` matches ``payload``.
    Malformed rules are ignored."""
    out: list[str] = []
    for rule in spec.split(";"):
        condition, sep, targets = rule.partition("=")
        field, colon, value = condition.partition(":")
        if not (sep and colon):
            continue
        if payload.get(field.strip()) == value.strip():
            out += targets.split(",")
    return out
