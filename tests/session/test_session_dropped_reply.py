"""A reply the deadline dropped records nothing (newcomer trial #1): under load, parallel
hook calls of one session gave up at the deadline with "nothing added", yet the session's
ledger listed what they had found, so those memories never came again in that session.
The ledger and the reply are one decision: what a call records stands only once its reply
wins the output."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from session_support import Agent, delivered

from memhooks.hook.call import HOLD_S

#: ``memhooks hook`` as installed hosts run it, with the machine "loaded" right after the
#: call recorded its delivery: the watchdog answers first (its real ``os._exit``).
SLOW_AFTER_RECORD = """
import sys, time
from memhooks.session import record

recorded = record.Session.record

def slow(self, *args, **kwargs):
    claimed = recorded(self, *args, **kwargs)
    time.sleep(5)  # past the 300 ms deadline
    return claimed

record.Session.record = slow
from memhooks.commands.hook import main
sys.exit(main(["--agent", "claude-code"]))
"""


def read_payload(agent: Agent, rel: str) -> str:
    path = str(agent.root / rel)
    return json.dumps({
        "session_id": agent.session, "cwd": str(agent.root), "transcript_path": "/dev/null",
        "hook_event_name": "PostToolUse", "tool_name": "Read", "tool_input": {"file_path": path},
        "tool_response": {"type": "text", "file": {"filePath": path}},
    })  # fmt: skip


def deliveries(agent: Agent) -> list[dict[str, object]]:
    done = subprocess.run(
        [sys.executable, "-m", "memhooks", "sessions", "show", agent.session, "--format", "json"],
        capture_output=True, text=True, env=agent.env, cwd=agent.root, check=True,
    )  # fmt: skip
    return list(json.loads(done.stdout)["deliveries"])


def test_a_read_the_deadline_dropped_leaves_nothing_in_the_ledger(agent: Agent) -> None:
    env = {**agent.env, "MEMHOOKS_HOOK_TIMEOUT_MS": "300"}
    dropped = subprocess.run(
        [sys.executable, "-c", SLOW_AFTER_RECORD], check=False, input=read_payload(agent, "billing/invoice.py"),
        capture_output=True, text=True, env=env, cwd=agent.root, timeout=60,
    )  # fmt: skip
    assert (dropped.returncode, dropped.stdout) == (0, "")
    assert "gave up after the 300 ms deadline; nothing added" in dropped.stderr
    assert deliveries(agent) == []  # `sessions show`: nothing reached the model
    time.sleep(HOLD_S)  # what the dropped call claimed is held past its deadline, then lapses
    # The next read there brings what the dropped reply never carried, and records it.
    assert delivered(agent.read("billing/invoice.py")) == ["billing-cents", "tax-rate"]
    items = [str(i["item"]) for d in deliveries(agent) for i in d["items"]]  # type: ignore[attr-defined]
    assert [i for i in items if not i.startswith("guidance:")] == ["billing-cents", "tax-rate"]


def test_a_reply_that_loses_the_output_records_nothing(agent: Agent) -> None:
    from memhooks.hook import handle

    lost = handle(read_payload(agent, "billing/invoice.py"), agent="claude-code", env=agent.env,
                  time_s=30.0, claim=lambda: False)  # fmt: skip
    assert lost.stdout == "" and lost.note is None
    assert deliveries(agent) == []
    # Until its deadline has passed, the dropped call still holds what it claimed: a
    # parallel call does not serve the folder a second time.
    assert delivered(agent.read("billing/invoice.py")) == []


def test_held_rows_lapse_unless_confirmed(tmp_path: Path) -> None:
    from memhooks.session import State, open_session

    now = [1000.0]
    state = State(str(tmp_path / "state.sqlite3"), clock=lambda: now[0])
    item = [{"item": "billing-cents", "words": "w", "cue": "q"}]

    dropped = open_session(state, "claude-code", "s", "/p")
    dropped.hold_until = now[0] + 3.0
    assert dropped.claim(["billing"]) == ["billing"]
    assert dropped.record("PostToolUse", "billing", item, lambda c: 5, tool_time=True)
    parallel = open_session(state, "claude-code", "s", "/p")
    assert parallel.claim(["billing"]) == []  # held: being served
    assert "billing-cents" in parallel.delivered() and parallel.settled() == set()

    now[0] += 4.0  # past the hold: the dropped call never confirmed
    again = open_session(state, "claude-code", "s", "/p")
    assert again.served() == set() and again.delivered() == set() and again.tool_chars == 0
    again.hold_until = now[0] + 3.0
    assert again.claim(["billing"]) == ["billing"]
    assert again.record("PostToolUse", "billing", item, lambda c: 5, tool_time=True) == {
        "billing-cents"
    }
    again.confirm()

    now[0] += 10.0  # confirmed rows stand
    later = open_session(state, "claude-code", "s", "/p")
    assert later.settled() == {"billing"} and later.delivered() == {"billing-cents"}
    assert later.tool_chars == 5


def test_a_state_file_of_layout_1_keeps_its_ledgers(tmp_path: Path) -> None:
    import sqlite3

    from memhooks.session import State, open_session
    from memhooks.session.report import deliveries as logged
    from memhooks.session.state import VERSION

    path = tmp_path / "state.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(
        (Path(__file__).parent / "data" / "state_v1.sql").read_text(encoding="utf-8")
    )
    conn.close()
    state = State(str(path), clock=lambda: 2000.0)
    assert state.replaced is None  # migrated in place, not moved aside
    session = open_session(state, "claude-code", "s1", "/p")
    assert session.delivered() == {"billing-cents"} and session.settled() == {"billing"}
    assert session.tool_chars == 420 and [d["chars"] for d in logged(state, "s1")] == [420]
    assert state.read("PRAGMA user_version") == [(VERSION,)]


def test_each_older_layout_of_the_state_file_has_its_migration() -> None:
    from memhooks.session import layout, state

    assert sorted(layout.MIGRATE) == list(range(1, state.VERSION))


def test_a_reply_made_after_its_hold_lapsed_does_not_go_out(
    agent: Agent, monkeypatch: pytest.MonkeyPatch
) -> None:
    # helper-138: a hook process stopped past its hold (SIGSTOP, a suspended laptop) still
    # confirmed and sent what another call had told meanwhile: told twice, logged twice
    from memhooks.hook import call, handle

    monkeypatch.setattr(call, "HOLD_S", -60.0)  # what it holds has lapsed when it replies
    late = handle(read_payload(agent, "billing/invoice.py"), agent="claude-code", env=agent.env,
                  time_s=30.0, claim=lambda: True)  # fmt: skip
    assert late.stdout == "" and "stopped past what its reply held; nothing added" in str(late.note)
    assert deliveries(agent) == []
    monkeypatch.setattr(call, "HOLD_S", HOLD_S)
    assert delivered(agent.read("billing/invoice.py")) == ["billing-cents", "tax-rate"]
