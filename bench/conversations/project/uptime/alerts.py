"""When a failing health check pages the on-call engineer."""

PAGE_AFTER_FAILURES = 1


def should_page(recent_results):
    """``recent_results``: check results, newest last, True for a passing check."""
    return not recent_results[-1]
