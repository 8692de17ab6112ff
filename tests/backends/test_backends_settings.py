"""memhooks.backends.settings: a memory system's numbers and timeouts, one rule each."""

from __future__ import annotations

import pytest

from memhooks.backends.settings import number, seconds
from memhooks.errors import BackendError

SECONDS = "^mem0: backends.mem0.timeout_s: must be a number of seconds from 0 to 3600"


@pytest.mark.parametrize("value", [True, False, 0, -1, 3601, "soon", float("nan")])
def test_a_timeout_is_seconds_above_0_and_at_most_an_hour(value: object) -> None:
    # a YAML `timeout_s: true` is no number of seconds, as number() says of it too
    with pytest.raises(BackendError, match=SECONDS):
        seconds({"timeout_s": value}, "mem0", "timeout_s", 5.0)


def test_true_is_no_number_either() -> None:
    with pytest.raises(BackendError, match="must be a positive number"):
        number({"timeout": True}, "honcho", "timeout", 30.0)


def test_a_timeout_given_or_not() -> None:
    assert seconds({"timeout_s": "2.5"}, "mem0", "timeout_s", 5.0) == 2.5
    assert seconds({"timeout_s": 3600}, "mem0", "timeout_s", 5.0) == 3600.0
    assert seconds({}, "mem0", "timeout_s", 5.0) == 5.0
