"""The hook files memhooks made and keeps out of git, read as a listing takes them in.

git's listing leaves out what the clone's exclude file lists, and memhooks lists there,
in a block of its own, the hook files it creates until the project shares them
(:mod:`memhooks.maintain.local` writes the block and says why). The hook loads those
files, so ``validate``, ``prune``, ``migrate`` and ``memhooks hooks`` list them too:
:func:`with_local`, and :func:`memhooks.listing.cache.find_hooks` with ``local``, which
records them in the cached listing (with the exclude file they were read from), so a
warm ``validate --all`` reads neither. Here, not in :mod:`memhooks.maintain.local`,
because the listing reads them and the hook path imports that writer. A hook the user's own ``.gitignore`` leaves out is
not in the block and stays out.
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
    be read)."""
    try:
        with open(excludes.path_of(repository), encoding="utf-8") as fp:
            return excludes.read_block(fp.read().splitlines(), HEADER)
    except (OSError, UnicodeDecodeError):
        return []


def named(repository: Repository, line: str) -> str | None:
    """The hook file a line of the block names (as :func:`excludes.pattern` wrote it),
    absolute; None for any other line."""
    rel = excludes.unpattern(line)
    if rel is None or not (rel == HOOK_NAME or rel.endswith("/" + HOOK_NAME)):
        return None
    return os.path.join(os.path.realpath(repository.top), *rel.split("/"))


def kept(root: str, directory: str) -> tuple[list[str], str | None]:
    """(the existing hook files below ``directory`` that the block of ``root``'s
    repository lists, sorted; that repository's exclude file, or None outside git)."""
    repository = find_repository(os.path.realpath(root))
    if repository is None:
        return [], None
    found = []
    real = os.path.realpath(root)
    for line in block(repository):
        path = named(repository, line)
        if (
            path is not None
            and is_within(path, real)
            and is_within(path, directory)
            and os.path.isfile(path)
        ):
            found.append(path)
    return sorted(found), excludes.path_of(repository)


def local_hooks(root: str) -> list[str]:
    """Absolute paths of the hook files below ``root`` memhooks keeps local (in the
    block), existing ones only, sorted."""
    return kept(root, os.path.realpath(root))[0]


def with_local(root: str, directory: str, hooks: list[str]) -> list[str]:
    """``hooks`` (a git listing of ``directory``, which leaves out what is excluded) with
    the local hook files below ``directory`` added, sorted."""
    below = kept(root, directory)[0]
    return sorted(set(hooks) | set(below)) if below else hooks
