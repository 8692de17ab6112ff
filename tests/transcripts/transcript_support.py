"""What the transcript tests share: the hosts' recorded files laid out in a sandboxed
HOME, a small git project, and the development set planted as a user's machine (its
fixtures: ``conftest.py``). A module of its own — not ``conftest`` — so that tests import
it by a name no other test folder uses, and any set of test folders collects together."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
DATA = HERE / "data"
BENCH = HERE.parents[1] / "bench" / "conversations"
sys.path.insert(0, str(BENCH))

from plant import plant

__all__ = ["DATA", "HOME", "PROJECT", "ROOT_HOOK", "copy_devset", "git_project", "lay_out", "plant"]

ROOT_HOOK = "---\nschema: memhooks/v2\n---\n"
#: The neutral paths the samples were recorded with (tests/transcripts/data).
PROJECT, HOME = "/home/user/proj", "/home/user"


def git_project(path: Path) -> Path:
    """A git repository with one commit and a root hook at ``path`` (canonical). Its
    folder name is in the commit, so two such projects are two projects (same files, author
    and second would make the same root commit: one project id)."""
    path.mkdir(parents=True, exist_ok=True)
    (path / "NAME").write_text(path.name)
    (path / "incidents.py").write_text("def downtime_minutes(windows):\n    return 0\n")
    (path / "tests").mkdir(exist_ok=True)
    (path / "tests" / "test_incidents.py").write_text("from incidents import downtime_minutes\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run([*git, "init", "-q"], cwd=path, check=True)
    subprocess.run([*git, "add", "-A"], cwd=path, check=True)
    subprocess.run([*git, "commit", "-qm", "init"], cwd=path, check=True)
    (path / "MEMHOOKS.md").write_text(ROOT_HOOK)
    return path.resolve()


def lay_out(host: str, home: Path, project: Path) -> list[Path]:
    """Copy ``data/<host>/home`` into ``home`` with the recorded paths made ``project``'s."""
    written = []
    source = DATA / host / "home"
    for path in sorted(source.rglob("*")):
        if path.is_file():
            target = home / path.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            text = (
                path.read_text(encoding="utf-8")
                .replace(PROJECT, str(project))
                .replace(HOME, str(home))
            )
            target.write_text(text, encoding="utf-8")
            written.append(target)
    return written


def copy_devset(devset: tuple[Path, Path], tmp_path: Path) -> tuple[Path, Path]:
    """A private copy of the planted development set (paths in the hosts' files rewritten)."""
    project, home = devset
    new_project, new_home = tmp_path / "uptime", tmp_path / "home"
    shutil.copytree(project, new_project, symlinks=True)
    for path in sorted(home.rglob("*")):
        if path.is_file():
            target = new_home / path.relative_to(home)
            target.parent.mkdir(parents=True, exist_ok=True)
            text = path.read_text(encoding="utf-8").replace(str(project), str(new_project))
            target.write_text(text.replace(str(home), str(new_home)), encoding="utf-8")
    return new_project.resolve(), new_home
