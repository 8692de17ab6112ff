"""``capture process``: idle sessions, the duplicate sweep and pruning — only when asked."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from capture_support import memories

from memhooks.agents import NormalizedEvent
from memhooks.capture import marks, observe, process
from memhooks.capture.upkeep import DAY
from memhooks.store import MemoryStore

Claude = Callable[..., NormalizedEvent]
REPLY = "Moved the limiter buckets to Redis because deploys reset process memory; tests pass."


def test_nothing_to_do_without_a_store(tmp_path: Path) -> None:
    path = str(tmp_path / "absent.sqlite3")
    assert process(path)["sessions"] == 0
    assert not Path(path).exists()


def test_idle_session_gets_its_record(
    claude: Claude, store_path: str, project: Path, capture_on: str
) -> None:
    observe(
        claude("UserPromptSubmit", "cx", prompt="Fix the limiter burst bug"),
        store_path=store_path,
        now=1000.0,
    )
    observe(claude("Stop", "cx", last_assistant_message=REPLY), store_path=store_path, now=1010.0)
    assert process(store_path, now=1100.0)["sessions"] == 0  # not idle yet
    counts = process(store_path, now=1010.0 + 3600)
    assert (counts["sessions"], counts["memories"]) == (1, 1)
    [memory] = memories(store_path, project)
    assert memory.kind == "session" and memory.source == "capture:claude-code:cx"
    assert process(store_path, now=1010.0 + 7200)["sessions"] == 0  # recorded once


def test_sweep_retires_a_capture_that_repeats_a_memory_written_by_hand(
    claude: Claude, store_path: str, project: Path, capture_on: str
) -> None:
    with MemoryStore(store_path) as store:
        manual = store.add(
            str(project),
            "Never commit .env files!",
            source="cli",
            created_at="2026-01-01T00:00:00Z",
        )
    now = 1_767_225_600.0 + DAY  # 2026-01-02
    [captured] = observe(
        claude("UserPromptSubmit", prompt="Never commit .env files."),
        store_path=store_path,
        now=now,
    )
    assert process(store_path, now=now + 60)["superseded"] == 1
    everything = {m.id: m for m in memories(store_path, project, all=True)}
    assert everything[captured].obsolete and everything[captured].superseded_by == manual.id
    assert not everything[manual.id].obsolete


def test_old_state_is_pruned(claude: Claude, store_path: str, capture_on: str) -> None:
    observe(
        claude("UserPromptSubmit", prompt="Never commit .env files."),
        store_path=store_path,
        now=1000.0,
    )
    observe(
        claude(
            "PostToolUseFailure",
            tool_name="Bash",
            tool_input={"command": "make"},
            error="make: *** [all] Error 2",
        ),
        store_path=store_path,
        now=1010.0,
    )
    counts = process(store_path, now=1000.0 + 100 * DAY)
    assert (
        counts["pruned_marks"] == 1
        and counts["pruned_failures"] == 1
        and counts["pruned_sessions"] == 1
    )


def test_state_of_another_layout_is_dropped_and_rebuilt(
    claude: Claude, store_path: str, project: Path, capture_on: str
) -> None:
    import sqlite3

    observe(
        claude("UserPromptSubmit", prompt="Never commit .env files."),
        store_path=store_path,
        now=1000.0,
    )
    with sqlite3.connect(store_path) as conn:
        conn.execute("UPDATE capture_meta SET version = 999")
    conn.close()
    # The marks are gone with the old layout, so only the memory itself remains...
    ids = observe(
        claude("UserPromptSubmit", prompt="Always run ruff before committing."),
        store_path=store_path,
        now=2000.0,
    )
    assert len(ids) == 1
    with sqlite3.connect(store_path) as conn:
        assert conn.execute("SELECT version FROM capture_meta").fetchone() == (marks.VERSION,)
        assert conn.execute("SELECT count(*) FROM capture_marks").fetchone() == (1,)
    conn.close()
    assert len(memories(store_path, project)) == 2


def test_a_store_of_capture_layout_1_hands_its_sessions_to_the_state_file(
    store_path: str, project: Path, claude: Claude, capture_on: str
) -> None:
    """Sessions and failures capture kept in the store before state file layout 3 carry
    on from the state file: a failure recorded then is solved now, the session's prompt
    is in its record, and the store keeps only its marks."""
    import sqlite3

    from memhooks.commands.capture import _stored

    MemoryStore(store_path).close()
    sql = (Path(__file__).parent / "data" / "capture_v1.sql").read_text(encoding="utf-8")
    with sqlite3.connect(store_path) as conn:
        conn.executescript(sql.replace("{project}", str(project)))
    conn.close()
    assert _stored(store_path, str(project))["open_failures"] == 1  # not handed over yet

    [solved] = observe(
        claude(
            "PostToolUse",
            "cx",
            tool_name="Bash",
            tool_input={"command": "pytest tests/test_limiter.py"},
            tool_response={"stdout": "1 passed", "stderr": ""},
        ),
        store_path=store_path,
        now=1010.0,
    )
    [memory] = memories(store_path, project)
    assert memory.id == solved and memory.kind == "problem-solution"
    assert "burst of 11 allowed" in memory.text and "edited src/limiter.py" in memory.text
    with sqlite3.connect(store_path) as conn:
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
        assert conn.execute("SELECT count(*) FROM capture_marks").fetchone() == (2,)
    conn.close()
    assert "capture_sessions" not in tables and "capture_failures" not in tables
    assert _stored(store_path, str(project))["open_failures"] == 0

    # the session's record (its prompt) is the state file's now: its idle record has it
    counts = process(store_path, now=1010.0 + 3600)
    assert counts["sessions"] == 1
    assert '"Fix the limiter burst bug"' in memories(store_path, project)[-1].text
