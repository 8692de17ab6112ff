"""Monthly uptime and the credit a customer gets below the target."""

SLA_TARGET = 99.9


def monthly_uptime(down_minutes, days=30):
    total = days * 24 * 60
    return 100 * (total - down_minutes) / total


def credit_percent(uptime):
    return 10 if uptime < SLA_TARGET else 0
