"""The host's reply for an event: a thin view over each host's ``DELIVERY`` row
(:mod:`memhooks.agents.delivery`), kept for the hook handler."""

from __future__ import annotations

from ..agents.delivery import CLINE, CONTEXT, HOOK_SPECIFIC, PLAIN, SNAKE, TOP_LEVEL, Delivery, delivery_of
from ..agents.delivery import noop as noop

__all__ = ["CLINE", "CONTEXT", "HOOK_SPECIFIC", "PLAIN", "SNAKE", "TOP_LEVEL", "can_inject", "noop", "render", "shape_for"]


def shape_for(host: str, native_event: str | None) -> Delivery:
    """The reply row of ``host`` for ``native_event`` (never raises)."""
    return delivery_of(host).for_event(native_event)


def can_inject(host: str, native_event: str | None) -> bool:
    """Whether ``host`` delivers context returned for ``native_event`` to the model at
    prompt time."""
    row = shape_for(host, native_event)
    return row.kind is not None and native_event in row.prompt_events


def render(host: str, native_event: str, context: str) -> str:
    """The stdout that delivers ``context`` to the model."""
    return delivery_of(host).render(native_event, context)
