from uptime.alerts import should_page


def test_passing_check_does_not_page():
    assert not should_page([True])
