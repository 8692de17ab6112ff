"""Which roles apply to a hook call (the folder is :mod:`memhooks.agents.folder`'s).

Roles are never guessed from a host's mode. They come only from explicit settings:

* ``--role R`` on the hook command line (written by ``memhooks agents install --role R``);
* ``MEMHOOKS_ROLES``: comma-separated roles, e.g. ``reviewer,backend``;
* ``MEMHOOKS_ROLE_MAP``: ``FIELD:VALUE=ROLE[,ROLE];...`` maps a top-level string field of
  the payload to roles, e.g. ``permission_mode:plan=architect;agent_type:Explore=researcher``.

The union of the three is used, in that order, without duplicates.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping


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
