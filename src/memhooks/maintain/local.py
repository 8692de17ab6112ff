"""Hook files memhooks makes on its own stay out of git until the project shares them.

An agent's edit in a folder without a hook makes hook maintenance create ``MEMHOOKS.md``
there (``MEMHOOKS_ANCHOR=directory``). Left alone, each one is a new untracked file in
``git status`` — six edits, six files, none of them the agent's own change (issue 22
item 1). So before memhooks creates a hook file it lists it in a block of the clone's own
exclude file (:mod:`memhooks.excludes`, written by :func:`update`; never committed, nothing in the work tree)::

    # memhooks: hook files it made, kept out of git until shared (memhooks hooks share)
    .MEMHOOKS.md.*.tmp
    /src/requests/MEMHOOKS.md

with the pattern of the hook writer's temporary files (:mod:`memhooks.atomicfile`): one a
killed writer leaves is removed by the next writer in that folder, and hidden until then.
``memhooks hooks`` lists every hook file and whether it is shared (tracked by git), kept
local (this block) or neither; ``memhooks hooks share`` takes files out of the block, so
they show in ``git status`` for review and commit. Hand-written and committed hooks are
never listed here: they are maintained in place, where they are — unless
``MEMHOOKS_MAINTAIN=local`` (:func:`ours`: only hook files memhooks made and keeps local)
or ``off``. Outside a git work tree there is nothing to keep out of.
"""

from __future__ import annotations

import os
import time

from .. import excludes, git
from ..git import find_repository
from ..local_hooks import HEADER, block, named
from ..protocol import HOOK_NAME

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from ..git import Repository

#: Seconds git may take to say which hook files it has (:func:`deleted`), and seconds
#: its answer stands in this process.
GIT_S = 2.0
ASKED_S = 5.0
_ASKED: dict[tuple[str, tuple[str, ...]], tuple[float, list[str]]] = {}
#: A hook writer's temporary file (``.MEMHOOKS.md.<16 hex>.tmp``), in any folder.
TEMPORARY = f".{HOOK_NAME}.*.tmp"


def keep_local(root: str, created: Iterable[str] = ()) -> bool:
    """Before memhooks writes hook files in the project at ``root``: list the ones it is
    about to create (``created``: absolute paths) and the writer's temporary files in
    the exclude block, when they are not there yet. Returns whether the exclude file
    changed; False outside git. Raises DiagnosticError MH031 when it cannot be written."""
    repository = find_repository(os.path.realpath(root))
    if repository is None:
        return False
    wanted = [TEMPORARY, *(_pattern(repository, path) for path in created)]
    wanted = [w for w in dict.fromkeys(wanted) if w]
    if set(wanted) <= set(block(repository)):
        return False  # the common case, read without the lock
    return update(repository, HEADER, lambda ours: ours + [w for w in wanted if w not in ours])


def share(root: str, paths: Iterable[str]) -> list[str]:
    """Take the hook files ``paths`` (absolute) out of the block, so git shows them;
    return those that were in it. Lines of hook files that no longer exist go too."""
    repository = find_repository(os.path.realpath(root))
    if repository is None:
        return []
    lines = {_pattern(repository, path): path for path in paths}
    shared: list[str] = []

    def change(ours: list[str]) -> list[str]:
        kept = []
        for line in ours:
            if line in lines:
                shared.append(lines[line])
            elif line == TEMPORARY or _exists(repository, line):
                kept.append(line)
        return kept

    update(repository, HEADER, change)
    return shared


def ours(root: str, hooks: Iterable[str]) -> list[str]:
    """Those of ``hooks`` (absolute paths) that memhooks may edit under
    ``MEMHOOKS_MAINTAIN=local``: a hook file not made yet (it will be kept local), or one
    listed in the block. A hook file that was there otherwise (written by hand, shared,
    committed) is not. Outside a git work tree nothing is shared: all of them."""
    hooks = list(hooks)
    repository = find_repository(os.path.realpath(root))
    if repository is None:
        return hooks
    listed = set(block(repository))
    return [h for h in hooks if not os.path.lexists(h) or _pattern(repository, h) in listed]


