"""The commit HEAD names, read from the repository's files (no process on the warm path).

Loose refs and ``packed-refs`` are read directly; anything else (reftable, a symbolic
ref chain deeper than a few links, an unreadable file) asks ``git rev-parse``.
"""

from __future__ import annotations

import os
import subprocess


def git_dirs(top: str) -> tuple[str, str] | None:
    """``(gitdir, common dir)`` of the work tree whose top folder is ``top`` (a linked
    worktree's ``.git`` file and ``commondir`` followed), or None."""
    marker = os.path.join(top, ".git")
    try:
        gitdir = marker
        if os.path.isfile(marker):
            with open(marker, encoding="utf-8") as fp:
                line = fp.readline().strip()
            if not line.startswith("gitdir:"):
                return None
            gitdir = os.path.normpath(os.path.join(top, line[len("gitdir:") :].strip()))
        common = gitdir
        commondir = os.path.join(gitdir, "commondir")
        if os.path.isfile(commondir):
            with open(commondir, encoding="utf-8") as fp:
                common = os.path.normpath(os.path.join(gitdir, fp.read().strip()))
    except (OSError, UnicodeDecodeError):
        return None
    return (gitdir, common) if os.path.isdir(gitdir) else None


def head_commit(top: str) -> str | None:
    """The hex hash of the commit HEAD names in the work tree ``top``, or None (no
    commit yet, not a repository)."""
    dirs = git_dirs(top)
    if dirs is None:
        return None
    gitdir, common = dirs
    try:
        name = "HEAD"
        for _ in range(5):
            value = _ref(gitdir if name == "HEAD" else common, name, common)
            if value is None:
                break
            if not value.startswith("ref:"):
                return value if _is_hash(value) else None
            name = value[4:].strip()
    except (OSError, UnicodeDecodeError):
        pass
    return _rev_parse(top)


def _ref(base: str, name: str, common: str) -> str | None:
    try:
        with open(os.path.join(base, name), encoding="ascii") as fp:
            return fp.read().strip()
    except FileNotFoundError:
        pass
    if os.path.isdir(os.path.join(common, "reftable")):
        return None
    with open(os.path.join(common, "packed-refs"), encoding="ascii", errors="replace") as fp:
        for line in fp:
            hash_, _, ref = line.rstrip("\n").partition(" ")
            if ref == name:
                return hash_
    return ""  # an unborn branch: no commit


def _rev_parse(top: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "-q", "--verify", "HEAD^{commit}"],
            cwd=top,
            capture_output=True,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except OSError:
        return None
    value = done.stdout.decode("ascii", "replace").strip()
    return value if done.returncode == 0 and _is_hash(value) else None


def _is_hash(text: str) -> bool:
    return len(text) in (40, 64) and not text.strip("0123456789abcdef")
