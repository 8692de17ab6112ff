"""How a host takes context back from a hook: one :class:`Delivery` row per host.

Each host module (``memhooks.agents.<host>``) declares ``DELIVERY``: the reply *kind*,
the native events whose reply reaches the model at prompt time (``prompt_events``) and
at tool time (``tool_events``), the reply that means "nothing to add" (``noop``), the
most characters the host keeps of one context string (``cap``, None: no documented
cap), and two human sentences for ``memhooks agents status``. ``pre_tool_events``: the
native pre-tool events whose reply reaches the model (an edit's lines are told there; the
model gets it with the edit's result, having chosen the edit already; ``edit_channel``
says how), none for a host that has no such channel. A host whose config
syntax switches its protocol (Copilot CLI with PascalCase event names speaks Claude's)
lists the other rows in ``variants``.

Sources: ``shared/spec/real-agents.md`` (where hook output was seen in the model
request, real runs) over ``shared/spec/agent-hooks.md`` (the hosts' docs). Pure data and
string building; no I/O, nothing imported but :mod:`json` when a reply is rendered.
"""

from __future__ import annotations

from ..fast.jsonfast import dumps

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: see base.py
if TYPE_CHECKING:
    from collections.abc import Mapping

#: Reply kinds: Claude's ``{"hookSpecificOutput": {"hookEventName", "additionalContext"}}``,
#: Copilot CLI's top-level ``additionalContext``, Cursor's ``additional_context``, plain
#: stdout (Kiro), ``{"context"}`` (Hermes, our OpenCode plugin), Cline's
#: ``{"cancel": false, "contextModification"}``.
HOOK_SPECIFIC = "hookSpecificOutput"
TOP_LEVEL = "additionalContext"
SNAKE = "additional_context"
PLAIN = "plain"
CONTEXT = "context"
CLINE = "contextModification"


class Delivery:
    """One host's reply protocol (see the module docstring). Immutable by convention."""

    __slots__ = (
        "cap",
        "edit_channel",
        "kind",
        "noop",
        "pre_tool_events",
        "prompt_channel",
        "prompt_events",
        "tool_channel",
        "tool_events",
        "variants",
    )

    def __init__(
        self,
        kind: str | None,
        prompt_events: tuple[str, ...] = (),
        tool_events: tuple[str, ...] = (),
        *,
        noop: str = "",
        cap: int | None = None,
        prompt_channel: str | None = None,
        tool_channel: str | None = None,
        variants: Mapping[str, Delivery] | None = None,
        pre_tool_events: tuple[str, ...] = (),
        edit_channel: str | None = None,
    ) -> None:
        self.kind = kind
        self.prompt_events = frozenset(prompt_events)
        self.tool_events = frozenset(tool_events)
        self.noop = noop
        self.cap = cap
        self.prompt_channel = prompt_channel
        self.tool_channel = tool_channel
        self.variants = dict(variants or {})
        self.pre_tool_events = frozenset(pre_tool_events)
        self.edit_channel = edit_channel

    def for_event(self, native_event: str | None) -> Delivery:
        """The row that applies to ``native_event`` (a variant, else this one)."""
        if native_event is not None and native_event in self.variants:
            return self.variants[native_event]
        return self

    def injects(self, native_event: str | None) -> bool:
        """Whether a reply to ``native_event`` reaches the model (prompt or tool time)."""
        row = self.for_event(native_event)
        return (
            row.kind is not None
            and native_event is not None
            and (
                native_event in row.prompt_events
                or native_event in row.tool_events
                or native_event in row.pre_tool_events
            )
        )

    def before_tool(self, native_event: str | None) -> bool:
        """Whether ``native_event`` is a pre-tool event whose reply reaches the model
        before the tool's result does (issue 20 item 3: the owners of lines about to be
        replaced)."""
        row = self.for_event(native_event)
        return row.kind is not None and native_event in row.pre_tool_events

    @property
    def has_pre_tool(self) -> bool:
        """The host has a pre-tool channel (else an edit is told after it, at tool time)."""
        return bool(self.pre_tool_events)

    def at_tool_time(self, native_event: str | None) -> bool:
        """Whether ``native_event`` is one of the host's tool-time channels."""
        row = self.for_event(native_event)
        return row.kind is not None and native_event in row.tool_events

    def render(self, native_event: str, context: str) -> str:
        """The stdout that delivers ``context`` to the model for ``native_event``.
        Call only when :meth:`injects` is true."""

        kind = self.for_event(native_event).kind
        if kind == PLAIN:
            return context
        if kind == HOOK_SPECIFIC:
            body: dict[str, object] = {
                HOOK_SPECIFIC: {"hookEventName": native_event, "additionalContext": context}
            }
        elif kind == CLINE:
            body = {"cancel": False, CLINE: context}
        else:
            body = {str(kind): context}
        return dumps(body, ensure_ascii=False)


#: The row of a host that no adapter recognised: nothing reaches the model.
NONE = Delivery(None)
