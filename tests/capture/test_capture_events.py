"""What each normalized event captures (and what it must not): one test per rule of issue 7."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from capture_support import memories

from memhooks.agents import NormalizedEvent
from memhooks.capture import observe, record

Claude = Callable[..., NormalizedEvent]


def _fail(claude: Claude, command: str, error: str, session: str = "s1") -> NormalizedEvent:
    return claude(
        "PostToolUseFailure",
        session,
        tool_name="Bash",
        tool_input={"command": command},
        error=error,
    )


def _ran(claude: Claude, command: str, stdout: str, session: str = "s1") -> NormalizedEvent:
    return claude(
        "PostToolUse",
        session,
        tool_name="Bash",
        tool_input={"command": command},
        tool_response={"stdout": stdout, "stderr": ""},
    )


def _edit(claude: Claude, project: Path, name: str, old: str, new: str) -> NormalizedEvent:
    return claude(
        "PostToolUse",
        tool_name="Edit",
        tool_input={"file_path": str(project / name), "old_string": old, "new_string": new},
    )


def test_prompt_keeps_decisions_in_the_users_words(
    claude: Claude, store_path: str, project: Path, capture_on: str
) -> None:
    prompt = (
        "Fix the limiter. We decided to keep the sliding window because bursts must be smoothed."
    )
    ids = observe(claude("UserPromptSubmit", prompt=prompt), store_path=store_path, now=1000.0)
    [memory] = memories(store_path, project)
    assert ids == [memory.id]
    assert memory.text == "We decided to keep the sliding window because bursts must be smoothed."
    assert (memory.kind, memory.scope, memory.tags) == ("decision", "", ["captured"])
    assert memory.source == "capture:claude-code:s1"


def test_prompt_that_asks_for_work_keeps_nothing(
    claude: Claude, store_path: str, capture_on: str
) -> None:
    for prompt in (
        "Round invoice totals to 2 decimals in billing.py and add a test",
        "Why does it reset? Fix it",
    ):
        assert (
            observe(claude("UserPromptSubmit", prompt=prompt), store_path=store_path, now=1000.0)
            == []
        )


def test_failure_then_success_is_a_problem_and_its_solution(
    claude: Claude, store_path: str, project: Path, capture_on: str
) -> None:
    error = "Exit code 1\nFAILED tests/test_limit.py::test_burst - assert 200 == 429\n1 failed, 7 passed in 0.84s"
    assert (
        observe(
            _fail(claude, "pytest -q tests/test_limit.py", error), store_path=store_path, now=1000.0
        )
        == []
    )
    observe(
        _edit(claude, project, "src/limit.py", "WINDOW = 1", "WINDOW = 60"),
        store_path=store_path,
        now=1010.0,
    )
    observe(
        _ran(claude, "pip install redis", "Successfully installed redis-5.0.4"),
        store_path=store_path,
        now=1020.0,
    )
    ids = observe(
        _ran(claude, "pytest tests/test_limit.py -x", "8 passed in 0.5s"),
        store_path=store_path,
        now=1030.0,
    )
    [memory] = memories(store_path, project)
    assert ids == [memory.id]
    assert memory.kind == "problem-solution"
    assert memory.text == (
        "`pytest -q tests/test_limit.py` failed: FAILED tests/test_limit.py::test_burst - assert 200 == 429\n"
        "1 failed, 7 passed in 0.84s\n"
        "Fixed by: edited src/limit.py; ran `pip install redis`. Then `pytest tests/test_limit.py -x` passed."
    )
    assert (memory.scope, memory.files) == ("src", ["src/limit.py"])


def test_success_of_another_command_or_session_solves_nothing(
    claude: Claude, store_path: str, capture_on: str
) -> None:
    observe(
        _fail(claude, "pytest tests/a.py", "FAILED tests/a.py::t - assert 1 == 2"),
        store_path=store_path,
        now=1000.0,
    )
    assert (
        observe(_ran(claude, "pytest tests/b.py", "3 passed"), store_path=store_path, now=1010.0)
        == []
    )
    assert (
        observe(
            _ran(claude, "pytest tests/a.py", "1 passed", session="other"),
            store_path=store_path,
            now=1020.0,
        )
        == []
    )
    # A broader run of the same program in the same session does solve it.
    assert len(observe(_ran(claude, "pytest", "9 passed"), store_path=store_path, now=1030.0)) == 1


def test_listing_commands_and_silent_hosts_are_ignored(
    claude: Claude, store_path: str, capture_on: str
) -> None:
    observe(
        _fail(claude, "ls missing", "ls: cannot access 'missing': No such file"),
        store_path=store_path,
        now=1000.0,
    )
    assert observe(_ran(claude, "ls missing", "missing"), store_path=store_path, now=1010.0) == []


def test_plain_code_edit_keeps_nothing(
    claude: Claude, store_path: str, project: Path, capture_on: str
) -> None:
    event = _edit(
        claude,
        project,
        "src/billing.py",
        "    return sum(items)",
        "    return round(sum(items), 2)",
    )
    assert observe(event, store_path=store_path, now=1000.0) == []


def test_edit_with_a_reason_in_a_comment_is_what_changed(
    claude: Claude, store_path: str, project: Path, capture_on: str
) -> None:
    new = "// decided: sliding window, because fixed buckets reset on every deploy\nconst WINDOW_MS = 60_000;"
    observe(
        _edit(claude, project, "src/limit.ts", "const WINDOW_MS = 1000;", new),
        store_path=store_path,
        now=1000.0,
    )
    [memory] = memories(store_path, project)
    assert (
        memory.text
        == "Changed src/limit.ts: decided: sliding window, because fixed buckets reset on every deploy"
    )
    assert (memory.kind, memory.scope, memory.files) == ("what-changed", "src", ["src/limit.ts"])


def test_configuration_edit_records_the_values(
    claude: Claude, store_path: str, project: Path, capture_on: str
) -> None:
    event = _edit(
        claude,
        project,
        "pyproject.toml",
        'requires-python = ">=3.10"',
        'requires-python = ">=3.12"',
    )
    observe(event, store_path=store_path, now=1000.0)
    [memory] = memories(store_path, project)
    assert (
        memory.text
        == 'Changed pyproject.toml: requires-python = ">=3.12"\n(was: requires-python = ">=3.10")'
    )
    assert (memory.kind, memory.scope) == ("what-changed", "")


def test_checkpoint_before_compaction_only_with_an_outcome(
    claude: Claude, store_path: str, project: Path, capture_on: str
) -> None:
    observe(
        claude("UserPromptSubmit", prompt="Round totals to 2 decimals"),
        store_path=store_path,
        now=1000.0,
    )
    observe(_edit(claude, project, "src/billing.py", "a", "b"), store_path=store_path, now=1010.0)
    # Prompts and a file list are all version control would say too: no checkpoint.
    assert observe(claude("PreCompact", trigger="auto"), store_path=store_path, now=1020.0) == []
    reply = "Totals are now rounded to 2 decimals and tests/test_billing.py covers it."
    observe(claude("Stop", last_assistant_message=reply), store_path=store_path, now=1030.0)
    observe(claude("PreCompact", trigger="manual"), store_path=store_path, now=1040.0)
    [memory] = memories(store_path, project)
    assert memory.kind == "checkpoint"
    assert memory.text == (
        "Checkpoint before compaction (manual) of a claude-code session in the project root.\n"
        'Asked: "Round totals to 2 decimals"\n'
        "Changed: src/billing.py\n"
        f'Last reply: "{reply}"'
    )


def test_compaction_summary_only_when_the_host_sends_one(
    claude: Claude, store_path: str, project: Path, capture_on: str
) -> None:
    assert observe(claude("PostCompact", trigger="auto"), store_path=store_path, now=1000.0) == []
    summary = "Working on the limiter burst bug; switched to a Redis sliding window; remaining: flaky teardown."
    observe(
        claude("PostCompact", trigger="auto", compact_summary=summary),
        store_path=store_path,
        now=1010.0,
    )
    [memory] = memories(store_path, project)
    assert (
        memory.text
        == f"Compaction summary by claude-code for the session in the project root:\n{summary}"
    )


def test_session_end_records_what_the_host_reported(
    claude: Claude, store_path: str, project: Path, capture_on: str
) -> None:
    observe(
        claude("UserPromptSubmit", prompt="Fix the burst bug"), store_path=store_path, now=1000.0
    )
    observe(
        _fail(claude, "npm test", "FAIL tests/limit.test.ts\nExpected: 429\nReceived: 200"),
        store_path=store_path,
        now=1010.0,
    )
    observe(
        claude(
            "Stop",
            last_assistant_message="Moved the buckets to Redis; the burst test now passes locally.",
        ),
        store_path=store_path,
        now=1100.0,
    )
    observe(claude("Stop", last_assistant_message="Done."), store_path=store_path, now=1110.0)
    ids = observe(
        claude("SessionEnd", reason="prompt_input_exit"), store_path=store_path, now=1200.0
    )
    [memory] = memories(store_path, project)
    assert ids == [memory.id] and memory.kind == "session"
    assert memory.text == (
        "Session of claude-code in the project root ended (prompt_input_exit) after 3 min.\n"
        'Asked: "Fix the burst bug"\n'
        "Still failing: `npm test` — FAIL tests/limit.test.ts\n"
        'Last reply: "Moved the buckets to Redis; the burst test now passes locally."'
    )
    # A second end of the same session records nothing more.
    assert observe(claude("SessionEnd", reason="other"), store_path=store_path, now=1300.0) == []


def test_later_record_of_a_session_supersedes_its_checkpoint(
    claude: Claude, store_path: str, project: Path, capture_on: str
) -> None:
    checkpoint = _checkpoint_then_more(claude, store_path)
    [record_id] = observe(claude("SessionEnd", reason="other"), store_path=store_path, now=1050.0)
    everything = memories(store_path, project, all=True)
    assert [(m.id, m.kind, m.obsolete, m.superseded_by) for m in everything] == [
        (checkpoint, "checkpoint", True, record_id),
        (record_id, "session", False, None),
    ]


def test_session_without_an_end_is_recorded_when_the_next_one_starts(
    claude: Claude, store_path: str, project: Path, capture_on: str
) -> None:
    observe(
        claude("UserPromptSubmit", "old", prompt="Fix the burst bug"),
        store_path=store_path,
        now=1000.0,
    )
    observe(
        claude(
            "Stop",
            "old",
            last_assistant_message="Moved the buckets to Redis; the burst test passes.",
        ),
        store_path=store_path,
        now=1010.0,
    )
    assert (
        observe(claude("SessionStart", "new", source="startup"), store_path=store_path, now=1100.0)
        == []
    )  # not idle yet
    outcome = record(
        claude("SessionStart", "new", source="startup"), store_path=store_path, now=1010.0 + 31 * 60
    )
    [memory] = memories(store_path, project)
    assert outcome.ids == [memory.id]
    assert memory.text.startswith("Session of claude-code in the project root ended (idle)")
    assert memory.source == "capture:claude-code:old"


def test_tool_events_are_never_captured(
    claude: Claude, store_path: str, project: Path, capture_on: str
) -> None:
    read = claude(
        "PostToolUse", tool_name="Read", tool_input={"file_path": str(project / "src" / "a.py")}
    )
    pre = claude("PreToolUse", tool_name="Bash", tool_input={"command": "rm -rf build"})
    assert (
        observe(read, store_path=store_path, now=1.0)
        == observe(pre, store_path=store_path, now=2.0)
        == []
    )
    assert not Path(store_path).exists()


def test_a_captured_memory_leaves_the_hooks_searches_ready(
    claude: Claude, store_path: str, project: Path, capture_on: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memhooks.backends import embedded_cache
    from memhooks.backends.base import SearchRequest
    from memhooks.backends.embedded import EmbeddedBackend
    from memhooks.store import MemoryStore, project_id, ranking

    request = SearchRequest("sliding window limiter", project=project_id(str(project)), limit=5)
    MemoryStore(store_path).close()  # a store recall reads (recall never creates one)
    backend = EmbeddedBackend.open({"path": store_path})
    backend.search(request)  # a recall before: the hook's query list is cached
    backend.close()
    prompt = "We decided to keep the sliding window because bursts must be smoothed."
    assert observe(claude("UserPromptSubmit", prompt=prompt), store_path=store_path, now=1000.0)
    embedded_cache.clear_memory()
    searched: list[str] = []
    real = ranking.ranked
    monkeypatch.setattr(ranking, "ranked", lambda *a, **k: searched.append(a[2]) or real(*a, **k))
    backend = EmbeddedBackend.open({"path": store_path})
    [hit] = backend.search(request)
    backend.close()
    assert searched == [] and hit.text == prompt


def test_a_record_and_the_checkpoint_it_retires_are_written_together(
    claude: Claude, store_path: str, project: Path, capture_on: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A crash between adding the session's record and retiring its checkpoint must not
    # leave both live (recall would tell the model the session twice)
    from memhooks.store import supersede

    checkpoint = _checkpoint_then_more(claude, store_path)

    def killed(*args: object) -> None:
        raise KeyboardInterrupt  # the process dies while retiring the checkpoint

    monkeypatch.setattr(supersede, "mark", killed)
    with pytest.raises(KeyboardInterrupt):
        observe(claude("SessionEnd", reason="other"), store_path=store_path, now=1050.0)
    everything = memories(store_path, project, all=True)
    assert [(m.id, m.kind, m.obsolete) for m in everything] == [(checkpoint, "checkpoint", False)]


def _checkpoint_then_more(claude: Claude, store_path: str) -> str:
    """A session's turn, a compaction (its checkpoint's id, returned), and another turn."""
    observe(
        claude("UserPromptSubmit", prompt="Fix the burst bug"), store_path=store_path, now=1000.0
    )
    observe(
        claude("Stop", last_assistant_message="Moved the buckets to Redis; the burst test passes."),
        store_path=store_path,
        now=1010.0,
    )
    [checkpoint] = observe(claude("PreCompact", trigger="auto"), store_path=store_path, now=1020.0)
    observe(
        claude("UserPromptSubmit", prompt="Now add a regression test for the reset path"),
        store_path=store_path,
        now=1030.0,
    )
    observe(
        claude(
            "Stop",
            last_assistant_message="Added tests/test_reset.py; the reset path is covered and all tests pass.",
        ),
        store_path=store_path,
        now=1040.0,
    )
    return checkpoint
