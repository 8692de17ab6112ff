from uptime.sla import credit_percent, monthly_uptime


def test_full_month_is_100():
    assert monthly_uptime(0) == 100
    assert credit_percent(100) == 0
