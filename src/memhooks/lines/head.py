"""The commit HEAD names, read from the repository's files (no process on the warm path).

Loose refs and ``packed-refs`` are read directly; anything else (reftable, a symbolic
ref chain deeper than a few links, an unreadable file) asks ``git rev-parse``.
"""

from __future__ import annotations

import os

from ..paths import resolved

#: What :func:`blame_key` adds for a shallow clone, before its edge commits.
SHALLOW = " shallow="


def head_commit(top: str) -> str | None:
    """The hex hash of the commit HEAD names in the work tree ``top``, or None (no
    commit yet, not a repository)."""
    found = _found(top)
    return None if found is None else found[0]


def blame_key(top: str) -> str | None:
    """What a blame of a file of the work tree ``top`` answers for besides the file: the
    commit HEAD names and, in a shallow clone, its edge — ``git fetch --unshallow`` or
    ``--deepen`` changes what blame can see while HEAD stays (``"<hash>"``, ``"<hash>
    shallow=<edge>,<edge>"``); None: no commit yet, not a repository. A blame cache entry
    saved under another key does not answer as it is (:mod:`.version`)."""
    found = _found(top)
    if found is None:
        return None
    head, edge = found
    return head + (SHALLOW + ",".join(sorted(edge)) if edge else "") if head else None


def edge_of(key: str) -> frozenset[str]:
    """The shallow clone's edge commits a :func:`blame_key` names (none: not shallow)."""
    _, _, edge = key.partition(SHALLOW)
    return frozenset(edge.split(" ")[0].split(",")) if edge else frozenset()


def _found(top: str) -> tuple[str | None, frozenset[str]] | None:
    """(HEAD's commit or None, the shallow edge), or None: not a repository's top."""
    from ..git import find_repository, shallow_edge

    repo = find_repository(top)
    if repo is None or resolved(repo.top) != resolved(top):
        return None
    return _head(top, repo.gitdir, repo.common), shallow_edge(repo.common)


def _head(top: str, gitdir: str, common: str) -> str | None:
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
