"""Clean by default, never silent, nothing accepted then lost — with the real Claude Code
CLI (issue 22 items 1-3), offline against the fake model, installed as a user installs it
(``memhooks agents install --agent claude-code --user``), launched at the project root.

* a session that writes a file in a folder without a hook leaves ``git status`` with that
  file alone: the hook file memhooks made there is kept out of git, and listed local;
* a broken hook in the chain does not turn memory off: the root's memory and one line
  naming the broken file reach the model;
* with the state folder on a read-only mount (as root), the memory and a one-line note
  reach the model, and the write's hook update is applied;
* a store path that cannot be a store is said to the model.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from e2e_support import AGENT_ENV, MARKER, Project, binary, start_fake_llm

PROMPT = "Create hello.txt"
TREE = {
    "MEMHOOKS.md": '---\nschema: memhooks/v2\nrecall_queries:\n  - "What constraints apply to every change in this project?"\n---\n',
    "backend/auth/tokens.py": "ROTATE_AFTER_S = 30\n",
}
MEMORIES = (
    json.dumps({"id": "e2e-1", "text": f"{MARKER}: every change needs a changelog line."}) + "\n"
)


def _session(project: Project, extra: dict[str, str] | None = None) -> tuple[list[str], str]:
    """One Claude Code run at the root; (model request bodies, output)."""
    server = start_fake_llm(
        project, scenario="write", write_path=str(project.root / "backend" / "auth" / "hello.txt")
    )
    try:
        project.memhooks(
            "agents", "install", "--agent", "claude-code", "--user", "--cwd", str(project.root)
        )
        argv = [binary("claude"), "-p", PROMPT, "--permission-mode", "acceptEdits"]
        done = project.run(
            argv, {**AGENT_ENV["claude-code"](server.base_url), **(extra or {})}, cwd=project.root
        )
        output = f"exit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    finally:
        server.stop()
    return [json.dumps(r["body"]) for r in server.requests()], output


def _status(root: Path) -> list[str]:
    done = subprocess.run(
        ["git", "-C", str(root), "status", "--porcelain", "-uall"],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.splitlines()


def test_a_session_leaves_git_status_as_the_agent_made_it(tmp_path: Path) -> None:
    project = Project(tmp_path, TREE, MEMORIES, start="")
    bodies, output = _session(project)
    assert (project.root / "backend" / "auth" / "hello.txt").exists(), output
    assert any(MARKER in b for b in bodies), output
    assert "hello.txt" in (project.root / "backend" / "auth" / "MEMHOOKS.md").read_text(), output
    assert _status(project.root) == ["?? backend/auth/hello.txt"], output
    listed = json.loads(project.memhooks("hooks", "--format", "json"))["hooks"]
    assert {"path": "backend/auth/MEMHOOKS.md", "status": "local"} in listed


def test_a_broken_hook_in_the_chain_does_not_turn_memory_off(tmp_path: Path) -> None:
    tree = {
        **TREE,
        "backend/auth/MEMHOOKS.md": "---\nschema: memhooks/v2\nrecall_queries: [unclosed\n---\n",
    }
    project = Project(tmp_path, tree, MEMORIES, start="")
    bodies, output = _session(project)
    assert any(MARKER in b for b in bodies), output
    told = [b for b in bodies if "backend/auth/MEMHOOKS.md:3:17 MH000" in b]
    assert told, f"the broken hook was not named to the model\n{output}"


def test_a_read_only_state_folder_keeps_recall_and_the_update(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("a read-only bind mount needs root")
    project = Project(tmp_path, TREE, MEMORIES, start="")
    project.state.mkdir(exist_ok=True)
    subprocess.run(["mount", "--bind", str(project.state), str(project.state)], check=True)
    subprocess.run(["mount", "-o", "remount,ro,bind", str(project.state)], check=True)
    try:
        bodies, output = _session(project)
    finally:
        subprocess.run(["umount", str(project.state)], check=True)
    assert any(MARKER in b for b in bodies), output
    assert any("memory unavailable in part" in b for b in bodies), output
    assert "hello.txt" in (project.root / "backend" / "auth" / "MEMHOOKS.md").read_text(), output
    assert _status(project.root) == ["?? backend/auth/hello.txt"], output


def test_a_store_path_that_cannot_be_a_store_is_said_to_the_model(tmp_path: Path) -> None:
    """MEMHOOKS_STORE naming a folder: memory is unavailable, and the model is told why
    (not the silence of a store not made yet)."""
    project = Project(tmp_path, TREE, MEMORIES, start="")
    folder = tmp_path / "a-folder"
    folder.mkdir()
    bodies, output = _session(project, {"MEMHOOKS_STORE": str(folder)})
    assert (project.root / "backend" / "auth" / "hello.txt").exists(), output
    told = [b for b in bodies if "memory unavailable: no memory backend is available" in b and "is a directory" in b]
    assert told, f"the unusable store was not said to the model\n{output}"
    assert _status(project.root) == ["?? backend/auth/hello.txt"], output
