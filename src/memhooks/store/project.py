"""Project ids: one per project, stable for as long as the project's history is.

A git project is named by its root commit, ``git:<sha>`` (``//sub/dir`` appended when
the root is below the top of the work tree, e.g. a ``MEMHOOKS_ROOT`` sub-project), so
adding, changing or removing a remote, re-cloning, moving the checkout or opening a
worktree keeps its memories (issue 13 item 1). Every clone of a history shares them,
forks included. Without a root commit (no git, no commit yet, a shallow clone, no
``git`` program) the id is the normalized ``origin`` URL when there is one, else the
folder's real path, as before root commits; such an id adopts only the path's memories,
never the remote's (a shallow clone must not take them from every full clone). A failed
lookup is remembered for an hour while HEAD stays the same (no ``git`` run per hook call).

Ids used before (the ``origin`` URL normalized, or the path) are the identity's
``aliases``: :meth:`memhooks.store.MemoryStore.adopt` moves what a store kept under them.
Read from ``.git`` without running ``git`` but the first time (:mod:`.gitrepo`).
"""

from __future__ import annotations

import os

from ..git import find_repository
from ..paths import resolved
from .gitrepo import origin_url, root_commit


class Identity:
    """``id``: the project id memories are stored under; ``aliases``: ids the same
    project had before (legacy remote-URL and path ids), never containing ``id``."""

    __slots__ = ("aliases", "id")

    def __init__(self, id: str, aliases: tuple[str, ...] = ()) -> None:
        self.id = id
        self.aliases = aliases

    def __repr__(self) -> str:
        return f"Identity({self.id!r}, aliases={self.aliases!r})"


def identify(root: str) -> Identity:
    """The :class:`Identity` of the project at ``root``. Never raises for an unreadable
    or odd ``.git`` (falls back to the path); never contains credentials.

    Cost: a walk up to ``.git`` and two small file reads; the first call in a repository
    runs ``git rev-list`` once (at most ``gitrepo.ROOT_TIMEOUT_S`` seconds).
    """
    real = resolved(root)
    repo = find_repository(real)
    if repo is None:
        return Identity(real)
    below = os.path.relpath(real, repo.top)
    suffix = "" if below == os.curdir else "//" + below.replace(os.sep, "/")
    url = origin_url(repo)
    legacy = [normalize_remote(url, repo.top) + suffix] if url else []
    commit = root_commit(repo)
    if commit is None:
        # No root commit to be had (no commit yet, a shallow clone, no git): the remote's
        # id as before, or the path. Never adopt the remote's memories under a path id: a
        # shallow clone would take them from every full clone of the same remote.
        if legacy:
            return Identity(legacy[0], (real,))
        return Identity(real)
    return Identity(f"git:{commit}{suffix}", tuple(dict.fromkeys([*legacy, real])))


def project_id(root: str) -> str:
    """The id under which memories of the project at ``root`` are stored
    (:func:`identify`): ``git:<root commit>[//sub/dir]``, else ``os.path.realpath(root)``."""
    return identify(root).id


def normalize_remote(url: str, worktree: str = "") -> str:
    """One spelling per repository: scheme, credentials, port and ``.git`` dropped, host lowercased.

    ``git@GitHub.com:owner/repo.git``, ``ssh://git@github.com:22/owner/repo``
    and ``https://user:token@github.com/owner/repo/`` all give
    ``github.com/owner/repo``. Local paths (``/srv/repo.git``, ``file://...``,
    ``../repo``; relative ones resolved against ``worktree``) give an absolute path.
    """
    url = url.strip()
    scheme, sep, rest = url.partition("://")
    if not sep:
        colon, slash = url.find(":"), url.find("/")
        # scp-like syntax is "[user@]host:path" with no slash before the colon.
        if colon > 0 and (slash == -1 or colon < slash) and not _is_drive(url):
            host, _, path = url.partition(":")
            return _join(host, path)
        return _local(url, worktree)
    if scheme.lower() == "file":
        return _local(rest, worktree)
    host, _, path = rest.partition("/")
    return _join(host, path)


def _join(authority: str, path: str) -> str:
    host = authority.rpartition("@")[2]  # drop "user:password@"
    if host.startswith("["):  # [IPv6]:port
        host = host.partition("]")[0] + "]"
    else:
        host = host.partition(":")[0]
    path = path.strip("/")
    if path.endswith(".git"):
        path = path[: -len(".git")].rstrip("/")
    return f"{host.lower()}/{path}" if path else host.lower()


def _local(path: str, worktree: str) -> str:
    path = os.path.normpath(os.path.join(worktree, os.path.expanduser(path)))
    if path.endswith(".git"):
        path = path[: -len(".git")].rstrip("/\\") or path
    return path


def _is_drive(url: str) -> bool:
    return len(url) > 2 and url[1] == ":" and url[0].isalpha() and url[2] in "/\\"
