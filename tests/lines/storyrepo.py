"""Build a real git repository from a story (``data/*.json``): commits with the whole
content of each file they write, dated, in order, on ``main``. Shared by the line-level
recall tests (and the real-agent test): decision commit -> unrelated commit -> a
misleading "perf: simplify" on the same lines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"


def story(name: str = "retry_story.json") -> list[dict[str, Any]]:
    commits: list[dict[str, Any]] = json.loads((DATA / name).read_text(encoding="utf-8"))["commits"]
    return commits


def git(repo: Path, *args: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **(env or {})},
    )
    return done.stdout


def build(repo: Path, commits: list[dict[str, Any]] | None = None) -> dict[str, str]:
    """Make ``repo`` a repository holding the story's commits; ``{label: hash}``."""
    repo.mkdir(parents=True, exist_ok=True)
    git(repo, "init", "-q", "-b", "main")
    for key, value in (("user.name", "Story"), ("user.email", "story@example.com"),
                       ("commit.gpgsign", "false")):  # fmt: skip
        git(repo, "config", key, value)
    hashes: dict[str, str] = {}
    for commit in commits if commits is not None else story():
        hashes[commit["label"]] = commit_files(
            repo, commit["files"], commit["message"], commit["author_time"]
        )
    return hashes


def commit_files(repo: Path, files: dict[str, str | None], message: str, when: int) -> str:
    """Write (or with None remove) ``files`` and commit them at ``when``; the hash."""
    for path, content in files.items():
        target = repo / path
        if content is None:
            git(repo, "rm", "-q", path)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
        git(repo, "add", path)
    date = f"@{when} +0000"
    git(
        repo,
        "commit",
        "-q",
        "-m",
        message,
        env={"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date},
    )
    return git(repo, "rev-parse", "HEAD").strip()


def built_story(factory: Any, name: str) -> tuple[Path, dict[str, str]]:
    """The story ``data/<name>`` built once in a folder of pytest's ``factory``
    (``tmp_path_factory``): (the repository, resolved; ``{label: hash}``)."""
    repo = factory.mktemp(name.removesuffix(".json")) / "repo"
    return repo.resolve(), build(repo, story(name))


def why(repo: Path, home: Path, *args: str) -> str:
    """What ``memhooks why ARGS`` prints in ``repo`` for a user whose home is ``home``
    (git on the standard PATH); fails the test when it exits non-zero."""
    done = subprocess.run(
        [sys.executable, "-m", "memhooks", "why", *args],
        cwd=repo, capture_output=True, text=True, check=False,
        env={"HOME": str(home), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def why_owner(repo: Path, home: Path, where: str) -> dict[str, Any]:
    """The one owner ``memhooks why WHERE --format json`` names (:func:`why`)."""
    (owner,) = json.loads(why(repo, home, where, "--format", "json"))["owners"]
    return owner  # type: ignore[no-any-return]


def blamed_ahead(state: Path, seconds: float = 60.0) -> None:
    """Wait for a read's background blame (:mod:`memhooks.lines.warm`) to end: no lock
    file of it is left in the state folder ``state``."""
    import time

    end = time.monotonic() + seconds
    while time.monotonic() < end and any((state / "blame").glob("*.warm")):
        time.sleep(0.05)
