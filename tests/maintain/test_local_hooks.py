"""A clean working tree by default (issue 22 item 1): the hook files memhooks makes on its
own stay out of git (the clone's ``info/exclude``) until the project shares them, a killed
writer's temporary file is hidden and goes at the next write there, and ``memhooks hooks``
lists and shares them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from clikit import run_in_process

from memhooks.atomicfile import temp_name

ROOT_HOOK = "---\nschema: memhooks/v2\ninherits: true\n---\n"


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t",
                           *args], capture_output=True, text=True, check=True)  # fmt: skip
    return done.stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git project whose root hook is committed."""
    root = Path(os.path.realpath(tmp_path)) / "proj"
    root.mkdir()
    git(root, "init", "-q")
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    git(root, "add", "MEMHOOKS.md")
    git(root, "commit", "-qm", "enable memhooks")
    return root


def agent_writes(root: Path, *rels: str, env: dict[str, str] | None = None) -> None:
    """What an agent's session does: write files, and the hook maintains their cues."""
    for rel in rels:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x = 1\n", encoding="utf-8")
        payload = {"hook_event_name": "post_edit", "cwd": str(root), "files": [rel]}
        code, _out, err = run_in_process(["event"], root, env or {}, json.dumps(payload).encode())
        assert code == 0, err


def status(root: Path) -> list[str]:
    return git(root, "status", "--porcelain", "-uall").splitlines()


def test_a_session_leaves_git_status_as_the_agent_made_it(repo: Path) -> None:
    edits = ["src/requests/models.py", ".github/workflows/ci.yml", "docs/a b*[x].md", "setup.py"]
    agent_writes(repo, *edits)
    assert sorted(status(repo)) == sorted(f"?? {e}" if " " not in e else f'?? "{e}"' for e in edits)
    made = ["src/requests/MEMHOOKS.md", ".github/workflows/MEMHOOKS.md", "docs/MEMHOOKS.md"]
    assert all((repo / m).is_file() for m in made)  # they are there, and in effect
    assert (repo / "MEMHOOKS.md").read_text("utf-8") == ROOT_HOOK  # the root gets no cue
    code, out, _err = run_in_process(["hooks", "--format", "json"], repo, {})
    assert code == 0
    assert json.loads(out)["hooks"] == [
        {"path": ".github/workflows/MEMHOOKS.md", "status": "local"},
        {"path": "MEMHOOKS.md", "status": "shared"},
        {"path": "docs/MEMHOOKS.md", "status": "local"},
        {"path": "src/requests/MEMHOOKS.md", "status": "local"},
    ]


def test_share_shows_them_to_git_for_review(repo: Path) -> None:
    agent_writes(repo, "src/a.py", "lib/b.py")
    git(repo, "add", "src/a.py", "lib/b.py")
    code, out, _err = run_in_process(["hooks", "share", "src"], repo, {})
    assert code == 0
    assert out.splitlines() == [
        "Shared 1 hook file(s): git shows them now; review them, then `git add` and commit:",
        "  src/MEMHOOKS.md",
    ]
    assert "?? src/MEMHOOKS.md" in status(repo) and "?? lib/MEMHOOKS.md" not in status(repo)
    assert run_in_process(["hooks", "share"], repo, {})[1].endswith("  lib/MEMHOOKS.md\n")
    assert "?? lib/MEMHOOKS.md" in status(repo)
    # a shared hook is maintained in place, where it is, as a hand-written one
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "share the hooks")
    agent_writes(repo, "src/c.py")
    assert status(repo) == [" M src/MEMHOOKS.md", "?? src/c.py"]


def test_a_killed_writers_temporary_file_is_hidden_and_gone_at_the_next_write(
    repo: Path,
) -> None:
    agent_writes(repo, "src/a.py")
    git(repo, "add", "src/a.py")
    left = repo / "src" / temp_name("MEMHOOKS.md")  # what a writer killed mid-write leaves
    left.write_text("half a hook", encoding="utf-8")
    assert status(repo) == ["A  src/a.py"]
    agent_writes(repo, "src/b.py")  # the next writer in that folder, at once
    assert not left.exists()


