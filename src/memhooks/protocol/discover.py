"""Find every ``MEMHOOKS.md`` below a directory (``validate``, ``prune``, ``migrate``).

Inside a git work tree the list comes from git itself
(``git ls-files --cached --others --exclude-standard``), so ignore rules are exactly
git's and huge trees cost one fast git call. Outside git (or when git is unavailable) a
walker that never follows symlinks and skips ``.git`` directories is used; it does
descend into other hidden directories. Entries of any type named ``MEMHOOKS.md`` are
returned (a symlink or directory with that name then fails MH029 when read); in git, a
directory with that name is found through the files it holds (git lists no empty
directory).
"""

from __future__ import annotations

import os
import subprocess

from ..errors import fail
from .hookfile import HOOK_NAME

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

GIT_TIMEOUT_S = 30.0


def find_hooks(
    directory: str, *, use_git: bool, meanwhile: Callable[[], None] | None = None
) -> list[str]:
    """Sorted absolute paths of hook entries below ``directory`` (inclusive).

    ``meanwhile`` is called once while git lists the tree (walking 5,000 folders takes it
    ~40 ms, as long as the rest of ``validate --all``), so the caller's own start-up
    work overlaps it; without git it is called before the walk.
    Raises DiagnosticError MH030 when the tree cannot be walked.
    """
    if use_git:
        listed = _git_list(directory, meanwhile)
        if listed is not None:
            return listed
    if meanwhile is not None:
        meanwhile()
    return _walk(directory)


def _git_list(directory: str, meanwhile: Callable[[], None] | None) -> list[str] | None:
    try:
        process = subprocess.Popen(
            [
                "git",
                "-c",
                "core.quotepath=off",
                "ls-files",
                "-z",
                "--cached",
                "--others",
                "--exclude-standard",
                "--",
                f"*{HOOK_NAME}",
                f"*{HOOK_NAME}/*",  # files inside a directory wrongly named like a hook
            ],
            cwd=directory,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    try:
        if meanwhile is not None:
            meanwhile()
        stdout, _ = process.communicate(timeout=GIT_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        return None
    finally:
        if process.poll() is None:  # `meanwhile` raised: do not leave git behind
            process.kill()
            process.wait()
    if process.returncode != 0:
        return None
    found = set()
    for name in stdout.decode("utf-8", "surrogateescape").split("\0"):
        parts = name.split("/")
        if HOOK_NAME not in parts:
            continue
        # The first component named like a hook: the hook itself, or a directory that
        # holds the listed file (it then fails MH029 when read, as outside git).
        path = os.path.join(directory, *parts[: parts.index(HOOK_NAME) + 1])
        if os.path.lexists(path):  # tracked but deleted in the work tree: nothing to check
            found.add(os.path.normpath(path))
    return sorted(found)


def _walk(directory: str) -> list[str]:
    problems: list[OSError] = []
    found = []
    for current, dirs, files in os.walk(directory, onerror=problems.append, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        if HOOK_NAME in files or HOOK_NAME in dirs:
            found.append(os.path.join(current, HOOK_NAME))
    if problems:
        exc = problems[0]
        raise fail(
            "MH030",
            f"could not walk the project tree: {exc.strerror or exc}",
            getattr(exc, "filename", None) or directory,
        )
    return sorted(found)
