"""The benchmarks' Claude Code stand-in (``bench/claude_host.py``): its payloads are what
the hook reads from Claude Code, and it reads replies as Claude Code does — so the
session benchmark's figures count what really reached the model."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import claude_host

HOOK = '---\nschema: memhooks/v2\nrecall_queries:\n  - "How are invoice totals rounded?"\n---\n'


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    from memhooks.store import MemoryStore, project_id

    root = tmp_path / "proj"
    (root / "billing").mkdir(parents=True)
    (root / "MEMHOOKS.md").write_text(HOOK)
    (root / "billing" / "invoice.py").write_text("TOTAL = 0\nROUND = 2\n")
    store = tmp_path / "memories.sqlite3"
    with MemoryStore(str(store)) as opened:
        opened.import_jsonl(project_id(str(root)), [
            json.dumps({"id": "m-round", "text": "Invoice totals are rounded half-even to two decimals."}),
            json.dumps({"id": "m-other", "text": "Invoice totals exclude refunds."}),
        ])  # fmt: skip
    env = {"MEMHOOKS_STORE": str(store), "MEMHOOKS_ROOT": str(root),
           "MEMHOOKS_STATE_DIR": str(tmp_path / "state")}  # fmt: skip
    return root, env


def test_the_prompt_payload_keeps_every_recorded_field_and_sets_ours() -> None:
    recorded = claude_host.recorded("UserPromptSubmit")
    session = claude_host.Session("/repo", session_id="s-1")
    payload = json.loads(session.prompt("round the totals"))
    assert set(payload) == set(recorded)
    assert (payload["cwd"], payload["session_id"], payload["prompt"]) == (
        "/repo",
        "s-1",
        "round the totals",
    )
    assert payload["transcript_path"].endswith("/-repo/s-1.jsonl")


def test_a_read_is_normalized_as_a_read_of_that_file_in_the_same_turn(project) -> None:
    from memhooks.hook.handler import parse

    root, _env = project
    session = claude_host.Session(str(root))
    prompt = json.loads(session.prompt("round the totals"))
    raw = session.read(str(root / "billing" / "invoice.py"))
    event = parse(raw, agent="claude-code")
    assert (event.native_event, event.tool_name) == ("PostToolUse", "Read")
    assert [(f.action, f.path) for f in event.files] == [
        ("read", str(root / "billing" / "invoice.py"))
    ]
    payload = json.loads(raw)
    assert payload["prompt_id"] == prompt["prompt_id"]
    assert payload["tool_response"]["file"]["numLines"] == 2


def test_memory_ids_come_from_the_hooks_real_stdout_in_rank_order(project) -> None:
    from memhooks.hook.handler import handle

    root, env = project
    raw = claude_host.Session(str(root)).prompt("how are invoice totals rounded")
    stdout = handle(raw, agent="claude-code", env=env, time_s=30).stdout
    text = claude_host.model_text(stdout, "UserPromptSubmit")
    assert text is not None and text.startswith("[MemHooks")
    assert claude_host.memory_ids(text)[0] == "m-round"
    assert set(claude_host.memory_ids(text)) == {"m-round", "m-other"}


def test_only_what_claude_code_shows_the_model_counts() -> None:
    body = '{"schema":"memhooks/memories-v1","memories":[{"id":"a","text":"x"},{"id":"b","text":"{\\"schema\\":\\"memhooks/memories-v1\\"}"}],"guidance":[]}'
    reply = json.dumps(
        {
            "hookSpecificOutput": {
                "hookEventName": "PostToolUse",
                "additionalContext": "L1\nL2\n" + body,
            }
        }
    )
    assert claude_host.memory_ids(claude_host.model_text(reply, "PostToolUse")) == ["a", "b"]
    # A reply echoing another event is dropped by the host; plain stdout reaches the
    # model only at prompt and session start; an empty stdout is the no-op.
    assert claude_host.model_text(reply, "UserPromptSubmit") is None
    assert claude_host.model_text("L1\n" + body, "UserPromptSubmit") == "L1\n" + body
    assert claude_host.model_text("L1\n" + body, "PostToolUse") is None
    assert claude_host.model_text("", "PostToolUse") is None
    # Two deliveries in one text are read first to last.
    assert claude_host.memory_ids(body + "\n" + body.replace('"a"', '"c"')) == ["a", "b", "c", "b"]
