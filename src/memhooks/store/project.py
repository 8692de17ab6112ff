"""Stable project ids, so that every clone of a repository shares one set of memories.

Read straight from ``.git`` (never by running ``git``: this runs on every prompt).
Not followed: ``include``/``includeIf`` files and ``url.<base>.insteadOf`` rewrites.
"""

from __future__ import annotations

import os


def project_id(root: str) -> str:
    """The id under which memories of the project at ``root`` are stored.

    If ``root`` is inside a git work tree whose ``origin`` remote has a URL, the id
    is that URL normalized (:func:`normalize_remote`, e.g. ``github.com/owner/repo``)
    followed by ``//sub/dir`` when ``root`` is below the top of the work tree.
    Otherwise it is ``os.path.realpath(root)``. Linked worktrees and submodules
    (``.git`` is a file) are followed. Never contains credentials; never raises
    for an unreadable or odd ``.git`` (falls back to the path).
    """
    real = os.path.realpath(root)
    top = real
    while True:
        marker = os.path.join(top, ".git")
        if os.path.lexists(marker):
            break
        parent = os.path.dirname(top)
        if parent == top:
            return real
        top = parent
    url = _origin_url(marker)
    if url is None:
        return real
    remote = normalize_remote(url, top)
    below = os.path.relpath(real, top)
    return remote if below == os.curdir else f"{remote}//{below.replace(os.sep, '/')}"


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


def _origin_url(marker: str) -> str | None:
    """The ``url`` of ``[remote "origin"]`` in the repository config behind ``marker``."""
    try:
        gitdir = marker
        if os.path.isfile(marker):
            # Linked worktree or submodule: ".git" is a file "gitdir: <path>".
            with open(marker, encoding="utf-8") as fp:
                line = fp.readline().strip()
            if not line.startswith("gitdir:"):
                return None
            gitdir = os.path.join(os.path.dirname(marker), line[len("gitdir:") :].strip())
        common = os.path.join(gitdir, "commondir")
        if os.path.isfile(common):
            # A worktree's own gitdir holds HEAD and index; config lives in the common dir.
            with open(common, encoding="utf-8") as fp:
                gitdir = os.path.join(gitdir, fp.read().strip())
        with open(os.path.join(gitdir, "config"), encoding="utf-8", errors="replace") as fp:
            return _find_origin(fp.read())
    except OSError:
        return None


def _find_origin(config: str) -> str | None:
    """The last ``url`` in the ``remote "origin"`` section (git's "last one wins")."""
    in_origin = False
    url = None
    for raw in config.splitlines():
        line = raw.strip()
        if line.startswith("["):
            header = line[1 : line.find("]")] if "]" in line else ""
            name, _, sub = header.partition(" ")
            sub = sub.strip()
            if sub:
                in_origin = name.lower() == "remote" and sub == '"origin"'
            else:  # deprecated "[remote.origin]" form
                in_origin = name.lower() == "remote.origin"
            continue
        if in_origin:
            key, eq, value = line.partition("=")
            if eq and key.strip().lower() == "url":
                url = _value(value)
    return url or None


def _value(raw: str) -> str:
    """A git config value: quotes removed, comment after ``#``/``;`` outside quotes cut."""
    out: list[str] = []
    quoted = False
    for ch in raw.strip():
        if ch == '"':
            quoted = not quoted
        elif ch in "#;" and not quoted:
            break
        else:
            out.append(ch)
    return "".join(out).strip()
