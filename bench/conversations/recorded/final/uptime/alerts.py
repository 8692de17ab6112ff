"""When a failing health check pages the on-call engineer."""

PAGE_AFTER_FAILURES = 3


def should_page(recent_results):
    """``recent_results``: check results, newest last, True for a passing check. Pages only
    after PAGE_AFTER_FAILURES consecutive failures."""
    last = recent_results[-PAGE_AFTER_FAILURES:]
    return len(last) == PAGE_AFTER_FAILURES and not any(last)
