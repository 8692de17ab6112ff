"""A project-level install keeps the files it creates that hold this machine's path to
memhooks out of git (the repository's own ``info/exclude``, never committed), and says
when a file git already tracks now holds that path (issue 13 item 16: memhooks'
``.claude/settings.local.json`` was not git-ignored)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from memhooks.install import Context, apply, plan
from memhooks.install.gitexclude import HEADER


def git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, check=False
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    git(root, "init", "-q")
    return root


def context(root: Path) -> Context:
    return Context(str(root), "project", exe=["/opt/memhooks/bin/memhooks"])


def untracked(root: Path) -> set[str]:
    out = git(root, "status", "--porcelain", "--untracked-files=all").stdout
    return {line[3:] for line in out.splitlines()}


def test_created_files_with_our_path_are_excluded_and_uninstall_takes_the_lines_back(
    repo: Path,
) -> None:
    exclude = repo / ".git/info/exclude"
    before = exclude.read_text()
    ctx = context(repo)
    edits = plan("install", "claude-code", ctx)
    change = next(e for e in edits if e.path == str(exclude))
    assert change.why == (
        "keeps .claude/settings.local.json out of git: it holds this machine's path to memhooks"
    )
    apply(edits)
    assert exclude.read_text() == f"{before}\n{HEADER}\n/.claude/settings.local.json\n"
    assert git(repo, "check-ignore", "-q", ".claude/settings.local.json").returncode == 0
    assert not any(p.startswith(".claude/settings") for p in untracked(repo))
    assert any(p.startswith(".claude/skills/memhooks/") for p in untracked(repo)), (
        "the skill holds no path"
    )
    assert plan("install", "claude-code", ctx) == []

    ctx2 = context(repo)
    apply(plan("install", "copilot-cli", ctx2))
    assert exclude.read_text().endswith(
        f"{HEADER}\n/.claude/settings.local.json\n/.github/hooks/memhooks.json\n"
    )

    apply(plan("uninstall", "copilot-cli", ctx2))
    apply(plan("uninstall", "claude-code", ctx))
    assert exclude.read_text() == before


def test_a_file_git_already_ignores_gets_no_line(repo: Path) -> None:
    (repo / ".gitignore").write_text(".claude/settings.local.json\n")
    apply(plan("install", "claude-code", context(repo)))
    assert HEADER not in (repo / ".git/info/exclude").read_text()


def test_outside_git_nothing_is_excluded(tmp_path: Path) -> None:
    edits = plan("install", "claude-code", context(tmp_path))
    assert all(".git" not in e.path for e in edits)


def test_a_tracked_config_that_now_holds_our_path_is_named(repo: Path) -> None:
    (repo / ".gemini").mkdir()
    (repo / ".gemini/settings.json").write_text('{"general": {"vimMode": true}}\n')
    git(repo, "add", ".gemini/settings.json")
    done = subprocess.run(
        [sys.executable, "-m", "memhooks", "agents", "install", "--agent", "gemini-cli", "--project", "--cwd", str(repo / ".gemini")],
        capture_output=True, text=True, check=True, env=os.environ,
    )  # fmt: skip
    assert (
        "gemini-cli:   note: .gemini/settings.json is tracked by git and now holds this machine's "
        "path to memhooks: do not commit that change (or install at user level)"
    ) in done.stdout.splitlines()
    assert f"gemini-cli: update {repo}/.gemini/settings.json" in done.stdout.splitlines()


def test_a_file_that_only_mentions_memhooks_is_not_excluded(repo: Path) -> None:
    # With another interpreter's `python -m memhooks` as the CLI, the hook command is
    # that argv itself: its last word ("memhooks") is no machine path to keep out of git.
    from memhooks.install.base import Edit
    from memhooks.install.gitexclude import plan as exclude_plan

    ctx = Context(str(repo), "project", exe=["/opt/other/python3", "-m", "memhooks"])
    notes = Edit(str(repo / "NOTES.md"), "we use memhooks here\n", None)
    wired = Edit(str(repo / ".claude" / "settings.local.json"), '{"command": "/opt/other/python3 -m memhooks hook"}\n', None)
    [edit] = exclude_plan(ctx, [notes, wired])
    assert ".claude/settings.local.json" in (edit.text or "") and "NOTES.md" not in (edit.text or "")


def test_bytes_that_are_not_utf8_in_the_exclude_file_are_kept_not_refused(repo: Path) -> None:
    # git reads any bytes there; a user's Latin-1 comment made `agents install --project`
    # fail with MH028 naming .claude/settings.local.json, a file it had not read yet
    exclude = repo / ".git/info/exclude"
    exclude.write_bytes(exclude.read_bytes() + b"# caf\xe9 notes\n")
    before = exclude.read_bytes()
    ctx = context(repo)
    apply(plan("install", "claude-code", ctx))
    assert exclude.read_bytes() == before + f"\n{HEADER}\n/.claude/settings.local.json\n".encode()
    assert git(repo, "check-ignore", "-q", ".claude/settings.local.json").returncode == 0
    apply(plan("uninstall", "claude-code", ctx))
    assert exclude.read_bytes() == before
