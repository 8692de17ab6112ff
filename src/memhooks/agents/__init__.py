"""Agent hosts' hook payloads, normalized to one set of lifecycle events (input side only)."""

from __future__ import annotations

from .base import ACTIONS, EVENTS, UNKNOWN, FileChange, NormalizedEvent
from .patch import parse_patch

__all__ = ["ACTIONS", "EVENTS", "UNKNOWN", "FileChange", "NormalizedEvent", "parse_patch"]
