"""The hook's parts: argument parsing, folder and roles, budget, deadline, fail-open."""

from __future__ import annotations

import io
import os
import threading
from pathlib import Path

import pytest

from memhooks.agents import NormalizedEvent
from memhooks.agents.folder import working_folder
from memhooks.commands.hook import parse_argv, serve
from memhooks.errors import UsageError
from memhooks.hook import handler, reactions, roles
from memhooks.hook.call import HookCall
from memhooks.hook.deadline import Watchdog, budget_ms
from memhooks.settings import default


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        ([], (None, None, [])),
        (["--agent", "codex"], ("codex", None, [])),
        (["--agent=copilot-cli", "sessionStart"], ("copilot-cli", "sessionStart", [])),
        (
            ["--role", "reviewer", "--role=backend", "--agent", "kiro"],
            ("kiro", None, ["reviewer", "backend"]),
        ),
        (["--agent"], None),
        (["-x"], None),
        (["one", "two"], None),
    ],
)
def test_parse_argv(argv: list[str], expected: object) -> None:
    assert parse_argv(argv) == expected


def test_working_dir_prefers_the_payload(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "other"
    other.mkdir()
    monkeypatch.chdir(other)
    event = NormalizedEvent("claude-code", "user_prompt", cwd=str(tmp_path))
    assert working_folder(event, {"CLAUDE_PROJECT_DIR": str(other)}) == str(tmp_path)


def test_working_dir_falls_back_to_roots_then_host_variables_then_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    roots = NormalizedEvent(
        "cursor", "session_start", workspace_roots=[str(tmp_path / "missing"), str(tmp_path)]
    )
    assert working_folder(roots, {}) == str(tmp_path)
    (tmp_path / "proj").mkdir()
    bare = NormalizedEvent("claude-code", "user_prompt", cwd="relative/dir")
    assert working_folder(bare, {"CLAUDE_PROJECT_DIR": str(tmp_path / "proj")}) == str(
        tmp_path / "proj"
    )
    with pytest.raises(UsageError, match="'relative/dir' is not an existing absolute directory"):
        working_folder(bare, {})  # never the process folder when the host named another
    assert working_folder(NormalizedEvent("claude-code", "user_prompt"), {}) == str(tmp_path)


def test_roles_only_from_explicit_settings() -> None:
    payload = {"permission_mode": "plan", "agent_type": "Explore"}
    assert roles.roles([], payload, {}) == []
    env = {
        "MEMHOOKS_ROLES": "backend, reviewer,",
        "MEMHOOKS_ROLE_MAP": "permission_mode:plan=architect;agent_type:Explore=researcher,reviewer;broken",
    }
    notes: list[str] = []
    assert roles.roles(["cli"], payload, env, notes) == [
        "cli",
        "backend",
        "reviewer",
        "architect",
        "researcher",
    ]
    # the malformed rule is left out and said (it was ignored without a word)
    assert notes == [
        (
            "MH028 MEMHOOKS_ROLE_MAP must be `FIELD:VALUE=ROLE[,ROLE]` rules separated by `;`"
            " (got 'broken'); unset MEMHOOKS_ROLE_MAP or fix the rule; using the other rules meanwhile"
        )
    ]


def test_budget_respects_setting_and_host_cap() -> None:
    def budget(host: str, native: str, env: dict[str, str]) -> int:
        return HookCall(NormalizedEvent(host, "user_prompt", native_event=native), env).prompt_budget()

    assert budget("claude-code", "UserPromptSubmit", {}) == default("MEMHOOKS_MAX_CHARS")
    assert budget("claude-code", "UserPromptSubmit", {"MEMHOOKS_MAX_CHARS": "50000"}) == 9500
    assert budget("hermes", "pre_llm_call", {"MEMHOOKS_MAX_CHARS": "50000"}) == 50000
    assert budget("hermes", "pre_llm_call", {"MEMHOOKS_MAX_CHARS": "700"}) == 700
    bad = HookCall(NormalizedEvent("hermes", "user_prompt", native_event="pre_llm_call"), {"MEMHOOKS_MAX_CHARS": "lots"})
    assert bad.prompt_budget() == default("MEMHOOKS_MAX_CHARS")
    assert bad.notes == [("MH028 MEMHOOKS_MAX_CHARS must be an integer from 1 to 1000000 (got 'lots');"
                         " unset MEMHOOKS_MAX_CHARS or set it within range; using 8000 meanwhile")]  # fmt: skip


def test_budget_ms_setting() -> None:
    assert budget_ms({}) == (3000, None)
    assert budget_ms({"MEMHOOKS_HOOK_TIMEOUT_MS": "250"}) == (250, None)
    value, warning = budget_ms({"MEMHOOKS_HOOK_TIMEOUT_MS": "abc"})
    assert value == 3000 and warning is not None and "MEMHOOKS_HOOK_TIMEOUT_MS" in warning


def test_the_deadline_counts_the_window_left_after_a_slow_start() -> None:
    from memhooks.hook.deadline import window

    assert window(3000, 0.0) == 3.0 and abs(window(3000, 1.2) - 1.8) < 1e-9
    assert window(3000, 2.9) == 1.5 and window(3000, 10.0) == 1.5  # time to answer what it can
    assert window(200, 1.0) == 0.1


def test_a_hook_process_slow_to_start_gives_up_within_its_deadline(tmp_path: Path) -> None:
    """The host waits from the moment it starts the process: an interpreter slow to start
    (load) eats into the deadline (bench: a PostToolUse hook took 6.2 s against 3 s)."""
    import subprocess
    import sys

    # 1.5 s of "start" before memhooks runs, then a payload that never ends (stdin open)
    probe = "import time; time.sleep(1.5)\nfrom memhooks.cli import main\nmain(['hook', '--agent', 'claude-code'])\n"
    env = {**os.environ, "MEMHOOKS_HOOK_TIMEOUT_MS": "2000"}
    proc = subprocess.Popen([sys.executable, "-c", probe], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, cwd=tmp_path, text=True)  # fmt: skip
    try:
        proc.wait(timeout=60)  # stdin stays open: only the deadline ends the call
        assert proc.stdout is not None and proc.stderr is not None
        out, err = proc.stdout.read(), proc.stderr.read()
    finally:
        proc.kill()
        proc.communicate()
    assert proc.returncode == 0 and out == ""  # the no-op: no event was read
    assert err.startswith("memhooks hook: MH043 gave up after the 2000 ms deadline (1.")
    assert " s of it starting Python and memhooks); nothing added" in err


def test_watchdog_fires_once_unless_claimed() -> None:
    fired: list[str] = []
    done = threading.Event()
    dog = Watchdog(
        0.01,
        lambda: fired.append("expire"),
        exit=lambda code: (fired.append(f"exit {code}"), done.set())[0],
    )
    dog.start()
    assert done.wait(5)
    assert fired == ["expire", "exit 0"] and dog.claim() is False
    calm = Watchdog(10, lambda: fired.append("late"), exit=lambda code: None).start()
    assert calm.claim() is True
    calm.cancel()


def test_stray_prints_never_reach_stdout(monkeypatch: pytest.MonkeyPatch) -> None:
    def noisy(call: object) -> handler.Reply:
        print("debug output from a library")
        return handler.Reply('{"context":"ok"}')

    monkeypatch.setattr(reactions, "react", noisy)
    stdout, stderr = io.StringIO(), io.StringIO()
    monkeypatch.setattr("sys.stderr", stderr)
    assert (
        serve(
            "hermes",
            None,
            [],
            stdin=io.BytesIO(b'{"hook_event_name": "pre_llm_call", "extra": {"user_message": "hi"}}'),
            stdout=stdout,
            stderr=stderr,
            env={},
        )
        == 0
    )
    assert stdout.getvalue() == '{"context":"ok"}\n'
    assert "debug output" in stderr.getvalue()


def test_a_crash_anywhere_is_the_hosts_noop(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(reactions, "react", broken)
    reply = handler.handle(
        b'{"hook_event_name": "BeforeAgent", "prompt": "hi", "cwd": "/", "timestamp": "2026-01-01T00:00:00Z"}',
        agent="gemini-cli",
    )
    assert (reply.stdout, reply.note) == ("{}", "MH042 RuntimeError: boom")  # a bug: no code foresaw it


def test_maintenance_runs_for_edits_when_available(tmp_path: Path) -> None:
    pytest.importorskip("memhooks.maintain.events")
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "src").mkdir()
    (root / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n")
    (root / "src" / "new.py").write_text("x = 1\n")
    raw = f'{{"hook_event_name": "PostToolUse", "session_id": "s", "cwd": "{root}", "tool_name": "Write", "tool_input": {{"file_path": "{root}/src/new.py", "content": "x = 1"}}}}'
    reply = handler.handle(raw, agent="claude-code")
    assert reply.note is None and reply.stdout == ""
    assert reply.changed and "new.py" in Path(reply.changed[0]).read_text()


@pytest.mark.parametrize(
    ("raw", "note"),
    [
        ("", "MH041 the payload on stdin is empty (or null); the agent must send its hook event as one JSON object"),
        ("[1, 2]", "MH041 the payload on stdin is JSON but not an object (list); the agent must send its hook event as one JSON object"),
        ("[" * 100_000, "MH041 the payload on stdin is nested too deeply to read; the agent must send its hook event as one JSON object"),
        ('{"hook_event_name": "UserPromptSubmit", "cwd": "/nonexistent", "prompt": "x"}',
         "MH024 the host's working folder '/nonexistent' is not an existing absolute directory"),
    ],
)  # fmt: skip
def test_a_payload_memhooks_cannot_use_gets_a_no_op_and_a_plain_note(
    raw: str, note: str, tmp_path: Path
) -> None:
    from memhooks.store import MemoryStore

    store = str(tmp_path / "memories.sqlite3")
    MemoryStore(store).close()  # a store exists, so the hook goes as far as the folder
    reply = handler.handle(raw, agent="claude-code", env={"MEMHOOKS_STORE": store}, time_s=30.0)
    assert (reply.stdout, reply.note) == ("", note)


def test_a_payload_that_is_not_utf8_gets_a_plain_note() -> None:
    reply = handler.handle(b"\xff\xfeabc", agent="claude-code", env={})
    assert (reply.stdout, reply.note) == (
        "",
        "MH041 the payload on stdin is not UTF-8 JSON; the agent must send its hook event as one JSON object",
    )