def test_outside_git_nothing_is_excluded(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    root.mkdir()
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    agent_writes(root, "src/a.py")
    assert (root / "src" / "MEMHOOKS.md").is_file()
    code, out, _err = run_in_process(["hooks"], root, {})
    assert code == 0 and "not in git  src/MEMHOOKS.md" in out


SHARED_HOOK = (
    "---\nschema: memhooks/v2\nrecall_queries:\n  - query: What did we decide about the API?\n---\n"
)


@pytest.mark.parametrize(
    ("keep", "shared_changed", "made"), [("all", True, True), ("local", False, True), ("off", False, False)]
)
def test_maintain_setting_says_which_hook_files_agent_events_edit(
    repo: Path, keep: str, shared_changed: bool, made: bool
) -> None:
    """A committed hook is maintained in place by default (issue 22 item 1), so each
    session leaves it changed in git status; MEMHOOKS_MAINTAIN=local edits only the hook
    files memhooks made and keeps out of git, ``off`` none (newcomer trial #1: after
    `hooks share` and a commit, every session edited that hook, and nothing could stop it)."""
    (repo / "api").mkdir()
    (repo / "api" / "MEMHOOKS.md").write_text(SHARED_HOOK, encoding="utf-8")
    git(repo, "add", "api/MEMHOOKS.md")
    git(repo, "commit", "-qm", "share the api hook")
    agent_writes(repo, "api/routes.py", "lib/util.py", env={"MEMHOOKS_MAINTAIN": keep})
    changed = (repo / "api" / "MEMHOOKS.md").read_text("utf-8") != SHARED_HOOK
    assert changed is shared_changed
    assert (repo / "lib" / "MEMHOOKS.md").is_file() is made
    expected = {"?? api/routes.py", "?? lib/util.py"} | ({" M api/MEMHOOKS.md"} if shared_changed else set())
    assert set(status(repo)) == expected
    if made:  # a hook file memhooks made is still its own to maintain
        agent_writes(repo, "lib/more.py", env={"MEMHOOKS_MAINTAIN": keep})
        assert "name: lib/more.py" in (repo / "lib" / "MEMHOOKS.md").read_text("utf-8")


def test_an_invalid_maintain_setting_is_named(repo: Path) -> None:
    (repo / "x.py").write_text("x = 1\n", encoding="utf-8")
    (repo / "sub").mkdir()
    (repo / "sub" / "y.py").write_text("y = 1\n", encoding="utf-8")
    payload = {"hook_event_name": "post_edit", "cwd": str(repo), "files": ["sub/y.py"]}
    code, _out, err = run_in_process(["event"], repo, {"MEMHOOKS_MAINTAIN": "some"}, json.dumps(payload).encode())
    assert code == 1 and "MH028" in err and "MEMHOOKS_MAINTAIN" in err


def test_validate_checks_the_hook_files_memhooks_keeps_out_of_git(repo: Path) -> None:
    """The hook loads a hook file memhooks made and lists in its exclude block, so
    ``validate`` (``--all``, a folder) checks it too; a hook file the user's own
    ``.gitignore`` leaves out stays out, as before."""
    agent_writes(repo, "src/requests/models.py")
    made = repo / "src" / "requests" / "MEMHOOKS.md"
    assert made.is_file()
    made.write_text("---\nschema: memhooks/v2\nbroken: [\n---\n", encoding="utf-8")
    (repo / "ignored").mkdir()
    (repo / "ignored" / "MEMHOOKS.md").write_text("---\nbroken: [\n", encoding="utf-8")
    (repo / ".gitignore").write_text("/ignored/\n", encoding="utf-8")
    for args in (["validate", "--all"], ["validate", "src/requests"], ["validate", "src"]):
        code, out, err = run_in_process(args, repo, {})
        assert code == 1, (args, out, err)
        assert "error[MH000]" in out and "src/requests/MEMHOOKS.md:4:1" in out, (args, out, err)
        assert "ignored/MEMHOOKS.md" not in out + err, (args, out, err)


@pytest.mark.parametrize("deletion", [["rm"], ["git", "rm", "-q"]])
@pytest.mark.parametrize("through", ["event", "hook"])
def test_a_committed_hook_someone_deleted_is_not_made_again(
    repo: Path, tmp_path: Path, deletion: list[str], through: str
) -> None:
    """newcomer17: the next edit in its folder wrote a new hook file in its place, so
    ``git status`` showed the committed hook changed, not the deletion that was made."""
    (repo / "src").mkdir()
    (repo / "src" / "MEMHOOKS.md").write_text(ROOT_HOOK + "Retries: see ADR 7.\n", "utf-8")
    (repo / "src" / "a.py").write_text("a = 1\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "src hook")
    subprocess.run([*deletion, "src/MEMHOOKS.md"], cwd=repo, check=True)
    deleted = " D src/MEMHOOKS.md" if deletion == ["rm"] else "D  src/MEMHOOKS.md"
    if through == "event":
        agent_writes(repo, "src/b.py", "lib/c.py")
    else:
        for rel in ("src/b.py", "lib/c.py"):
            _hook_writes(repo, tmp_path, rel)
    assert sorted(status(repo)) == sorted([deleted, "?? lib/c.py", "?? src/b.py"])
    assert not (repo / "src" / "MEMHOOKS.md").exists()
    assert (repo / "lib" / "MEMHOOKS.md").is_file()  # a folder that never had one gets one


def _hook_writes(root: Path, tmp_path: Path, rel: str) -> None:
    """An agent's Write of ``rel`` as Claude Code reports it to ``memhooks hook``."""
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text("x = 1\n", encoding="utf-8")
    payload = {"session_id": "s", "cwd": str(root), "hook_event_name": "PostToolUse",
               "tool_name": "Write", "tool_response": {},
               "tool_input": {"file_path": str(root / rel), "content": "x = 1\n"}}  # fmt: skip
    env = {**os.environ, "MEMHOOKS_STATE_DIR": str(tmp_path / "state"),
           "MEMHOOKS_HOOK_TIMEOUT_MS": "30000"}  # fmt: skip
    done = subprocess.run([sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
                          input=json.dumps(payload), capture_output=True, text=True, env=env,
                          cwd=root, check=True, timeout=120)  # fmt: skip
    assert done.stderr == ""
