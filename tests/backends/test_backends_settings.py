"""memhooks.backends.settings: a memory system's numbers and timeouts, one rule each."""

from __future__ import annotations

from typing import Any

import pytest

from memhooks.backends.generic import GenericBackend
from memhooks.backends.hindsight import HindsightBackend
from memhooks.backends.honcho import HonchoBackend
from memhooks.backends.openviking import OpenVikingBackend
from memhooks.backends.settings import bearer, number, seconds
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


@pytest.mark.parametrize(
    ("backend", "settings", "key"),
    [
        (HindsightBackend, {"url": "http://127.0.0.1:9", "bank": "b"}, "timeout"),
        (OpenVikingBackend, {"url": "http://127.0.0.1:9"}, "timeout"),
        (HonchoBackend, {"url": "http://127.0.0.1:9", "peer": "me"}, "timeout"),
        (GenericBackend, {"url": "http://127.0.0.1:9/search"}, "timeout_s"),
    ],
)
def test_every_server_backend_takes_its_timeout_by_one_rule(
    backend: Any, settings: dict[str, object], key: str
) -> None:
    # one rule for a memory system's timeout (seconds()): an hour at most, true is no number
    assert backend.open({**settings, key: 3600}).close() is None
    for bad in (3601, True, 0):
        with pytest.raises(
            BackendError, match=f"{key}: must be a number of seconds from 0 to 3600"
        ):
            backend.open({**settings, key: bad})


def test_a_bearer_key_is_one_header_or_none() -> None:
    assert bearer({"api_key": "k1"}, "hindsight") == {"authorization": "Bearer k1"}
    assert bearer({}, "honcho") == {}
