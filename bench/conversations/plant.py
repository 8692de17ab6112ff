"""Lay the recorded development set out as a user's machine: the project and the hosts' files.

``plant(base)`` copies ``recorded/final`` to ``base/uptime`` (a git repository with one
commit and a root ``MEMHOOKS.md``, as ``memhooks init`` writes it) and ``recorded/home``
to ``base/home``, with the neutral paths of the recording (``/home/user/uptime``,
``/home/user``) replaced by those two folders, so the hosts' files point at the planted
project as they pointed at the recorded one. Used by ``measure.py`` and the tests.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
RECORDED = HERE / "recorded"
PROJECT, HOME = "/home/user/uptime", "/home/user"
ROOT_HOOK = "---\nschema: memhooks/v2\n---\n"


def plant(base: Path, recorded: Path = RECORDED) -> tuple[Path, Path]:
    """``(project, home)`` laid out under ``base`` (see the module docstring)."""
    project, home = base / "uptime", base / "home"
    shutil.copytree(recorded / "final", project)
    (project / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    git = [
        "git",
        "-c",
        "user.name=dev",
        "-c",
        "user.email=dev@example.invalid",
        "-c",
        "init.defaultBranch=main",
    ]
    env = {"GIT_CONFIG_NOSYSTEM": "1", "HOME": str(base), "PATH": "/usr/bin:/bin:/usr/local/bin"}
    subprocess.run([*git, "init", "-q"], cwd=project, check=True, env=env)
    subprocess.run([*git, "add", "-A"], cwd=project, check=True, env=env)
    subprocess.run([*git, "commit", "-qm", "uptime"], cwd=project, check=True, env=env)
    for path in sorted((recorded / "home").rglob("*")):
        if path.is_dir():
            continue
        target = home / path.relative_to(recorded / "home")
        target.parent.mkdir(parents=True, exist_ok=True)
        text = (
            path.read_text(encoding="utf-8").replace(PROJECT, str(project)).replace(HOME, str(home))
        )
        target.write_text(text, encoding="utf-8")
    return project, home
