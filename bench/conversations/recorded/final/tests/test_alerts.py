from uptime.alerts import should_page


def test_pages_after_three_failures():
    assert not should_page([False, False])
    assert should_page([False, False, False])


def test_passing_check_does_not_page():
    assert not should_page([True])
