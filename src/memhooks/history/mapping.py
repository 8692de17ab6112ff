"""One commit -> one memory: its id, text, files, scope, time, kind, tags and provenance.

**The id names the change, not the commit object**: ``git-`` and 16 hex digits of the
SHA-256 of the author's e-mail, the author time (seconds) and the subject. A rebase,
a cherry-pick or an amend that keeps the subject keeps all three (git carries the
author over and gives a new committer and hash), so history rewritten that way maps to
the memories already imported instead of doubling them. A commit hash could not do
that; a patch id (``git patch-id``) would need every commit's full diff, far slower than
the listing of paths this import reads, and changes when a rebase resolves a conflict.
Not recognised as the same change: a reworded subject, ``rebase --ignore-date`` or
``--reset-author``; those import once more, as new memories. Two commits with the same
author, second and subject — a change cherry-picked to another branch — are one memory.
A change reverted and then landed again (a *re-land*: same author, time and subject) is
another memory: its id hashes the number of earlier landings too, so the re-land is live
while the reverted landing stays obsolete. The id holds nothing readable of the author.

The commit hash is the provenance: ``source`` is ``git:<hash>``
(:data:`memhooks.store.commits.SOURCE_PREFIX`, of the first commit of the range that
carries the change); the store keeps every commit of the change beside the memory
(:mod:`memhooks.store.commits`). ``files`` are the paths the commit touched, each followed
by the path its file has now when it moved since (:mod:`.lineage`); ``scope`` is the
common folder of where those files are now.
"""

from __future__ import annotations

import functools
import hashlib
import sys

from ..store import Memory, normalize_file
from ..store.commits import SOURCE_PREFIX
from ..store.memory import format_timestamp
from .conventions import classify
from .message import memory_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .gitlog import Commit, Header

#: Most paths kept per memory (in git's order); the text then says how many there were.
MAX_FILES = 100
ID_PREFIX = "git-"
#: The version of this mapping, kept with each commit in the store: a re-import rewrites
#: the memories an older one wrote (0: before the store kept commits, schema version 6;
#: 2: trailers spelled with blanks, ``Co-Authored By:``, dropped too; 3: the low-signal
#: rule counts progress notes, ``basics working``, as trivial; 4: a version-control
#: tool's bookkeeping message, ``(Logical change 1.3)``, says nothing, and re-indenting
#: is formatting).
FORMAT = 4


def change_id(header: Header, landing: int = 0) -> str:
    """The memory id of a commit's change (see the module docstring); ``landing``: how
    many times the change landed and was reverted before this commit."""
    key = f"{header.author_email}\0{header.author_time}\0{header.subject}"
    if landing:
        key += f"\0{landing}"
    return ID_PREFIX + hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()[:16]


class Paths:
    """Where a commit's memory is, from ``(touched path, path now or None)`` pairs
    (:meth:`memhooks.history.lineage.Lineage.files`): ``files`` (each touched path, then
    where its file is now when it moved since; at most :data:`MAX_FILES`), ``scope`` (the
    common folder of where the files are now, or were when gone) and ``changed`` (how many
    paths the commit touched)."""

    __slots__ = ("changed", "files", "scope")

    def __init__(self, pairs: list[tuple[str, str | None]]) -> None:
        files: list[str] = []
        places: list[str] = []
        changed = 0
        for touched, now in pairs:
            path = _valid_path(touched)
            if path is None:
                continue
            changed += 1
            here = path if now is None else _valid_path(now) or path
            files += [path] if here == path else [path, here]
            places.append(here)
        self.changed = changed
        # A tuple, and one string per folder: an import holds every commit's paths until
        # its messages are read (50,000 commits: 4 MB less).
        self.files = tuple(dict.fromkeys(files))[:MAX_FILES]
        self.scope = sys.intern(common_folder(list(dict.fromkeys(places))))


def to_memory(commit: Commit, project: str, memory_id: str, paths: Paths) -> Memory | None:
    """The memory ``memory_id`` for ``commit`` in ``project`` at ``paths``, or None when
    its message is empty once trailers are dropped."""
    text = memory_text(commit.message)
    if not text:
        return None
    if paths.changed > MAX_FILES:
        text += f"\n\n[{paths.changed} files changed; the first {MAX_FILES} are listed]"
    kind, tags = classify(commit.subject, commit.message)
    return Memory(
        id=memory_id,
        project=project,
        scope=paths.scope,
        files=list(paths.files),
        text=text,
        kind=kind,
        tags=tags,
        entities=[],
        created_at=format_timestamp(commit.commit_time),
        source=SOURCE_PREFIX + commit.hash,
    )


def common_folder(files: list[str]) -> str:
    """The deepest folder holding every one of ``files`` (root-relative, ``""`` for the
    root or no files)."""
    if not files:
        return ""
    common = files[0].split("/")[:-1]
    for path in files[1:]:
        if not common:
            break
        parts = path.split("/")[:-1]
        size = 0
        for mine, theirs in zip(common, parts):
            if mine != theirs:
                break
            size += 1
        del common[size:]
    return "/".join(common)


@functools.lru_cache(maxsize=1 << 16)
def _valid_path(path: str) -> str | None:
    """``path`` in canonical form, or None when the store cannot hold it (control
    characters in a file name). Memoized: a history names the same few thousand paths
    tens of thousands of times (iproute2: 28,000 names of 1,000 paths; 0.4 s of an
    import without it)."""
    try:
        return normalize_file(path)
    except ValueError:
        return None


#: The paths of a commit whose files are unknown (at a shallow clone's edge).
NO_PATHS = Paths([])
