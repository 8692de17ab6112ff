"""Incident windows and the downtime they add up to."""

from dataclasses import dataclass

#: Windows shorter than this (seconds) are blips, not downtime.
MIN_BLIP_S = 90
#: Windows closer than this (seconds) are one incident; the gap counts as downtime.
MERGE_GAP_S = 300


@dataclass
class Window:
    start: int  # seconds since the epoch
    end: int

    @property
    def seconds(self) -> int:
        return self.end - self.start


def merge_windows(windows):
    """Overlapping windows merged into one (sorted by start)."""
    merged = []
    for w in sorted(windows, key=lambda w: w.start):
        if merged and w.start < merged[-1].end + MERGE_GAP_S:
            merged[-1] = Window(merged[-1].start, max(merged[-1].end, w.end))
        else:
            merged.append(Window(w.start, w.end))
    return merged


def downtime_minutes(windows):
    """Minutes of downtime in ``windows``: overlapping windows count once."""
    kept = [w for w in merge_windows(windows) if w.seconds >= MIN_BLIP_S]
    return sum(w.seconds for w in kept) / 60
