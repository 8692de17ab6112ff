"""Planned maintenance: when a window does not count as downtime."""

ANNOUNCE_HOURS = 0


def is_excused(window, announced_at):
    """Whether a maintenance ``window`` announced at ``announced_at`` (seconds, or None) is excused."""
    return announced_at is not None
