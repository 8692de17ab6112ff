"""The hook files memhooks made and keeps out of git, read as a listing takes them in.

git's listing leaves out what the clone's exclude file lists, and memhooks lists there,
in a block of its own, the hook files it creates until the project shares them
(:mod:`memhooks.maintain.local` writes the block and says why). The hook loads those
files, so ``validate``, ``prune``, ``migrate`` and ``memhooks hooks`` list them too:
:func:`with_local`, and :func:`memhooks.listing.cache.find_hooks` with ``local``, which
records them in the cached listing with what they depend on (:func:`kept`), so a warm
``validate --all`` reads none of it. Here, not in :mod:`memhooks.maintain.local`: the
listing reads them, and the hook path imports that writer. A hook file the user's own
``.gitignore`` leaves out is not in the block and stays out.
"""

from __future__ import annotations

import os

from . import excludes
from .git import find_repository
from .paths import is_within
from .protocol import HOOK_NAME

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .git import Repository

HEADER = "# memhooks: hook files it made, kept out of git until shared (memhooks hooks share)"


def block(repository: Repository) -> list[str]:
    """The lines of memhooks' block in ``repository``'s exclude file ([] when it cannot
    be read; bytes that are not UTF-8 never hide it: :func:`memhooks.excludes.read_lines`)."""
    try:
        return excludes.read_block(excludes.read_lines(excludes.path_of(repository)), HEADER)
    except OSError:
        return []


def named(repository: Repository, line: str) -> str | None:
    """The hook file a line of the block names (as :func:`excludes.pattern` wrote it),
    absolute; None for any other line."""
    rel = excludes.unpattern(line)
    if rel is None or not (rel == HOOK_NAME or rel.endswith("/" + HOOK_NAME)):
        return None
    return os.path.join(os.path.realpath(repository.top), *rel.split("/"))


def kept(root: str, directory: str) -> tuple[list[str], list[str]]:
    """(the existing hook files below ``directory`` that the block of ``root``'s
    repository lists, sorted; what they depend on: that repository's exclude file and
    each folder below ``directory`` on the way to every hook file the block names there,
    there or not — [] outside git). A hook file reached through a symlinked folder is not
    one of them: the project's canonical paths never lead there (a folder moved out and
    linked back is another place, whose hook file the hook never loads)."""
    repository = find_repository(os.path.realpath(root))
    if repository is None:
        return [], []
    found, watched = [], [excludes.path_of(repository)]
    real = os.path.realpath(root)
    for line in block(repository):
        path = named(repository, line)
        if path is None or not (is_within(path, real) and is_within(path, directory)):
            continue
        folder = os.path.dirname(path)
        if os.path.realpath(folder) == folder and os.path.isfile(path):
            found.append(path)
        while folder != directory and is_within(folder, directory):
            watched.append(folder)  # each folder on the way: one may be moved and linked
            folder = os.path.dirname(folder)
    return sorted(found), watched


def local_hooks(root: str) -> list[str]:
    """Absolute paths of the hook files below ``root`` memhooks keeps local (in the
    block), existing ones only, sorted."""
    return kept(root, os.path.realpath(root))[0]


def with_local(root: str, directory: str, hooks: list[str]) -> list[str]:
    """``hooks`` (a git listing of ``directory``, which leaves out what is excluded) with
    the local hook files below ``directory`` added, sorted."""
    below = kept(root, directory)[0]
    return sorted(set(hooks) | set(below)) if below else hooks
