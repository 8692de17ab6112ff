"""The agent hosts memhooks installs into, as the installers see them.

There is one host registry, :mod:`memhooks.agents.registry`; every host module there
that ends with an ``INSTALL`` row (:mod:`memhooks.agents.wiring`) is installable. A
:class:`Host` wraps that module: the row (data), the reply row ``DELIVERY`` (which
events carry context to the model, in words for ``status``) and the behaviour module
that turns the row into edits: :mod:`.jsonhooks` for hosts whose config is a
``{"hooks": {event: [entry, ...]}}`` JSON file, or the module the row names
(``installer``) where a host differs in behaviour (Kiro, Cline, OpenCode, Hermes,
Codex's status checks).
"""

from __future__ import annotations

import copy
import os

from ..agents.registry import HOSTS
from ..errors import UsageError
from . import command
from .base import PROJECT, USER

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any, Protocol

    from ..agents.wiring import Events, Wiring
    from .base import Context, Edit, Status

    class Installer(Protocol):
        """A behaviour module (``memhooks.install.jsonhooks`` unless the host's row names
        another): turns a host's ``INSTALL`` row into edits and reads its state back.
        ``status`` fills ``files``, ``events``, ``fires`` and ``problems``; the level,
        channel and launch-folder verdicts are added by ``memhooks.install.status``."""

        def install(self, host: Host, ctx: Context) -> list[Edit]: ...

        def uninstall(self, host: Host, ctx: Context) -> list[Edit]: ...

        def status(self, host: Host, ctx: Context) -> Status: ...


class Host:
    """One installable host: ``name`` (the ``--agent`` value), ``wiring`` (its
    ``INSTALL`` row), ``adapter`` (its ``memhooks.agents`` module)."""

    __slots__ = ("adapter", "name", "wiring")

    def __init__(self, name: str, adapter: ModuleType) -> None:
        self.name = name
        self.adapter = adapter
        self.wiring: Wiring = adapter.INSTALL

    def __repr__(self) -> str:
        return f"Host({self.name!r})"

    @property
    def LEVELS(self) -> tuple[str, ...]:
        """Levels the host has, the default first."""
        return self.wiring.get("levels", (USER, PROJECT))

    @property
    def default_level(self) -> str:
        return self.LEVELS[0]

    @property
    def events(self) -> Events:
        """``(native event, matcher)`` a plain install wires."""
        return self.wiring["events"]

    @property
    def EVENTS(self) -> tuple[str, ...]:
        """The native events a plain install wires, in order, once each."""
        return tuple(dict.fromkeys(event for event, _ in self.events))

    @property
    def capture(self) -> Events:
        return self.wiring.get("capture", ())

    @property
    def delivery(self) -> Any:
        """The host's reply row (``memhooks.agents.delivery.Delivery``), or None."""
        return getattr(self.adapter, "DELIVERY", None)

    @property
    def behaviour(self) -> ModuleType:
        """The module that installs, uninstalls and reports this host."""
        name = self.wiring.get("installer", "jsonhooks")
        module: ModuleType = __import__(f"{__package__}.{name}", fromlist=["_"])
        return module

    def config_path(self, ctx: Context, level: str | None = None) -> str:
        """The config file (or folder) memhooks writes at ``level`` (default
        ``ctx.level``). Raises UsageError for a level the host does not have."""
        level = level or ctx.level
        if level not in self.LEVELS:
            raise UsageError(f"{self.name} has no {level}-level config; use --{self.default_level}")
        if level == PROJECT:
            return os.path.join(ctx.root, *self.wiring["project"].split("/"))
        return ctx.user_path(self.wiring["user"])

    def command(self, ctx: Context, event: str | None = None) -> str:
        """The hook command for ``event`` (passed on only where the row says so); for a
        host that runs commands in a shell, one that sources the launcher."""
        passed = event if self.wiring.get("event_arg") else None
        if self.wiring.get("shell") and ctx.launcher and ctx.exe == [ctx.launcher]:
            return command.sourcing(ctx.launcher, command.arguments(self.name, passed, ctx.roles))
        return command.shell(self.name, passed, ctx.roles, ctx.exe)

    def entry(self, ctx: Context, event: str, matcher: str | None) -> dict[str, Any]:
        """One config entry for ``event``, shaped like the row's ``hook`` template."""
        hook = fill(self.wiring.get("hook", {}), self.command(ctx, event))
        if self.wiring.get("groups"):
            return {"matcher": matcher, "hooks": [hook]} if matcher else {"hooks": [hook]}
        return {**hook, "matcher": matcher} if matcher else hook

    def entries(self, ctx: Context, events: Events | None = None) -> dict[str, list[Any]]:
        """Event -> entries for ``events`` (default: a plain install's)."""
        out: dict[str, list[Any]] = {}
        for event, matcher in self.events if events is None else events:
            out.setdefault(event, []).append(self.entry(ctx, event, matcher))
        return out


def fill(template: Any, value: str) -> Any:
    """``template`` (a deep copy) with every ``"$COMMAND"`` string replaced by ``value``."""
    if template == "$COMMAND":
        return value
    if isinstance(template, dict):
        return {key: fill(item, value) for key, item in template.items()}
    if isinstance(template, list):
        return [fill(item, value) for item in template]
    return copy.deepcopy(template)


def _build() -> dict[str, Host]:
    found = {
        name: Host(name, module)  # type: ignore[arg-type]  # Host: the agents' Protocol
        for name, module in HOSTS.items()
        if hasattr(module, "INSTALL")
    }
    return dict(sorted(found.items()))


#: ``--agent`` name -> :class:`Host`, alphabetical (the order users read them in).
INSTALLERS: dict[str, Host] = _build()


def host(name: str) -> Host:
    """The host called ``name``; UsageError naming the known ones otherwise."""
    found = INSTALLERS.get(name)
    if found is None:
        raise UsageError(
            f"unknown agent {name!r}; expected one of: {', '.join(INSTALLERS)}", argument="--agent"
        )
    return found
