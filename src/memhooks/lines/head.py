"""The commit HEAD names, read from the repository's files (no process on the warm path).

Loose refs and ``packed-refs`` are read directly; anything else (reftable, a symbolic
ref chain deeper than a few links, an unreadable file) asks ``git rev-parse``.
"""

from __future__ import annotations

import os


def head_commit(top: str) -> str | None:
    """The hex hash of the commit HEAD names in the work tree ``top``, or None (no
    commit yet, not a repository)."""
    from ..git import find_repository

    repo = find_repository(top)
    if repo is None or os.path.realpath(repo.top) != os.path.realpath(top):
        return None
    gitdir, common = repo.gitdir, repo.common
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
        # bytes decoded by name: CPython's built-in ASCII decoder, no codec module loaded
        with open(os.path.join(base, name), "rb") as fp:
            return fp.read().decode("ascii").strip()
    except FileNotFoundError:
        pass
    if os.path.isdir(os.path.join(common, "reftable")):
        return None
    with open(os.path.join(common, "packed-refs"), "rb") as fp:
        for line in fp.read().decode("ascii", "replace").splitlines():
            hash_, _, ref = line.partition(" ")
            if ref == name:
                return hash_
    return ""  # an unborn branch: no commit


def _rev_parse(top: str) -> str | None:
    from ..git import run

    try:
        done = run(top, "rev-parse", "-q", "--verify", "HEAD^{commit}")
    except OSError:
        return None
    value = done.stdout.strip()
    return value if done.returncode == 0 and _is_hash(value) else None


def _is_hash(text: str) -> bool:
    return len(text) in (40, 64) and not text.strip("0123456789abcdef")
