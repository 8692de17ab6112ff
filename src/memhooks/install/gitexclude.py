"""Keep project-level files that hold this machine's path to memhooks out of git.

A project-level install writes the absolute path of this installation's ``memhooks``
into the project (``.claude/settings.local.json``, ``.github/hooks/memhooks.json``, the
OpenCode plugin, ...). Committed, it would break every other checkout. So a file an
install *creates* there is added to the repository's own ``info/exclude`` (local to this
clone, never committed; ``git rev-parse --git-path info/exclude``, so worktrees work
too), in a block of ours::

    # memhooks-managed: these files hold this machine's path to memhooks
    /.claude/settings.local.json

unless git already ignores it. Uninstalling a file takes its line out again (and the
block, once empty). A file that existed and is tracked by git cannot be excluded:
:func:`tracked` names it so the user is told not to commit the change.
"""

from __future__ import annotations

import os
import subprocess

from .. import git
from ..excludes import read_block, with_block
from ..paths import is_within, relative
from .base import Edit
from .command import hook_program
from .files import read

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from .base import Context

HEADER = "# memhooks-managed: these files hold this machine's path to memhooks"


def _git(
    root: str, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str] | None:
    try:
        return git.run(root, *args, input=stdin, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None


def exclude_file(root: str) -> str | None:
    """The ``info/exclude`` file of the git work tree at ``root``; None outside git."""
    if not git.marker(root):
        return None
    done = _git(root, "rev-parse", "--git-path", "info/exclude")
    if done is None or done.returncode != 0 or not done.stdout.strip():
        return None
    path = done.stdout.strip()
    return path if os.path.isabs(path) else os.path.join(root, path)


def _ignored(root: str, rels: list[str]) -> set[str]:
    if not rels:
        return set()
    done = _git(root, "check-ignore", "--stdin", stdin="\n".join(rels) + "\n")
    return set(done.stdout.split("\n")) - {""} if done is not None else set()


def _rel(root: str, path: str) -> str | None:
    path = os.path.normpath(path)
    return relative(path, root) if is_within(path, root) else None


def plan(ctx: Context, edits: Iterable[Edit]) -> list[Edit]:
    """The edit of ``info/exclude`` that keeps out of git the files ``edits`` create
    holding this machine's path to memhooks (``ctx.exe[0]``, or the ``__main__.py`` hook
    commands run), and drops the lines of files they delete; [] when nothing
    changes or ``ctx.root`` is not a git work tree."""
    # the program, and the __main__.py hook commands start on (when hook_program chose it)
    programs = (
        {ctx.exe[0], *(w for w in hook_program(ctx.exe)[1:] if w.endswith(".py"))}
        if ctx.exe
        else set()
    )
    add, drop = [], []
    for change in edits:
        rel = _rel(ctx.root, change.path)
        if rel is None or rel.startswith(".git/"):
            continue
        if change.action == "create" and any(p in (change.text or "") for p in programs):
            add.append(rel)
        elif change.action == "delete":
            drop.append(rel)
    if not add and not drop:
        return []
    path = exclude_file(ctx.root)
    if path is None:
        return []
    # any bytes git takes (a user's Latin-1 comment) are kept as they are, not refused
    raw = read(path, errors="surrogateescape")
    lines = (raw or "").splitlines()
    ours = _block(lines)
    wanted = [f"/{rel}" for rel in add if f"/{rel}" not in ours]
    ignored = _ignored(ctx.root, [w[1:] for w in wanted])
    wanted = [w for w in wanted if w[1:] not in ignored]
    gone = {f"/{rel}" for rel in drop} & set(ours)
    if not wanted and not gone:
        return []
    kept = [line for line in ours if line not in gone] + wanted
    text = _with_block(lines, kept)
    new = text if text.strip() else None
    found = [] if new == raw else [Edit(path, new, raw)]
    for change in found:
        names = ", ".join(w[1:] for w in wanted) or ", ".join(sorted(g[1:] for g in gone))
        change.why = (
            f"keeps {names} out of git: it holds this machine's path to memhooks"
            if wanted
            else f"{names} no longer needs keeping out of git"
        )
    return found


def _block(lines: list[str]) -> list[str]:
    """Our lines (:func:`memhooks.excludes.read_block`)."""
    return read_block(lines, HEADER)


def _with_block(lines: list[str], ours: list[str]) -> str:
    """``lines`` with our block holding ``ours`` (:func:`memhooks.excludes.with_block`)."""
    return with_block(lines, HEADER, ours)


def tracked(ctx: Context, edits: Iterable[Edit]) -> list[str]:
    """Files ``edits`` update that git tracks (they cannot be excluded): relative paths."""
    rels = [r for e in edits if e.action == "update" and (r := _rel(ctx.root, e.path))]
    rels = [r for r in rels if not r.startswith(".git/")]
    if not rels or not git.marker(ctx.root):
        return []
    done = _git(ctx.root, "ls-files", "--", *rels)
    return [r for r in (done.stdout.split("\n") if done else []) if r]
