"""Every recorded hook payload normalizes to the host, event, files and fields in expected.json.

``data/payloads/`` holds copies of ``shared/fixtures/payloads`` (``real/`` captured from
the agent programs, ``docs/`` written from documentation, ``memorix-derived/`` with
drifting field names); ``data/expected.json`` maps each file to its expected result.
An entry's ``agent`` is the host that really sent it when detection alone cannot
tell (the result must be the same with ``--agent``); ``note`` explains oddities.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memhooks.agents import UNKNOWN, detect_host, normalize

DATA = Path(__file__).parent / "data"
PAYLOADS = DATA / "payloads"
EXPECTED: dict[str, dict[str, object]] = json.loads((DATA / "expected.json").read_text("utf-8"))
FIELDS = (
    "native_event",
    "cwd",
    "session_id",
    "prompt",
    "tool_name",
    "command",
    "exit_code",
    "success",
    "output",
    "error",
    "response",
    "reason",
)


def _load(name: str) -> object:
    return json.loads((PAYLOADS / name).read_text("utf-8"))


def test_every_payload_file_has_an_expectation() -> None:
    files = {p.relative_to(PAYLOADS).as_posix() for p in PAYLOADS.rglob("*.json")}
    assert files == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_payload_normalizes_as_expected(name: str) -> None:
    expected = EXPECTED[name]
    payload = _load(name)
    event = normalize(payload)
    assert event.host == expected["host"]
    assert event.event == expected["event"]
    assert [f.as_list() for f in event.files] == expected["files"]
    for field in FIELDS:
        assert getattr(event, field) == expected.get(field), field
    assert event.raw is payload
    detected = detect_host(payload)
    assert detected == (None if expected["host"] == UNKNOWN else expected["host"])


@pytest.mark.parametrize("name", sorted(n for n, e in EXPECTED.items() if "agent" in e))
def test_ambiguous_payload_is_right_with_agent_given(name: str) -> None:
    expected = EXPECTED[name]
    event = normalize(_load(name), host=str(expected["agent"]))
    assert (event.host, event.event) == (expected["agent"], expected["event"])
    assert [f.as_list() for f in event.files] == expected["files"]


@pytest.mark.parametrize("name", sorted(n for n, e in EXPECTED.items() if e["host"] != UNKNOWN))
def test_payload_is_the_same_with_its_host_given(name: str) -> None:
    # The installer always passes --agent; that path must agree with detection.
    expected = EXPECTED[name]
    event = normalize(_load(name), host=str(expected["host"]), native_event=None)
    assert event.event == expected["event"]
    assert [f.as_list() for f in event.files] == expected["files"]


def test_real_captures_cover_every_host_that_ran_offline() -> None:
    real = {e["host"] for n, e in EXPECTED.items() if n.startswith("real/")}
    assert real == {"claude-code", "codex", "gemini-cli", "copilot-cli", "opencode", "hermes"}
