"""Capture is opt-in: off, nothing is ever written — not by events, not by reading hooks.

Seed 000: loading a hook never writes memories. ``explain``, ``recall`` and the
prompt-time hook read; with capture off they must leave the store exactly as it was (and
not create one), and even with capture on, ``explain`` and ``recall`` write nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from capture_support import memories

from memhooks.agents import NormalizedEvent
from memhooks.capture import observe, settings
from memhooks.cli import main
from memhooks.hook import handle
from memhooks.store import MemoryStore

Claude = Callable[..., NormalizedEvent]
DECISION = "From now on we use uv instead of pip for every install."


def _fingerprint(store_path: str) -> tuple[str, ...]:
    """The store's bytes, WAL included (checkpointed when the last connection closed)."""
    out = []
    for suffix in ("", "-wal", "-shm"):
        path = Path(store_path + suffix)
        out.append(hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else "-")
    return tuple(out)


def _seed(store_path: str, project: Path) -> tuple[str, ...]:
    with MemoryStore(store_path) as store:
        store.add(str(project), "Billing totals are rounded to 2 decimals.", source="cli")
    return _fingerprint(store_path)


@pytest.mark.parametrize(
    "native, fields",
    [
        ("SessionStart", {"source": "startup"}),
        ("UserPromptSubmit", {"prompt": DECISION}),
        (
            "PostToolUseFailure",
            {"tool_name": "Bash", "tool_input": {"command": "pytest"}, "error": "1 failed"},
        ),
        (
            "Stop",
            {"last_assistant_message": "Moved the limiter to Redis because deploys reset it."},
        ),
        ("PreCompact", {"trigger": "auto"}),
        ("SessionEnd", {"reason": "other"}),
    ],
)
def test_off_by_default_no_event_writes_or_creates_anything(
    claude: Claude, store_path: str, native: str, fields: dict[str, object]
) -> None:
    assert observe(claude(native, **fields), store_path=store_path, now=1000.0) == []
    assert not os.path.exists(store_path)
    assert not os.path.exists(settings.config_path())


def test_off_for_this_project_while_on_for_the_user(
    claude: Claude, store_path: str, project: Path
) -> None:
    settings.switch(True, settings.USER)
    settings.switch(False, settings.PROJECT, str(project))
    before = _seed(store_path, project)
    assert (
        observe(claude("UserPromptSubmit", prompt=DECISION), store_path=store_path, now=1000.0)
        == []
    )
    assert _fingerprint(store_path) == before


def test_on_then_off_stops_capturing(claude: Claude, store_path: str, project: Path) -> None:
    settings.switch(True, settings.PROJECT, str(project))
    assert (
        len(observe(claude("UserPromptSubmit", prompt=DECISION), store_path=store_path, now=1000.0))
        == 1
    )
    settings.switch(False, settings.PROJECT, str(project))
    prompt = "Never commit generated protobuf files."
    assert (
        observe(claude("UserPromptSubmit", prompt=prompt), store_path=store_path, now=2000.0) == []
    )
    assert [m.text for m in memories(store_path, project)] == [DECISION]


def _hook(
    payload: dict[str, object], store_path: str, cwd: Path
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MEMHOOKS_STORE": store_path}
    return subprocess.run(
        [sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        check=True,
    )


def test_prompt_time_hook_writes_nothing_when_off(store_path: str, project: Path) -> None:
    (project / "MEMHOOKS.md").write_text(
        '---\nschema: memhooks/v2\nrecall_queries:\n  - "How are billing totals rounded?"\n---\n',
        encoding="utf-8",
    )
    payload = {
        "hook_event_name": "UserPromptSubmit",
        "session_id": "s",
        "cwd": str(project),
        "prompt": DECISION,
    }
    _hook(payload, store_path, project)
    assert not os.path.exists(store_path)  # no store was created by reading
    before = _seed(store_path, project)
    done = _hook(payload, store_path, project)
    assert _fingerprint(store_path) == before
    assert done.stderr == ""
    assert "Billing totals" in done.stdout  # it did recall: reading works, writing did not happen


def test_prompt_time_hook_captures_when_on(store_path: str, project: Path) -> None:
    settings.switch(True, settings.PROJECT, str(project))
    payload = {
        "hook_event_name": "UserPromptSubmit",
        "session_id": "s",
        "cwd": str(project),
        "prompt": DECISION,
    }
    done = _hook(payload, store_path, project)
    assert done.stderr == ""
    [memory] = memories(store_path, project)
    assert (memory.text, memory.kind, memory.source) == (
        DECISION,
        "decision",
        "capture:claude-code:s",
    )


def test_handler_library_path_is_off_by_default(store_path: str, project: Path) -> None:
    payload = {
        "hook_event_name": "UserPromptSubmit",
        "session_id": "s",
        "cwd": str(project),
        "prompt": DECISION,
    }
    reply = handle(
        json.dumps(payload), agent="claude-code", env={"MEMHOOKS_STORE": store_path, **os.environ}
    )
    assert reply.note is None
    assert not os.path.exists(store_path)


@pytest.mark.parametrize("capture", ["off", "on"])
def test_explain_and_recall_never_write(
    capture: str, store_path: str, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if capture == "on":
        settings.switch(True, settings.USER)
    before = _seed(store_path, project)
    assert main(["explain", str(project)]) == 0
    assert main(["explain", str(project), "--budget", "2000", "--format", "json"]) == 0
    assert main(["recall", str(project), "--prompt", DECISION, "--store", store_path]) == 0
    capsys.readouterr()
    assert _fingerprint(store_path) == before


def test_capture_writes_to_the_store_the_configuration_file_names(
    tmp_path: Path, project: Path, capture_on: str
) -> None:
    # review7: the hook's capture wrote to MEMHOOKS_STORE or the default file, where
    # recall reads the configuration file's [backends.embedded] path
    from memhooks.store.location import default_path

    (project / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    chosen, config = tmp_path / "x.db", tmp_path / "config.toml"
    config.write_text(f'[backends.embedded]\npath = "{chosen}"\n', encoding="utf-8")
    payload = {"hook_event_name": "UserPromptSubmit", "session_id": "s", "cwd": str(project),
               "prompt": DECISION}  # fmt: skip
    env = {**os.environ, "MEMHOOKS_CONFIG": str(config), "MEMHOOKS_STATE_DIR": str(tmp_path / "state")}
    reply = handle(json.dumps(payload), agent="claude-code", env=env, time_s=30)
    assert reply.note is None, reply.note
    assert [m.text for m in memories(str(chosen), project)] == [DECISION]
    assert not os.path.exists(default_path())
