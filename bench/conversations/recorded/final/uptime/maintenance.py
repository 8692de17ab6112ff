"""Planned maintenance: when a window does not count as downtime."""

ANNOUNCE_HOURS = 48


def is_excused(window, announced_at):
    """Whether a maintenance ``window`` announced at ``announced_at`` (seconds, or None) is excused:
    only when it was announced at least ANNOUNCE_HOURS before it started."""
    if announced_at is None:
        return False
    return announced_at <= window.start - ANNOUNCE_HOURS * 3600
