"""Build a real git repository from a recorded commit list (``data/commits.json``).

``git fast-import`` writes the commits, so a 70-commit history takes one or two
processes. A message may name an earlier commit as ``{commit:LABEL}``; the import stops
before such a commit, reads the hashes written so far, and goes on.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
PLACEHOLDER = re.compile(r"\{commit:(\w[\w-]*)\}")


def recorded(name: str = "commits.json") -> list[dict[str, Any]]:
    return json.loads((DATA / name).read_text(encoding="utf-8"))["commits"]


def git(repo: Path, *args: str, env: dict[str, str] | None = None) -> str:
    import os

    done = subprocess.run(
        ["git", "-C", str(repo), *args],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **(env or {})},
    )
    return done.stdout


def build(repo: Path, commits: list[dict[str, Any]]) -> dict[str, str]:
    """Make ``repo`` (a new folder) a repository holding ``commits`` on ``main``, checked
    out; return ``{label: full hash}``."""
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", "Fixture")
    git(repo, "config", "user.email", "fixture@example.com")
    git(repo, "config", "commit.gpgsign", "false")
    marks = repo / ".git" / "fixture-marks"
    mark_of = {commit["label"]: number for number, commit in enumerate(commits, 1)}
    hashes: dict[str, str] = {}
    stream: list[bytes] = []
    for number, commit in enumerate(commits, 1):
        if set(PLACEHOLDER.findall(commit["message"])) - hashes.keys():
            hashes.update(_fast_import(repo, stream, marks, commits))
            stream = []
        message = PLACEHOLDER.sub(lambda m: hashes[m.group(1)], commit["message"])
        stream.append(_commit(number, commit, message, mark_of))
    hashes.update(_fast_import(repo, stream, marks, commits))
    git(repo, "reset", "-q", "--hard", "main")
    return hashes


def _commit(number: int, commit: dict[str, Any], message: str, mark_of: dict[str, int]) -> bytes:
    email = commit["author_email"]
    name = email.split("@")[0]
    body = message.encode("utf-8")
    lines = [
        b"commit refs/heads/main",
        b"mark :%d" % number,
        f"author {name} <{email}> {commit['author_time']} +0000".encode(),
        f"committer {name} <{email}> {commit['commit_time']} +0000".encode(),
        b"data %d" % len(body),
        body,
    ]
    if number > 1:
        lines.append(b"from :%d" % (number - 1))
    if commit.get("merge_of"):
        lines.append(b"merge :%d" % mark_of[commit["merge_of"]])
    for old, new in commit.get("renames", []):
        lines.append(f"R {old} {new}".encode())
    for path in commit["files"]:
        content = f"{commit['label']} {path}\n".encode()
        lines += [f"M 100644 inline {path}".encode(), b"data %d" % len(content), content]
    return b"\n".join(lines) + b"\n\n"


def _fast_import(
    repo: Path, stream: list[bytes], marks: Path, commits: list[dict[str, Any]]
) -> dict[str, str]:
    if stream:
        subprocess.run(
            ["git", "-C", str(repo), "fast-import", "--quiet", "--force",
             f"--import-marks-if-exists={marks}", f"--export-marks={marks}"],
            input=b"".join(stream),
            check=True,
            capture_output=True,
        )  # fmt: skip
    found = {}
    if marks.exists():
        for line in marks.read_text().splitlines():
            mark, sha = line.split()
            found[commits[int(mark[1:]) - 1]["label"]] = sha
    return found
