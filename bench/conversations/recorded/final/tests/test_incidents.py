from uptime.incidents import Window, downtime_minutes


def test_single_window():
    assert downtime_minutes([Window(0, 600)]) == 10


def test_overlapping_windows_count_once():
    assert downtime_minutes([Window(0, 600), Window(300, 900)]) == 15


def test_blips_are_ignored():
    assert downtime_minutes([Window(0, 89)]) == 0
    assert downtime_minutes([Window(0, 91)]) > 0


def test_merged_blips_count():
    assert downtime_minutes([Window(0, 40), Window(30, 70)]) > 0
