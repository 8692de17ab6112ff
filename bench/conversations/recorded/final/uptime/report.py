"""The monthly report."""


def format_duration(minutes):
    """``65`` -> ``1h 05m``; under an hour ``45m``."""
    hours, rest = divmod(round(minutes), 60)
    return f"{hours}h {rest:02d}m" if hours else f"{rest}m"


def render_report(name: str, uptime: float, down_minutes: float) -> str:
    return f"{name}: {uptime:.3f}% up, {format_duration(down_minutes)} down"
