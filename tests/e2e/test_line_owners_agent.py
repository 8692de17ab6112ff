"""Why these lines are the way they are, with a real agent (issue 20 item 10).

A repository built here as *decision commit → unrelated commit → a misleading "perf:
simplify retry" on the same lines* (``tests/lines/data/retry_story.json``). Claude Code,
launched at the root with the default install (``memhooks init`` and ``memhooks agents
install``, nothing else: no history import, no store), reads ``retryx/retry.py`` and
then edits the simplified lines (``fake_llm.py --script``: a Read, then an Edit). The
decision commit's id and subject must be in the model request that planned the edit,
delivered once in the session, with the misleading commit named as the later owner.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import transcript
from e2e_support import Story, fake_llm

PATH = "retryx/retry.py"
DECISION = "fix: cap Retrier at the measured attempt budget"
OLD = "        self.attempts = attempts\n"
NEW = "        self.attempts = max(1, attempts)\n"
PROMPT = "Make the retry loop reject a zero attempt count"


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    base = tmp_path_factory.mktemp("line-recall")
    story = Story(base)
    root, hashes = story.root, story.hashes
    target = str(root / PATH)
    script = [{"read": target}, {"edit": target, "old": OLD, "new": NEW}]
    server = fake_llm(base / "requests.jsonl", script=script)
    try:
        started = time.monotonic()
        done = story.claude(server.base_url, PROMPT)
        seconds = time.monotonic() - started
    finally:
        server.stop()
    requests = server.requests()
    body = requests[-1]["body"] if requests else {}
    return {"root": root, "hashes": hashes, "requests": requests, "seconds": seconds,
            "transcript": transcript.read("claude-code", body, root),
            "output": f"exit {done.returncode}\n{done.stdout[-1500:]}\n{done.stderr[-1500:]}"}  # fmt: skip


def report(s: dict[str, object]) -> str:
    t = s["transcript"]
    assert isinstance(t, transcript.Transcript)
    lines = [f"calls: {t.calls} ({s['seconds']:.1f} s)"]
    lines += [f"  after {c.after!r} via {c.channel}: {c.text[:400]!r}" for c in t.contexts]
    return "\n".join(lines) + f"\n{s['output']}"


def test_the_session_played_as_scripted(session: dict[str, object]) -> None:
    t = session["transcript"]
    assert isinstance(t, transcript.Transcript)
    assert t.calls == [f"Read {PATH}", f"Edit {PATH}"], report(session)
    assert NEW in (Path(str(session["root"])) / PATH).read_text(), report(session)


def test_the_decision_reaches_the_model_before_the_edit_once(session: dict[str, object]) -> None:
    decision = session["hashes"]["decision"][:12]  # type: ignore[index]
    planned = [r for r in session["requests"] if str(r["reply"]).startswith("tool_call:Edit")]  # type: ignore[union-attr]
    assert planned, report(session)
    before_edit = json.dumps(planned[-1]["body"])
    assert decision in before_edit and DECISION in before_edit, report(session)
    t = session["transcript"]
    assert isinstance(t, transcript.Transcript)
    told = [c for c in t.contexts if decision in c.text]
    assert len(told) == 1, f"the decision was delivered {len(told)} times\n{report(session)}"


def test_the_misleading_commit_is_named_as_the_later_owner(session: dict[str, object]) -> None:
    hashes = session["hashes"]
    t = session["transcript"]
    assert isinstance(t, transcript.Transcript)
    told = "\n".join(c.text for c in t.contexts)
    later = f'{hashes["regression"][:12]} "perf: simplify retry"'  # type: ignore[index]
    assert f"{later} (2026-03-02); before it {hashes['decision'][:12]}" in told, report(session)  # type: ignore[index]
