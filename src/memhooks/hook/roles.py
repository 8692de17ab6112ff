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


def roles(
    cli_roles: Iterable[str],
    payload: object,
    env: Mapping[str, str],
    notes: list[str] | None = None,
) -> list[str]:
    """Roles from the command line, ``MEMHOOKS_ROLES`` and ``MEMHOOKS_ROLE_MAP``; a
    malformed rule as :func:`mapped_roles`."""
    out: list[str] = []
    found = [*cli_roles, *env.get("MEMHOOKS_ROLES", "").split(",")]
    if isinstance(payload, dict):
        found += mapped_roles(env.get("MEMHOOKS_ROLE_MAP", ""), payload, notes)
    for role in found:
        role = role.strip()
        if role and role not in out:
            out.append(role)
    return out


def mapped_roles(
    spec: str, payload: dict[str, object], notes: list[str] | None = None
) -> list[str]:
    """Roles of ``MEMHOOKS_ROLE_MAP`` rules whose ``FIELD:VALUE`` matches ``payload``.
    A malformed rule (no ``:`` or ``=``, no field, no role; a blank one is no rule) is
    an invalid value (:func:`memhooks.settings.invalid`): with ``notes`` (the hook) it
    is noted and left out, the other rules kept; else DiagnosticError MH028 is raised."""
    out: list[str] = []
    for rule in spec.split(";"):
        condition, sep, targets = rule.partition("=")
        field, colon, value = condition.partition(":")
        if not (sep and colon and field.strip() and targets.replace(",", "").strip()):
            if rule.strip():
                from ..settings import invalid

                invalid("MEMHOOKS_ROLE_MAP", "`FIELD:VALUE=ROLE[,ROLE]` rules separated by `;`",
                        rule.strip(), "the other rules", notes, "fix the rule")  # fmt: skip
            continue
        if payload.get(field.strip()) == value.strip():
            out += targets.split(",")
    return out
