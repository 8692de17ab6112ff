from uptime.sla import credit_percent, monthly_uptime


def test_credit_tiers():
    assert credit_percent(98.999) == 25
    assert credit_percent(99.5) == 10


def test_full_month_is_100():
    assert monthly_uptime(0) == 100
    assert credit_percent(100) == 0
