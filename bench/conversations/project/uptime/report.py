"""The monthly report."""


def format_duration(minutes):
    return f"{minutes / 60:.2f} h"


def render_report(name, uptime, down_minutes):
    return f"{name}: {uptime:.3f}% up, {format_duration(down_minutes)} down"
