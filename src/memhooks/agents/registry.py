"""The agent hosts memhooks understands, and the two entry points that use them.

``HOSTS`` maps each host's name (the ``--agent`` value) to its module. Its order
is the detection order: hosts with unmistakable markers first (Cline's
``hookName``, Windsurf's ``agent_action_name``, Cursor's ``conversation_id``,
Hermes' event names, OpenCode's shapes, VS Code's ``hookEventName``, Copilot
CLI's event-less camelCase), then the Claude look-alikes from the most to the
least specific (Gemini, Kiro, Codex, Claude Code), and ``generic`` last.
Adding a host is one module and one line here.
"""

from __future__ import annotations

from .base import UNKNOWN, NormalizedEvent
from .delivery import NONE, Delivery

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: see base.py
if TYPE_CHECKING:
    from .base import Adapter

    #: Host name -> adapter module, in detection order (built on first use: a hook
    #: called with ``--agent NAME`` imports one adapter, not all of them).
    HOSTS: dict[str, Adapter]

#: Host name -> module name, in detection order.
_MODULES = {
    "cline": "cline",
    "windsurf": "windsurf",
    "cursor": "cursor",
    "hermes": "hermes",
    "opencode": "opencode",
    "copilot-vscode": "copilot_vscode",
    "copilot-cli": "copilot_cli",
    "gemini-cli": "gemini_cli",
    "kiro": "kiro",
    "codex": "codex",
    "claude-code": "claude_code",
    "generic": "generic",
}


def host_module(name: str) -> Adapter:
    """The adapter module of host ``name``; KeyError for an unknown name."""
    module: Adapter = __import__(f"{__package__}.{_MODULES[name]}", fromlist=["_"])
    return module


def delivery_of(host: str | None) -> Delivery:
    """``host``'s ``DELIVERY`` row (:data:`memhooks.agents.delivery.NONE` for an unknown
    or missing host)."""
    if not host:
        return NONE
    try:
        row: Delivery = host_module(host).DELIVERY
    except KeyError:
        return NONE
    return row


def noop(host: str | None, native_event: str | None) -> str:
    """The stdout that means "nothing to add" for ``host`` and ``native_event``."""
    return delivery_of(host).for_event(native_event).noop


def __getattr__(name: str) -> object:
    if name == "HOSTS":
        hosts = {key: host_module(key) for key in _MODULES}
        globals()["HOSTS"] = hosts
        return hosts
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def detect_host(payload: object) -> str | None:
    """The name of the host that sent ``payload`` (any JSON value), or None.

    Decided from the payload alone (event-name spellings and host-only keys);
    prefer the host's ``--agent`` name when the caller has it: some payloads
    are the same for several hosts (Kiro IDE and Claude Code send identical
    prompts; CodeBuddy is Claude-compatible) and go to the more common one.
    """
    if not isinstance(payload, dict):
        return None
    for name in _MODULES:
        if host_module(name).detect(payload):
            return name
    return None


def normalize(
    payload: object, host: str | None = None, native_event: str | None = None
) -> NormalizedEvent:
    """Turn one hook payload into a :class:`NormalizedEvent`. Never raises on a JSON value.

    ``payload`` is the decoded stdin JSON (any value). ``host`` is a key of
    ``HOSTS`` (detected when None); an unknown name raises
    ``memhooks.errors.UsageError``. ``native_event`` is the event name from the
    command line, used when the payload does not name its event (Copilot CLI,
    bare OpenCode objects); a normalized event name is accepted there too.

    A payload no host recognises gives ``host="unknown"``, ``event=None``;
    a recognised payload whose event means nothing to memhooks gives
    ``event=None``. Either way the caller does nothing and says so on stderr.
    """
    if host is None:
        host = detect_host(payload)
        if host is None:
            return NormalizedEvent(UNKNOWN, raw=payload)
    if host not in _MODULES:
        from ..errors import UsageError

        raise UsageError(
            f"unknown agent {host!r}; expected one of: {', '.join(sorted(_MODULES))}", "MH040"
        )
    adapter = host_module(host)
    hint = native_event if isinstance(native_event, str) else None
    if not isinstance(payload, dict):
        return NormalizedEvent(host, native_event=hint, raw=payload)
    return adapter.normalize(payload, hint)
