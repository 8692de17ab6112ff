"""A payload naming a folder that does not exist recalls nothing (never the process's), and
a store path the hook cannot use is said on stderr."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memhooks.hook.handler import Reply, handle


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git project whose root hook asks one question, and a store answering it."""
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "MEMHOOKS.md").write_text(
        '---\nschema: memhooks/v2\nrecall_queries: ["What matters here?"]\n---\n', encoding="utf-8"
    )
    from memhooks.store import MemoryStore, project_id

    with MemoryStore(str(tmp_path / "store.sqlite3")) as s:
        s.add(project_id(str(root)), "What matters here: the secret-sauce constraint")
    return root


def prompt(cwd: str, store: str, home: Path) -> Reply:
    payload = {"hook_event_name": "UserPromptSubmit", "session_id": "s", "cwd": cwd, "prompt": "what matters"}  # fmt: skip
    return handle(json.dumps(payload), agent="claude-code", env={"MEMHOOKS_STORE": store, "HOME": str(home)})  # fmt: skip


def test_nonexistent_payload_cwd_does_not_fall_back_to_the_process_folder(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    reply = prompt("/nonexistent/x", str(tmp_path / "store.sqlite3"), tmp_path)
    assert "secret-sauce" not in reply.stdout
    assert reply.note is not None and "/nonexistent/x" in reply.note


def test_the_same_setup_recalls_when_the_payload_names_the_project(
    project: Path, tmp_path: Path
) -> None:
    assert "secret-sauce" in prompt(str(project), str(tmp_path / "store.sqlite3"), tmp_path).stdout


def test_a_relative_store_path_is_taken_from_the_root_the_payload_names(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not from the hook process's folder (it was, and the store was said missing there):
    from the root of the folder the host names, as the CLI takes it (memhooks.store.location)."""
    os.replace(tmp_path / "store.sqlite3", project / "demo.sqlite3")
    monkeypatch.chdir(tmp_path)
    reply = prompt(str(project), "demo.sqlite3", tmp_path)
    assert "secret-sauce" in reply.stdout and reply.note is None


@pytest.mark.parametrize("kind", ["directory", "device"])
def test_a_store_path_that_is_not_a_file_is_reported(
    project: Path, tmp_path: Path, kind: str
) -> None:
    store = str(tmp_path) if kind == "directory" else os.devnull
    reply = prompt(str(project), store, tmp_path)
    described = "a directory" if kind == "directory" else "not a regular file"
    why = f"MEMHOOKS_STORE {store!r} is {described}; point MEMHOOKS_STORE at a file, or move it away"
    assert reply.note == f"MH037 memory unavailable: no memory backend is available: {why}"
    # the model is told (issue 22 item 2), without the code, the remedy as the user's
    from memhooks.recall.result import relayed

    assert json.dumps(relayed(reply.note[6:]))[1:-1] in reply.stdout
    assert "(the user's to fix: point MEMHOOKS_STORE at a file, or move it away)" in reply.stdout
