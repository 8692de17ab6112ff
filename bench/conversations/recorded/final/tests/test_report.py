from uptime.report import render_report


def test_report_names_the_service():
    assert render_report("api", 100.0, 0).startswith("api:")
