"""Find every ``MEMHOOKS.md`` below a directory (``validate``, ``prune``, ``migrate``).

Inside a git work tree the list comes from git itself
(``git ls-files --cached --others --exclude-standard``), so ignore rules are exactly
git's and huge trees cost one fast git call. Outside git (or when git is unavailable) a
walker that never follows symlinks and skips ``.git`` directories is used; it does
descend into other hidden directories. Entries of any type named ``MEMHOOKS.md`` are
returned (a symlink, directory or FIFO with that name then fails MH029 when read, as the
runtime refuses it: issue 13 item 9).

git lists no empty directory and no FIFO, so in git every folder it shows (each folder
on the way to a listed entry) is also checked with one ``lstat`` for a ``MEMHOOKS.md``
that is not a regular file, and a wholly untracked folder that holds no listed file is
walked (nested repositories excepted). Left unseen: a special entry in a folder that holds
no visible file, inside an untracked folder that has visible files elsewhere (git shows
that folder only as a whole; finding its empty subfolders would take one more git call
per level).
"""

from __future__ import annotations

import os
import stat

from .. import git
from ..errors import fail
from ..protocol import HOOK_NAME

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypedDict

    class Overlap(TypedDict, total=False):
        """:func:`memhooks.listing.cache.find_hooks`'s ``meanwhile`` (as :func:`list_hooks`
        takes it), ``speculate`` and ``settle`` (as ``candidates.git_list`` does)."""

        meanwhile: Callable[[], None] | None
        speculate: Callable[[str], None] | None
        settle: Callable[[], None] | None


GIT_TIMEOUT_S = 30.0


def list_hooks(
    directory: str, *, use_git: bool, meanwhile: Callable[[], None] | None = None
) -> list[str]:
    """Sorted absolute paths of hook entries below ``directory`` (inclusive).

    ``meanwhile`` is called once while git lists the tree (walking 5,000 folders takes it
    ~50 ms, as long as the rest of ``validate --all``), so the caller's own start-up
    work overlaps it; without git it is called before the walk. (A caller that also
    reads hooks while git lists them asks :func:`memhooks.listing.candidates.git_list`
    first: :func:`memhooks.listing.cache.find_hooks`.) Raises DiagnosticError MH030 when
    the tree cannot be walked.
    """
    if use_git:
        listed = _git_list(directory, meanwhile)
        if listed is not None:
            return listed
    if meanwhile is not None:
        meanwhile()
    return _walk(directory)


def _git_list(
    directory: str, meanwhile: Callable[[], None] | None, seen: set[str] | None = None
) -> list[str] | None:
    """What :func:`list_hooks` lists in git, or None when git cannot answer; ``seen``
    (when given) receives every folder whose entries the result depends on beyond what
    git lists: each folder on the way to a listed entry (absolute paths)."""
    listed = _git_files(directory, ["--cached", "--directory"], meanwhile)
    if listed is None:
        return None
    # wholly untracked folders come back collapsed ("new/"); list the files inside them
    collapsed = [name for name in listed if name.endswith("/")]
    if collapsed:
        listed += _git_files(directory, ["--", *collapsed], None) or []
    return hooks_in(directory, listed, collapsed, seen)


def hooks_in(
    directory: str,
    listed: list[str],
    collapsed: list[str],
    seen: set[str] | None = None,
    plain: set[str] | frozenset[str] = frozenset(),
) -> list[str]:
    """The hook entries of git's listing: ``listed``, the paths git lists (relative,
    ``/``-separated; folders end in ``/``), of which ``collapsed`` are the wholly
    untracked folders ``--directory`` showed; ``seen`` as for :func:`_git_list`;
    ``plain``: folders (relative) just read and found to hold nothing named like a hook
    but a regular file, so not checked again."""
    found = set()
    shown: set[str] = set()  # folders (relative, "/"-separated) git shows a file in
    for name in listed:
        if HOOK_NAME in name:
            parts = name.split("/")
            if HOOK_NAME in parts:
                # The first component named like a hook: the hook itself, or a directory
                # that holds the listed file (it then fails MH029 when read, as outside git).
                path = os.path.join(directory, *parts[: parts.index(HOOK_NAME) + 1])
                if os.path.lexists(path):  # tracked but deleted in the work tree: nothing to check
                    found.add(os.path.normpath(path))
        if name[-1] != "/":
            shown.add(name.rpartition("/")[0])
    folders = set()
    for rel in shown:  # every folder on the way to a shown file
        while rel not in folders:
            folders.add(rel)
            rel = rel.rpartition("/")[0]
    folders.add("")
    if seen is not None:
        seen.update(os.path.join(directory, rel) if rel else directory for rel in folders)
    for name in collapsed:
        rel = "/".join(part for part in name.split("/") if part not in ("", "."))
        if rel not in folders:  # nothing git shows inside: empty dirs, FIFOs
            folder = os.path.join(directory, rel) if rel else directory
            found.update(_walk(folder, repositories=False))
    for rel in folders - plain if plain else folders:
        path = os.path.join(directory, rel, HOOK_NAME)
        if path not in found and _special(path):
            found.add(path)
    return sorted(found)


def _git_files(
    directory: str, args: list[str], meanwhile: Callable[[], None] | None
) -> list[str] | None:
    """Non-ignored paths ``git ls-files --others --exclude-standard`` lists (plus ``args``),
    relative to ``directory``, calling ``meanwhile`` while git runs; None when git
    cannot answer."""
    import subprocess  # not on the listing cache's hit path (~3 ms)

    try:
        process = subprocess.Popen(
            git.command(
                directory, *git.QUOTEPATH, "ls-files", "-z", "--others", "--exclude-standard", *args
            ),
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=git.environment(),
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
    return [n for n in stdout.decode("utf-8", "surrogateescape").split("\0") if n]


def _special(path: str) -> bool:
    """True when something that is not a regular file is at ``path`` (never followed)."""
    try:
        return not stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _walk(directory: str, *, repositories: bool = True) -> list[str]:
    """Hook entries below ``directory``; without ``repositories``, folders holding a
    ``.git`` entry (nested repositories, submodules: other projects) are skipped."""
    problems: list[OSError] = []
    found = []
    if not repositories and os.path.lexists(os.path.join(directory, ".git")):
        return []
    for current, dirs, files in os.walk(directory, onerror=problems.append, followlinks=False):
        dirs[:] = sorted(
            d
            for d in dirs
            if d != ".git"
            and (repositories or not os.path.lexists(os.path.join(current, d, ".git")))
        )
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
