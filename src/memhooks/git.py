"""Everything memhooks asks of git, in one place: where a work tree is (the ``.git``
rule), the :class:`Repository` a folder is in, the environment git runs in, and the one
way to run it (:func:`run`) or start it without waiting (:func:`spawn`).

The ``.git`` rule (``shared/spec/reference-engine.md`` (c) rule 2): a folder is the top
of a work tree when it holds a ``.git`` entry — a directory, or a file as in linked
worktrees and submodules; a symlink only when it resolves. git's own discovery agrees.

git always runs with :func:`environment`: the variables that would point it at another
repository than the one named (``GIT_DIR``, ``GIT_INDEX_FILE``, … as pre-commit's
``no_git_env`` drops them) are left out, there is no pager and no credential prompt, and
its messages are in English (one quoted in an error reads the same for everyone).

Only ``os`` and ``stat`` are imported here: the hook's fast path asks :func:`marker`.
``subprocess`` is imported by :func:`run` alone (~3 ms); :func:`spawn` uses
``posix_spawn`` (:mod:`memhooks.child`).
"""

from __future__ import annotations

import os
import stat

TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess
    from collections.abc import Mapping

    from .child import Child

MARKER = ".git"
#: Variables that would point git at another repository than the one we name.
REPOSITORY_VARS = frozenset(
    (
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_COMMON_DIR",
        "GIT_INDEX_FILE",
        "GIT_OBJECT_DIRECTORY",
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_NAMESPACE",
        "GIT_CEILING_DIRECTORIES",
        "GIT_DISCOVERY_ACROSS_FILESYSTEM",
    )
)
#: Options for a command that prints paths: as they are, not quoted (``-z`` or not). Not
#: on every command line: ``git config --show-origin`` names ``-c`` options' origin as
#: the command line, not a file.
QUOTEPATH = ("-c", "core.quotepath=off")


def marker(folder: str) -> bool | None:
    """Whether ``folder`` holds a ``.git`` entry by the rule above; None when the folder
    cannot be examined (permission denied: a walk up ends there)."""
    git = os.path.join(folder, MARKER)
    try:
        entry = os.lstat(git)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError:
        return None
    return not stat.S_ISLNK(entry.st_mode) or os.path.exists(git)


def is_top(folder: str, below: str) -> bool:
    """``folder`` is still the top of the work tree that the folder ``below`` (at or
    under it, both as named) is in: no ``.git`` entry from ``below`` up to under
    ``folder``, one at ``folder``."""
    while below != folder:
        if marker(below) is not False:
            return False
        parent = os.path.dirname(below)
        if parent == below:
            return False
        below = parent
    return marker(folder) is True


class Repository:
    """A git work tree: ``top`` (its top folder), ``gitdir`` (this work tree's git
    directory: HEAD, index) and ``common`` (config, objects and branches; the same
    as ``gitdir`` but in linked worktrees)."""

    __slots__ = ("common", "gitdir", "top")

    def __init__(self, top: str, gitdir: str, common: str) -> None:
        self.top = top
        self.gitdir = gitdir
        self.common = common


def find_repository(real: str) -> Repository | None:
    """The git work tree that canonical folder ``real`` is in, or None (no ``.git`` above
    it, or one that cannot be read), read straight from ``.git`` with no process.
    Linked worktrees and submodules (``.git`` is a file ``gitdir: <path>``) are
    followed."""
    top = real
    while not marker(top):
        parent = os.path.dirname(top)
        if parent == top:
            return None
        top = parent
    gitdir = os.path.join(top, MARKER)
    try:
        if os.path.isfile(gitdir):
            with open(gitdir, encoding="utf-8") as fp:
                line = fp.readline().strip()
            if not line.startswith("gitdir:"):
                return None
            gitdir = os.path.join(top, line[len("gitdir:") :].strip())
        common = gitdir
        commondir = os.path.join(gitdir, "commondir")
        if os.path.isfile(commondir):
            # A worktree's own gitdir holds HEAD and index; config lives in the common dir.
            with open(commondir, encoding="utf-8") as fp:
                common = os.path.normpath(os.path.join(gitdir, fp.read().strip()))
    except (OSError, UnicodeDecodeError):
        return None
    return Repository(top, os.path.normpath(gitdir), common) if os.path.isdir(gitdir) else None


def shallow_commits(folder: str) -> frozenset[str]:
    """The commits at the edge of a shallow clone holding ``folder`` (its ``shallow``
    file: git treats them as having no parent, so blame with ``--root`` names such a
    commit as the owner of every older line), or nothing (not shallow, not a work tree).
    A root commit is not in it: that one really has no parent."""
    repo = find_repository(os.path.realpath(folder))
    return frozenset() if repo is None else shallow_edge(repo.common)


def shallow_edge(common: str) -> frozenset[str]:
    """:func:`shallow_commits` of the repository whose common directory is ``common``."""
    try:
        with open(os.path.join(common, "shallow"), "rb") as fp:
            return frozenset(line.strip().decode("ascii") for line in fp if line.strip())
    except (OSError, UnicodeDecodeError):
        return frozenset()


def environment(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment git runs in: ``base`` (the process's) without
    :data:`REPOSITORY_VARS`, with no pager, no prompt for credentials and ``LC_ALL=C``."""
    base = os.environ if base is None else base
    env = {k: v for k, v in base.items() if k not in REPOSITORY_VARS}
    env.update(GIT_PAGER="cat", GIT_TERMINAL_PROMPT="0", LC_ALL="C")
    return env


def command(directory: str, *args: str) -> list[str]:
    """The command line of ``git ARGS`` run in ``directory``."""
    return ["git", "-C", directory, *args]


def run(
    directory: str,
    *args: str,
    input: str | None = None,
    timeout: float | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``git ARGS`` in ``directory`` to its end: stdout and stderr captured as text
    (UTF-8, undecodable bytes replaced), ``input`` on stdin (else ``/dev/null``), at most
    ``timeout`` seconds. Raises OSError when git cannot be
    started, ``subprocess.TimeoutExpired`` after ``timeout``; a failing git is its
    ``returncode``, for the caller to judge."""
    import subprocess

    return subprocess.run(
        command(directory, *args),
        input=input,
        stdin=None if input is not None else subprocess.DEVNULL,
        capture_output=True,
        env=environment(),
        timeout=timeout,
        check=False,
        text=True,
        encoding="utf-8",
        errors="replace",
    )


def spawn(directory: str, *args: str) -> Child:
    """Start ``git ARGS`` in ``directory`` without waiting for it (``posix_spawn``, no
    ``subprocess``: see :class:`memhooks.child.Child`). Raises OSError when it cannot
    be started."""
    from .child import Child

    return Child(command(directory, *args), env=environment())
