"""A reader that goes away is no error (newcomer10: `memhooks why … | head -3` exited 1,
now and then): a command whose stdout is a pipe nobody reads any more ends with the
status it would have had — 0 for an answer cut short — and says nothing on stderr,
whether the pipe closed while it printed or before Python flushed its output at exit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT_HOOK = "---\nschema: memhooks/v2\n---\n"


def _closed(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run ``memhooks argv`` with stdout a pipe whose reader closed before it started:
    its first write (or its flush at exit) meets a closed pipe, every time."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            [sys.executable, "-m", "memhooks", *argv], cwd=cwd, env=env, stdout=write,
            stderr=subprocess.PIPE, text=True, timeout=120, check=False,
        )  # fmt: skip
    finally:
        os.close(write)


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    root = tmp_path / "proj"
    root.mkdir()
    env = {**os.environ, "MEMHOOKS_STORE": str(tmp_path / "store.sqlite3"),
           "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b", "GIT_COMMITTER_NAME": "a",
           "GIT_COMMITTER_EMAIL": "a@b"}  # fmt: skip
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    (root / "a.py").write_text("".join(f"X{n} = {n}\n" for n in range(50)), encoding="utf-8")
    for argv in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "fix: keep X at 50"]):
        subprocess.run(["git", *argv], cwd=root, env=env, check=True)
    # a broken hook below: `why` says it after its answer (more to print, as newcomer10 had)
    (root / "sub").mkdir()
    (root / "sub" / "MEMHOOKS.md").write_text("---\nrecall_queries: [unclosed\n---\n")
    (root / "sub" / "b.py").write_text("Y = 1\n", encoding="utf-8")
    subprocess.run(["git", "add", "-A"], cwd=root, env=env, check=True)
    subprocess.run(["git", "commit", "-qm", "add b"], cwd=root, env=env, check=True)
    done = subprocess.run([sys.executable, "-m", "memhooks", "remember", "a fact to list"],
                          cwd=root, env=env, capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return root, env


@pytest.mark.parametrize(
    "argv",
    [["why", "a.py"], ["why", "sub/b.py"], ["memories", "list"], ["memories", "export"],
     ["explain", "."], ["--help"], ["--version"]],
    ids=" ".join,
)  # fmt: skip
def test_a_closed_stdout_is_no_error(project: tuple[Path, dict[str, str]], argv: list[str]) -> None:
    root, env = project
    done = _closed(argv, root, env)
    assert (done.returncode, done.stderr) == (0, "")


def test_a_failing_command_keeps_its_status(project: tuple[Path, dict[str, str]]) -> None:
    root, env = project
    done = _closed(["why", "missing.py"], root, env)
    assert done.returncode == 1 and "MH024" in done.stderr
