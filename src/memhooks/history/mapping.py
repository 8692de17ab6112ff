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
The id holds nothing readable of the author.

The commit hash is the provenance: ``source`` is ``git:<hash>`` (of the commit imported).
"""

from __future__ import annotations

import hashlib

from ..store import Memory, normalize_file
from ..store.memory import format_timestamp
from .conventions import classify
from .message import memory_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .gitlog import Commit, Header

#: Most paths kept per memory (in git's order); the text then says how many there were.
MAX_FILES = 100
ID_PREFIX = "git-"
SOURCE_PREFIX = "git:"


def change_id(header: Header) -> str:
    """The memory id of a commit's change (see the module docstring)."""
    key = f"{header.author_email}\0{header.author_time}\0{header.subject}"
    return ID_PREFIX + hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()[:16]


def to_memory(commit: Commit, project: str, *, boundary: bool = False) -> Memory | None:
    """The memory for ``commit`` in ``project``, or None when its message is empty once
    trailers are dropped. ``boundary``: the commit is at a shallow clone's edge, where git
    shows the whole tree as added, so its files are unknown and left out."""
    text = memory_text(commit.message)
    if not text:
        return None
    files = [] if boundary else _valid(commit.files)
    if len(files) > MAX_FILES:
        text += f"\n\n[{len(files)} files changed; the first {MAX_FILES} are listed]"
    kind, tags = classify(commit.subject, commit.message)
    return Memory(
        id=change_id(commit),
        project=project,
        scope=common_folder(files),
        files=files[:MAX_FILES],
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


def _valid(paths: list[str]) -> list[str]:
    """``paths`` in canonical form, those the store cannot hold (control characters in a
    file name) left out, duplicates dropped."""
    out: list[str] = []
    seen: set[str] = set()
    for path in paths:
        try:
            path = normalize_file(path)
        except ValueError:
            continue
        if path not in seen:
            seen.add(path)
            out.append(path)
    return out