def deleted(root: str, hooks: Iterable[str]) -> list[str]:
    """Those of ``hooks`` (absolute paths of hook files missing from the work tree that
    memhooks would create) that git has, in the index or at HEAD: someone deleted them
    (an agent's ``rm``, a ``git rm``). memhooks does not make them again — a new file in
    a committed one's place shows in ``git status`` as a change to it, not the deletion
    that was made (newcomer17). None outside a git work tree, or when git cannot say.
    Asked of git once for :data:`ASKED_S`: a hook call asks in its dry run, then again as
    it applies the update (~3-4 ms each on iproute2, newcomer19)."""
    hooks = list(hooks)
    key, now = (root, tuple(hooks)), time.monotonic()
    asked = _ASKED.get(key)
    if asked is None or now - asked[0] > ASKED_S:
        asked = _ASKED[key] = (now, _deleted(root, hooks))
    return asked[1]


def _deleted(root: str, hooks: list[str]) -> list[str]:
    repository = find_repository(os.path.realpath(root)) if hooks else None
    if repository is None:
        return []
    rels = {_rel(repository, hook): hook for hook in hooks}
    rels.pop("", None)
    for tree in ("--with-tree=HEAD", None):  # no commit yet: the index alone
        args = ["--literal-pathspecs", "ls-files", "-z", *([tree] if tree else []), "--", *rels]
        try:  # git.spawn, not subprocess: its import cost a hook call ~5-14 ms (newcomer19)
            child = git.spawn(repository.top, *args)
        except OSError:
            return []
        child.deadline = min(child.deadline, time.monotonic() + GIT_S)
        try:
            found = child.fields((0,))
        except OSError:  # past the deadline
            return []
        finally:
            child.end()
        if found is not None:
            return [hook for rel, hook in rels.items() if rel in found]
    return []


def update(repository: Repository, header: str, change: Callable[[list[str]], list[str]]) -> bool:
    """Replace the block of ``header`` in ``repository``'s exclude file with
    ``change(its lines)``, under the lock of the ``info`` folder (agent hooks may add
    lines at once), written atomically. Returns whether the file changed. Raises
    DiagnosticError MH031 (MH029) as the hook writer does when the folder cannot be
    locked or the file written."""
    # the writer's modules only to write: validate --all and the hook read this file
    from .atomic import write_atomic
    from .lock import LOCK_TIMEOUT_S, hook_lock

    path = excludes.path_of(repository)
    folder = os.path.dirname(path)
    if not os.path.isdir(folder):
        os.makedirs(folder, exist_ok=True)  # git makes it; a bare `git init --template=` not
    with hook_lock(path, timeout=LOCK_TIMEOUT_S):
        lines = excludes.read_lines(path)  # a user's bytes that are not UTF-8 kept
        ours = excludes.read_block(lines, header)
        wanted = change(list(ours))
        if wanted == ours:
            return False
        write_atomic(path, excludes.encoded(excludes.with_block(lines, header, wanted)))
        return True


def _pattern(repository: Repository, path: str) -> str:
    """The block's line for the file ``path``; "" when it is not in the work tree."""
    rel = _rel(repository, path)
    return excludes.pattern(rel) if rel else ""


def _rel(repository: Repository, path: str) -> str:
    """``path`` relative to the top of the work tree, ``/``-separated; "" when it is not
    in the work tree."""
    real = os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path))
    rel = os.path.relpath(real, os.path.realpath(repository.top))
    if rel == os.curdir or rel.startswith(os.pardir):
        return ""
    return rel.replace(os.sep, "/")


def _exists(repository: Repository, line: str) -> bool:
    path = named(repository, line)
    return path is not None and os.path.isfile(path)
