"""Test doubles and paths shared by the store tests (a module name no other test folder uses)."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).parent / "data"
#: 2026-11-30T12:00:00Z
T0 = 1_796_040_000.0


class FakeClock:
    """Seconds since the epoch; moves only when told to."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
