"""What a project id needs from git besides where the work tree is
(:func:`memhooks.git.find_repository`): the ``origin`` URL and the root commit — read
straight from ``.git`` on every call.

The root commit is the one fact that survives adding, changing or removing a remote, a
re-clone, a move of the checkout and a worktree. Finding it means walking the history,
so it is found once per repository by ``git rev-list`` (git reads its own formats:
packs, reftable, alternates, SHA-256) and kept in ``<git common dir>/memhooks/root-commit``
— inside the repository, so a move carries it, every worktree shares it and a repository
deleted and cloned anew at the same path cannot inherit it. Afterwards the prompt hook
reads one small file, no process. Not followed in the config: ``include``/``includeIf``
files and ``url.<base>.insteadOf`` rewrites.
"""

from __future__ import annotations

import os
import time

from .. import cachefile
from ..git import Repository, run

#: Seconds ``git rev-list`` may take to find the root commit (once per repository).
ROOT_TIMEOUT_S = 2.0
CACHE = os.path.join("memhooks", "root-commit")


def origin_url(repo: Repository) -> str | None:
    """The ``url`` of ``[remote "origin"]`` in the repository config, or None."""
    try:
        with open(os.path.join(repo.common, "config"), encoding="utf-8", errors="replace") as fp:
            return find_origin(fp.read())
    except OSError:
        return None


def root_commit(repo: Repository, timeout: float = ROOT_TIMEOUT_S) -> str | None:
    """The root commit of HEAD's first-parent chain (hex), or None when there is none to
    be had: no commit yet, a shallow clone (its oldest commit is not the root), no ``git``,
    or ``git`` failing or taking more than ``timeout`` seconds. First parents, so that
    merging an unrelated history (a second root) does not change it."""
    cache = os.path.join(repo.common, CACHE)
    head = None
    try:
        cached = cachefile.read(cache).decode("utf-8").strip()
        if _is_sha(cached):
            return cached
        # a failed lookup is not retried while HEAD is the same, for an hour: a hook
        # process per prompt would run git (or fail to find it) every time
        word, _, rest = cached.partition(" ")
        at, _, said = rest.partition(" ")
        head = _head_text(repo)
        if word == "unknown" and said == head and time.time() - float(at) < RETRY_S:
            return None
    except (OSError, UnicodeDecodeError, ValueError):
        pass
    if os.path.exists(os.path.join(repo.common, "shallow")) or not _head_is_born(repo):
        return None
    found = _rev_list(repo, timeout)
    if found is None and head is None:
        head = _head_text(repo)
    _save(cache, found if found is not None else f"unknown {time.time():.0f} {head}")
    return found


#: Seconds a failed root-commit lookup is remembered (while HEAD stays the same).
RETRY_S = 3600.0


def _head_text(repo: Repository) -> str:
    """HEAD's content on one line ("" when unreadable): a commit or branch moved on."""
    try:
        with open(os.path.join(repo.gitdir, "HEAD"), encoding="utf-8", errors="replace") as fp:
            return " ".join(fp.read().split())
    except OSError:
        return ""


def _rev_list(repo: Repository, timeout: float) -> str | None:
    import subprocess

    try:
        done = run(repo.top, "--no-replace-objects", f"--git-dir={repo.gitdir}", "rev-list",
                   "--first-parent", "--max-parents=0", "HEAD", timeout=timeout)  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    lines = done.stdout.split()
    return lines[-1] if done.returncode == 0 and lines and _is_sha(lines[-1]) else None


def _is_sha(text: str) -> bool:
    """A full object name: 40 (SHA-1) or 64 (SHA-256) lowercase hex digits."""
    return len(text) in (40, 64) and not text.strip("0123456789abcdef")


def _head_is_born(repo: Repository) -> bool:
    """False when HEAD names a branch that has no commit yet (``git init``, no commit):
    then there is no root to look for, and no process is started on every prompt."""
    try:
        with open(os.path.join(repo.gitdir, "HEAD"), encoding="utf-8") as fp:
            head = fp.read().strip()
    except (OSError, UnicodeDecodeError):
        return False
    if not head.startswith("ref:"):
        return bool(_is_sha(head))  # detached
    ref = head[len("ref:") :].strip()
    if ref.endswith(".invalid") or os.path.isdir(os.path.join(repo.common, "reftable")):
        return True  # reftable: refs are not files; let git tell
    if any(os.path.isfile(os.path.join(d, ref)) for d in (repo.gitdir, repo.common)):
        return True
    try:
        with open(os.path.join(repo.common, "packed-refs"), encoding="utf-8") as fp:
            return any(line.rstrip("\n").endswith(" " + ref) for line in fp)
    except (OSError, UnicodeDecodeError):
        return False


def _save(path: str, text: str) -> None:
    """Keep the root commit (or that none could be had) for the next call; a read-only
    repository just goes without."""
    from .. import cachefile

    cachefile.write(path, text + "\n")


def find_origin(config: str) -> str | None:
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
