"""A folder of the project symlinked out of it to another work tree: the hook never
answers from the repository it points to, whether the host's working folder is that
folder or a file read through it (issue 20, newcomer12: ``why linkdir/secret.c:1``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memhooks.hook.handler import Reply, handle
from memhooks.store import MemoryStore, project_id

HOOK = '---\nschema: memhooks/v2\nrecall_queries: ["What matters here?"]\n---\n'


@pytest.fixture
def linked(tmp_path: Path) -> tuple[Path, Path]:
    """(project A, its folder ``vendor`` linked to B): both git work trees with a root
    hook; the store holds a memory of B only."""
    a, b = tmp_path / "A", tmp_path / "B"
    for root in (a, b):
        (root / ".git").mkdir(parents=True)
        (root / "MEMHOOKS.md").write_text(HOOK, encoding="utf-8")
    (b / "lib").mkdir()
    (b / "lib" / "MEMHOOKS.md").write_text(HOOK.replace("here", "in lib"), encoding="utf-8")
    (b / "lib" / "secret.c").write_text("int secret = 42;\n", encoding="utf-8")
    (a / "vendor").symlink_to(b)
    with MemoryStore(str(tmp_path / "store.sqlite3")) as store:
        store.add(project_id(str(b)), "What matters here: the B-PRIVATE vault constraint")
        store.add(project_id(str(b)), "What matters in lib: the B-PRIVATE lib rule", scope="lib")
    return a, a / "vendor"


def call(payload: dict[str, object], tmp_path: Path) -> Reply:
    env = {"MEMHOOKS_STORE": str(tmp_path / "store.sqlite3"), "HOME": str(tmp_path)}
    return handle(json.dumps({"session_id": "s", **payload}), agent="claude-code", env=env)


def test_a_session_in_the_linked_folder_is_refused_not_answered_from_the_other_repository(
    linked: tuple[Path, Path], tmp_path: Path
) -> None:
    _, vendor = linked
    reply = call({"hook_event_name": "UserPromptSubmit", "cwd": str(vendor), "prompt": "what matters"}, tmp_path)  # fmt: skip
    assert "B-PRIVATE" not in reply.stdout
    assert reply.note is not None and reply.note.startswith("MH029 ")
    assert "a symlink leads out" in reply.note


def test_a_read_through_the_linked_folder_tells_nothing(
    linked: tuple[Path, Path], tmp_path: Path
) -> None:
    a, vendor = linked
    read = {"hook_event_name": "PostToolUse", "tool_name": "Read", "tool_response": {}}
    real = vendor.resolve() / "lib" / "secret.c"
    # the same read in B's own session recalls B's folder memory: there is something to leak
    own = call({**read, "cwd": str(vendor.resolve()), "tool_input": {"file_path": str(real)}}, tmp_path)  # fmt: skip
    assert "B-PRIVATE lib rule" in own.stdout
    through = {"file_path": str(vendor / "lib" / "secret.c")}
    reply = call({**read, "session_id": "t", "cwd": str(a), "tool_input": through}, tmp_path)
    assert "B-PRIVATE" not in reply.stdout
