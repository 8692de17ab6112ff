"""The extra hook events opt-in capture needs (``memhooks agents install --capture``).

A plain install wires what recall, tool-time recall and hook maintenance use, so that
users who never capture pay no process per command (where reads do not run through the
shell), turn end or compaction. Capture (:mod:`memhooks.capture`) also learns from
command outcomes, turn ends, compaction and session ends; each host's ``INSTALL`` row
lists in ``capture`` the native events that carry them — only events the host really
has (``memhooks.agents.<host>.EVENTS``, ``shared/spec/agent-hooks.md``), with the tool
matcher where the host filters by tool.

The entries run the same ``memhooks hook`` command as the host's own entries
(:meth:`~memhooks.install.hosts.Host.entry`), so :mod:`.eventmap` recognises, replaces
and removes them like the others: installing twice changes nothing, ``uninstall``
removes them with the rest, and ``uninstall --capture`` removes only these
(:func:`plan`). A plain ``install`` keeps them when they are already wired, so
re-running it never turns capture wiring off behind the user's back.

Hosts whose row has no ``capture`` (Kiro, Cline, OpenCode, Hermes) are not handled here
yet.
"""

from __future__ import annotations

from . import eventmap, jsonc
from .base import PROJECT, USER, Context, reading
from .files import read
from .hosts import INSTALLERS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .base import Edit
    from .hosts import Host


def supported(host: Host) -> bool:
    return bool(host.capture)


def extra() -> dict[str, tuple[tuple[str, str | None], ...]]:
    """Agent -> the ``(native event, matcher)`` pairs ``--capture`` adds, for every host
    that has them."""
    return {name: host.capture for name, host in INSTALLERS.items() if host.capture}


def entries(host: Host, ctx: Context) -> dict[str, list[dict[str, Any]]]:
    """The host's own entries plus the capture ones, event by event."""
    return host.entries(ctx, (*host.events, *host.capture))


def missing(host: Host, ctx: Context) -> list[str] | None:
    """Capture events not wired in the host's config (``Event`` or ``Event[matcher]``);
    None when none of our hooks is installed there at all."""
    text = read(host.config_path(ctx))
    if not eventmap.installed(text):
        return None
    try:
        hooks = jsonc.parse(text or "{}").value.get("hooks")
    except (jsonc.JsoncError, AttributeError):
        return None
    out = []
    for event, matcher in host.capture:
        found = hooks.get(event) if isinstance(hooks, dict) else None
        if not any(_wired(entry, matcher) for entry in _list(found)):
            out.append(f"{event}[{matcher}]" if matcher else event)
    return out


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _wired(entry: Any, matcher: str | None) -> bool:
    if not eventmap.commands(entry):
        return False
    return matcher is None or (isinstance(entry, dict) and entry.get("matcher") == matcher)


def plan(action: str, host: Host, ctx: Context, capture: bool) -> list[Edit] | None:
    """The edits for ``action`` when capture events are involved; None when the host's
    own ``install``/``uninstall`` does the job (host not supported here, or no capture
    events wanted or present).

    * ``install`` with ``capture`` (or with capture events already wired): own + capture;
    * ``uninstall`` with ``capture``: back to the host's own entries only (nothing to do
      when none of ours is installed); without: the host's uninstall removes everything.
    """
    if not supported(host):
        return None
    path = host.config_path(ctx)
    skeleton = host.wiring.get("skeleton")
    with reading(host.name, path):
        if action == "install":
            gaps = missing(host, ctx)
            already = gaps is not None and len(gaps) < len(host.capture)
            if not (capture or already):
                return None
            return eventmap.install_edits(path, entries(host, ctx), skeleton)
        if action == "uninstall" and capture:
            if missing(host, ctx) is None:
                return []
            return eventmap.install_edits(path, host.entries(ctx), skeleton)
    return None


def report(host: Host, ctx: Context) -> dict[str, object] | None:
    """``{"wired": bool, "missing": [...]}`` for ``status``; None when the host is not
    supported here or none of our hooks is installed."""
    if not supported(host):
        return None
    gaps = missing(host, ctx)
    if gaps is None:
        return None
    return {"wired": not gaps, "missing": gaps}


def unwired(root: str, env: Any = None) -> list[tuple[str, str]]:
    """``(agent, level)`` whose memhooks hooks are installed for the project at ``root``
    (project level) or the user (user level) without the capture events: what
    ``memhooks capture on`` points out. Reads one config file per host and level."""
    out = []
    for level in (PROJECT, USER):
        ctx = Context(root, level, exe=[], env=env)
        for host in INSTALLERS.values():
            if not supported(host) or level not in host.LEVELS:
                continue
            try:
                gaps = missing(host, ctx)
            except (OSError, ValueError):
                continue
            if gaps:
                out.append((host.name, level))
    return out


def hint(found: list[tuple[str, str]]) -> str | None:
    """One line telling the user how to wire the capture events, or None."""
    if not found:
        return None
    commands = []
    for level in ("project", "user"):
        agents = [agent for agent, at in found if at == level]
        if agents:
            options = " ".join(f"--agent {agent}" for agent in agents)
            commands.append(f"`memhooks agents install --capture {options} --{level}`")
    return (
        "hint: the installed hooks do not send capture command outcomes, turn ends, "
        f"compaction or session ends; run {' and '.join(commands)}"
    )
