"""Retrying calls to the payment gateway."""

import time

MAX_ATTEMPTS = 4  # the gateway's measured budget


class Retrier:
    def __init__(self, attempts=MAX_ATTEMPTS, backoff=0.5):
        # never above the budget: a fifth attempt charges the card twice
        self.attempts = min(attempts, MAX_ATTEMPTS)
        self.backoff = backoff

    def call(self, fn):
        for attempt in range(self.attempts):
            try:
                return fn()
            except TimeoutError:
                time.sleep(self.backoff * 2**attempt)
        raise TimeoutError("gateway did not answer")
