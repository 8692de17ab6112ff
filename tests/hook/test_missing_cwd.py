"""A payload naming a folder that does not exist recalls nothing (never the process's)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memhooks.hook.handler import handle


def test_nonexistent_payload_cwd_does_not_fall_back_to_the_process_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "MEMHOOKS.md").write_text(
        '---\nschema: memhooks/v2\nrecall_queries: ["What matters here?"]\n---\n', encoding="utf-8"
    )
    store = tmp_path / "store.sqlite3"
    from memhooks.store import MemoryStore, project_id

    with MemoryStore(str(store)) as s:
        s.add(project_id(str(project)), "What matters here: the secret-sauce constraint")
    monkeypatch.chdir(project)
    env = {"MEMHOOKS_STORE": str(store), "HOME": str(tmp_path)}
    payload = {
        "hook_event_name": "UserPromptSubmit",
        "session_id": "s",
        "cwd": "/nonexistent/x",
        "prompt": "what matters",
    }
    reply = handle(json.dumps(payload), agent="claude-code", env=env)
    assert "secret-sauce" not in reply.stdout
    assert reply.note is not None and "/nonexistent/x" in reply.note


def test_the_same_setup_recalls_when_the_payload_names_the_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "MEMHOOKS.md").write_text(
        '---\nschema: memhooks/v2\nrecall_queries: ["What matters here?"]\n---\n', encoding="utf-8"
    )
    store = tmp_path / "store.sqlite3"
    from memhooks.store import MemoryStore, project_id

    with MemoryStore(str(store)) as s:
        s.add(project_id(str(project)), "What matters here: the secret-sauce constraint")
    env = {"MEMHOOKS_STORE": str(store), "HOME": str(tmp_path)}
    payload = {
        "hook_event_name": "UserPromptSubmit",
        "session_id": "s",
        "cwd": str(project),
        "prompt": "what matters",
    }
    assert "secret-sauce" in handle(json.dumps(payload), agent="claude-code", env=env).stdout


def test_a_relative_store_path_that_does_not_resolve_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "MEMHOOKS.md").write_text(
        '---\nschema: memhooks/v2\nrecall_queries: ["q"]\n---\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    env = {"MEMHOOKS_STORE": "demo.sqlite3", "HOME": str(tmp_path)}
    payload = {
        "hook_event_name": "UserPromptSubmit",
        "session_id": "s",
        "cwd": str(project),
        "prompt": "q",
    }
    reply = handle(json.dumps(payload), agent="claude-code", env=env)
    assert reply.stdout == "" and reply.note is not None and "is relative" in reply.note


@pytest.mark.parametrize("kind", ["directory", "device"])
def test_a_store_path_that_is_not_a_file_is_reported(tmp_path: Path, kind: str) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "MEMHOOKS.md").write_text(
        '---\nschema: memhooks/v2\nrecall_queries: ["q"]\n---\n', encoding="utf-8"
    )
    store = str(tmp_path) if kind == "directory" else os.devnull
    env = {"MEMHOOKS_STORE": store, "HOME": str(tmp_path)}
    payload = {"hook_event_name": "UserPromptSubmit", "cwd": str(project), "prompt": "q"}
    reply = handle(json.dumps(payload), agent="claude-code", env=env)
    described = "a directory" if kind == "directory" else "not a regular file"
    assert reply.stdout == ""
    assert reply.note == f"MEMHOOKS_STORE {store!r} is {described}; point it at a file"
