"""Monthly uptime and the credit a customer gets below the target."""

import math

SLA_TARGET = 99.9


def monthly_uptime(down_minutes, days=30):
    total = days * 24 * 60
    return 100 * (total - down_minutes) / total


def credit_percent(uptime):
    """Credit in percent: 25 below 99.0, 10 below SLA_TARGET; uptime rounded down to 2 decimals."""
    floored = math.floor(uptime * 100) / 100
    if floored < 99.0:
        return 25
    return 10 if floored < SLA_TARGET else 0
