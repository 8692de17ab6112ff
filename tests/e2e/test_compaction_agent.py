"""After a compaction, what the session was told comes back with the session start, with
a real agent (rough20, issue 20).

The retry story (``tests/lines/data/retry_story.json``: decision → unrelated commit →
a misleading "perf: simplify retry" on the same lines), Claude Code with the default
install (``memhooks init``, ``memhooks agents install``; no store). Three runs of one
session: a prompt whose turn reads ``retryx/retry.py`` (the hook tells the decision
behind the simplified lines), ``/compact`` (Claude Code asks the model for a summary —
the fake model's says nothing of the decision — and fires ``SessionStart`` with source
``compact``), then a prompt: its model request must hold the decision again, from the
session start's reply, under memhooks' label.
"""

from __future__ import annotations

import json
import uuid

import pytest
from e2e_support import Story, fake_llm

LABEL = "[memhooks: what this session was told before the compaction"
DECISION = "fix: cap Retrier at the measured attempt budget"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    base = tmp_path_factory.mktemp("compaction")
    story = Story(base)
    root = story.root
    session = str(uuid.uuid4())
    steps = [
        ("Look at the retry loop", [{"read": str(root / "retryx" / "retry.py")}], "--session-id"),
        ("/compact", [], "--resume"),
        ("Now make it reject a zero attempt count", [], "--resume"),
    ]
    requests: list[list[str]] = []
    outputs = []
    for number, (prompt, script, flag) in enumerate(steps):
        server = fake_llm(base / f"requests-{number}.jsonl", script=script)
        try:
            done = story.claude(server.base_url, prompt, flag, session)
        finally:
            server.stop()
        requests.append([json.dumps(r["body"], ensure_ascii=False) for r in server.requests()])
        outputs.append(f"exit {done.returncode}: {done.stdout[-500:]} {done.stderr[-500:]}")
    return {"hashes": story.hashes, "requests": requests, "outputs": "\n".join(outputs)}


def test_the_read_told_the_decision_before_the_compaction(runs: dict[str, object]) -> None:
    requests, hashes = runs["requests"], runs["hashes"]
    assert isinstance(requests, list) and isinstance(hashes, dict)
    assert any(hashes["decision"][:12] in body for body in requests[0]), runs["outputs"]


def test_the_prompt_after_the_compaction_has_the_decision_again(runs: dict[str, object]) -> None:
    requests, hashes = runs["requests"], runs["hashes"]
    assert isinstance(requests, list) and isinstance(hashes, dict)
    assert requests[1], f"/compact asked the model nothing: {runs['outputs']}"
    after = requests[2]
    assert after, runs["outputs"]
    body = after[-1]
    assert LABEL in body, runs["outputs"]
    carried = body[body.index(LABEL) :]
    assert f'{hashes["regression"][:12]} \\"perf: simplify retry\\"' in carried
    assert f'before it {hashes["decision"][:12]} \\"{DECISION}\\"' in carried
    assert body.count(LABEL) == 1  # once: the session start's reply, not again
