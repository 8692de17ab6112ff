from uptime.incidents import Window, downtime_minutes


def test_single_window():
    assert downtime_minutes([Window(0, 600)]) == 10
