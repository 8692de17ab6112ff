from uptime.incidents import Window
from uptime.maintenance import is_excused


def test_announced_maintenance_is_excused():
    assert is_excused(Window(1_000_000, 1_003_600), announced_at=0)


def test_short_notice_maintenance_counts():
    assert not is_excused(Window(1_000_000, 1_003_600), announced_at=1_000_000 - 47 * 3600)
