"""An update the hook accepted for a hook file that does not validate waits for the fix
(docs/maintenance.md, "From the agent hook: an accepted update is never dropped in
silence"): it is said once, to the session whose edit made it, with the broken file's
line and column and what to do; never on another session's calls; never counted towards
a drop; and the first hook call after the fix applies it. Real hook processes, as a host
runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memhooks.session import State

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="flock")

BROKEN = (Path(__file__).parent / "data" / "broken_sub_hook.md").read_text(encoding="utf-8")
FIXED = "---\nschema: memhooks/v2\n---\nKept as written.\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    for folder in ("sub", "other"):
        (root / folder).mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    (root / "sub" / "MEMHOOKS.md").write_text(BROKEN, encoding="utf-8")
    return root.resolve()


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "MEMHOOKS_STATE_DIR": str(tmp_path / "state"), "MEMHOOKS_HOOK_TIMEOUT_MS": "30000"}


def _hook(env: dict[str, str], payload: dict[str, object]) -> str:
    """The hook's stderr for one call (it must answer the host's no-op and exit 0)."""
    done = subprocess.run([sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
                          input=json.dumps(payload), text=True, env=env, capture_output=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return "\n".join(line for line in done.stderr.splitlines() if line.startswith("memhooks hook: MH"))


def _write(root: Path, env: dict[str, str], session: str, rel: str) -> str:
    path = root / rel
    path.write_text("x = 1\n", encoding="utf-8")
    return _hook(env, {"session_id": session, "cwd": str(root), "hook_event_name": "PostToolUse", "tool_name": "Write",
                       "tool_input": {"file_path": str(path), "content": "x = 1\n"}})  # fmt: skip


def _prompt(root: Path, env: dict[str, str], session: str) -> str:
    return _hook(env, {"session_id": session, "cwd": str(root), "hook_event_name": "UserPromptSubmit",
                       "prompt": "carry on with the parser"})  # fmt: skip


def _journal(env: dict[str, str]) -> list[tuple[object, ...]]:
    return State(os.path.join(env["MEMHOOKS_STATE_DIR"], "state.sqlite3")).read("SELECT id FROM journal")


def test_an_update_for_a_broken_hook_waits_for_the_fix_and_is_told_once(repo: Path, env: dict[str, str]) -> None:
    hook = repo / "sub" / "MEMHOOKS.md"
    first = _write(repo, env, "A", "sub/a.py")
    # said: its code, the edit it came from, the broken file at line and column, what to do
    assert first.startswith("memhooks hook: MH000 hook update for sub/a.py waits until sub/MEMHOOKS.md is fixed")
    assert f"({hook}:3:17)" in first and "the next hook call that maintains hooks" in first
    assert "failed attempt" not in first and "dropped" not in first
    # ... once for its session, never on another session's calls, however many there are
    said = [_write(repo, env, "A", "sub/b.py"), _prompt(repo, env, "B"), _write(repo, env, "B", "other/c.py")]
    said += [_prompt(repo, env, "B"), _write(repo, env, "A", "sub/a.py"), _prompt(repo, env, "A"), _prompt(repo, env, "B")]
    assert said == [""] * 7
    # another hook file's update is never held with it
    assert "other/c.py" in (repo / "other" / "MEMHOOKS.md").read_text(encoding="utf-8")
    assert hook.read_text(encoding="utf-8") == BROKEN  # nothing written into what a person is fixing
    assert len(_journal(env)) == 1  # one session's edits in one folder wait as one update
    hook.write_text(FIXED, encoding="utf-8")
    assert _write(repo, env, "A", "sub/d.py") == ""
    text = hook.read_text(encoding="utf-8")
    assert [f"sub/{n}.py" in text for n in "abd"] == [True, True, True], text
    assert text.endswith("---\nKept as written.\n")
    assert _journal(env) == []


def test_a_prompt_after_the_fix_applies_what_waited(repo: Path, env: dict[str, str]) -> None:
    hook = repo / "sub" / "MEMHOOKS.md"
    assert "waits until sub/MEMHOOKS.md is fixed" in _write(repo, env, "A", "sub/a.py")
    hook.write_text(BROKEN.replace("[unclosed", "[still, unclosed"), encoding="utf-8")  # a try that failed
    assert _prompt(repo, env, "A") == ""  # tried again, still waiting: already said
    assert _prompt(repo, env, "B") == ""
    hook.write_text(FIXED, encoding="utf-8")
    assert _prompt(repo, env, "B") == ""  # any session's call applies it
    assert "sub/a.py" in hook.read_text(encoding="utf-8")
    assert _journal(env) == []


def test_memhooks_maintain_says_what_waits_and_applies_it_after_the_fix(repo: Path, env: dict[str, str]) -> None:
    hook = repo / "sub" / "MEMHOOKS.md"
    assert "waits until sub/MEMHOOKS.md is fixed" in _write(repo, env, "A", "sub/a.py")

    def maintain() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "memhooks", "maintain", str(repo / "other")],
                              text=True, env=env, capture_output=True, check=False)  # fmt: skip

    still = maintain()  # said to a person every time it is asked
    assert (still.returncode, still.stdout) == (1, "No hook update could be applied\n")
    assert still.stderr.startswith("memhooks maintain: MH000 hook update for sub/a.py waits until sub/MEMHOOKS.md is fixed")
    assert f"({hook}:3:17)" in still.stderr and hook.read_text(encoding="utf-8") == BROKEN
    hook.write_text(FIXED, encoding="utf-8")
    done = maintain()
    assert (done.returncode, done.stdout, done.stderr) == (0, f"Updated {hook}\n", "")
    assert "sub/a.py" in hook.read_text(encoding="utf-8")
    again = maintain()
    assert (again.returncode, again.stdout) == (0, "No hook update was waiting\n")


def test_a_broken_hook_deleted_instead_of_fixed_takes_the_update_as_if_none_were_there(
    repo: Path, env: dict[str, str]
) -> None:
    """It was applied by whichever call came next and said to nobody: the session told it
    waits never heard of it again (newcomer15). Now its own session's next pass applies it
    where an edit in a folder without a hook file puts its update, and says so once."""
    hook = repo / "sub" / "MEMHOOKS.md"
    assert "waits until sub/MEMHOOKS.md is fixed" in _write(repo, env, "A", "sub/a.py")
    hook.unlink()
    assert _prompt(repo, env, "B") == ""  # another session's pass leaves it to A's
    assert not hook.exists() and len(_journal(env)) == 1
    said = _prompt(repo, env, "A")
    assert said == (
        "memhooks hook: MH000 hook update for sub/a.py, which waited for sub/MEMHOOKS.md to be"
        " fixed, went to sub/MEMHOOKS.md: sub/MEMHOOKS.md was deleted, so it was applied as if"
        " no hook file were there (a hook file memhooks makes is kept out of git; `memhooks"
        " hooks` lists them)"
    )
    assert "sub/a.py" in hook.read_text(encoding="utf-8") and _journal(env) == []
    assert _prompt(repo, env, "A") == ""  # once
    status = subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=all"],
                            capture_output=True, text=True, check=True)  # fmt: skip
    assert "?? sub/a.py" in status.stdout and "sub/MEMHOOKS.md" not in status.stdout  # out of git


def test_a_committed_broken_hook_deleted_instead_of_fixed_is_not_made_again(
    repo: Path, env: dict[str, str]
) -> None:
    """Git has it, so its deletion is what `git status` shows, not a new hook file in its
    place — and its session is told the update was not written, and why."""
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "hooks"], check=True)
    hook = repo / "sub" / "MEMHOOKS.md"
    assert "waits until sub/MEMHOOKS.md is fixed" in _write(repo, env, "A", "sub/a.py")
    hook.unlink()
    assert _prompt(repo, env, "A") == (
        "memhooks hook: MH000 hook update for sub/a.py, which waited for sub/MEMHOOKS.md to be"
        " fixed, was not written: sub/MEMHOOKS.md was deleted, and git has it, so memhooks does"
        " not make it again (`git checkout -- sub/MEMHOOKS.md` brings it back)"
    )
    assert not hook.exists() and _journal(env) == []
    status = subprocess.run([*git, "status", "--porcelain", "--untracked-files=all"],
                            capture_output=True, text=True, check=True)  # fmt: skip
    assert sorted(status.stdout.splitlines()) == [" D sub/MEMHOOKS.md", "?? sub/a.py"]
