"""Incident windows and the downtime they add up to."""

from dataclasses import dataclass


@dataclass
class Window:
    start: int  # seconds since the epoch
    end: int

    @property
    def seconds(self) -> int:
        return self.end - self.start


def downtime_minutes(windows):
    """Minutes of downtime in ``windows``."""
    return sum(w.seconds for w in windows) / 60
