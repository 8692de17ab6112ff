"""Hand-written payloads for each host's edge cases (data/cases.json).

Each case: ``payload``, optional ``agent`` (the ``--agent`` value) and
``native_event`` (the event name from the command line), and ``expected``:
NormalizedEvent fields to compare, ``files`` as ``[action, path, old_path?]``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memhooks.agents import normalize

CASES = json.loads((Path(__file__).parent / "data" / "cases.json").read_text("utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_case(case: dict[str, object]) -> None:
    event = normalize(
        case["payload"], host=case.get("agent"), native_event=case.get("native_event")
    )
    expected = dict(case["expected"])  # type: ignore[call-overload]
    files = expected.pop("files", None)
    if files is not None:
        assert [f.as_list() for f in event.files] == files
    for field, value in expected.items():
        assert getattr(event, field) == value, field
