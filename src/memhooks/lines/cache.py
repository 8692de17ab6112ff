"""What blame said about one file version, kept in the state directory between calls.

One JSON file per (work tree, path): ``<state dir>/blame/<key>.json``. It holds the
commit HEAD named and the file's stat when it was saved, the file's lines, and for each
line what is known of its owner: not blamed yet, uncommitted, or (origin, line there).
Blaming a range fills in those lines; a later blame of other lines adds to them.

What invalidates what (:func:`memhooks.lines.owners.owners` applies it):

* the same HEAD and the same stat: the entry answers as it is (no process, no read of
  the file but this one);
* the file changed (an edit): its new lines are compared with the saved ones; lines
  kept keep their owners, changed and new lines are uncommitted — exactly what blame
  of the working tree would say, without running it;
* HEAD moved (a commit, a checkout): when git says the path did not change between the
  two commits the entry is kept under the new HEAD, else it is dropped.

A cache file is rebuilt from git at any time: an unreadable or foreign one is a miss.
"""

from __future__ import annotations

import os
import time

from .. import cachefile, filestate

FORMAT = 3  # 3: the stat key is memhooks.filestate.key

#: What is known of a line's owner: None (not blamed yet), UNCOMMITTED, or
#: ``[origin index, line number in that origin]``.
UNCOMMITTED = -1
Known = "list[int] | int | None"


class Entry:
    """One file version's blame: ``head`` (commit hash or ``""``), ``stat`` (the file's
    stat key when saved), ``saved_ns``, ``text`` (its lines, without newlines),
    ``lines`` (per line, see :data:`Known`), ``origins`` (``[hash, path, previous hash
    or None, previous path or None]``), ``commits`` (hash -> ``[summary, author time,
    boundary]``) and ``before`` (previous owners already found: ``"<origin> <first>-
    <last>"`` -> ``[[hash, lines], ...]``) and ``notes`` (what callers keep with this
    file version: :attr:`memhooks.lines.Ownership.notes`)."""

    __slots__ = (
        "before", "commits", "head", "lines", "notes", "origins", "saved_ns", "stat", "text",
    )  # fmt: skip

    def __init__(self, head: str, stat: list[int], text: list[str]) -> None:
        self.head = head
        self.stat = stat
        self.saved_ns = 0
        self.text = text
        self.lines: list[list[int] | int | None] = [None] * len(text)
        self.origins: list[list[str | None]] = []
        self.commits: dict[str, list[str | int | bool]] = {}
        self.before: dict[str, list[list[str | int]]] = {}
        self.notes: dict[str, object] = {}


def path_of(state_dir: str, top: str, path: str) -> str:
    """The cache file of ``path`` in the work tree ``top``."""
    return os.path.join(state_dir, "blame", cachefile.key_name(f"{top}\0{path}") + ".json")


def load(file: str) -> Entry | None:
    """The entry saved in ``file``, or None (none, unreadable, another format)."""
    from ..jsonfast import loads

    try:
        with open(file, "rb") as fp:
            data = loads(fp.read())
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return None
        entry = Entry(data["head"], data["stat"], data["text"])
        entry.saved_ns = data["saved_ns"]
        entry.lines = data["lines"]
        entry.origins = data["origins"]
        entry.commits = data["commits"]
        entry.before = data["before"]
        entry.notes = data["notes"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if len(entry.lines) != len(entry.text):
        return None
    return entry


def save(file: str, entry: Entry) -> bool:
    """Write ``entry`` to ``file`` whole or not at all; False when it could not be."""
    import json

    entry.saved_ns = time.time_ns()
    data = {
        "format": FORMAT,
        "head": entry.head,
        "stat": entry.stat,
        "saved_ns": entry.saved_ns,
        "text": entry.text,
        "lines": entry.lines,
        "origins": entry.origins,
        "commits": entry.commits,
        "before": entry.before,
        "notes": entry.notes,
    }
    return cachefile.write(file, json.dumps(data, separators=(",", ":")), mode=0o700)


def stat_key(st: os.stat_result) -> list[int]:
    """What says a file may have changed (:func:`memhooks.filestate.key`), as JSON keeps it."""
    return list(filestate.key(st))


def unchanged(entry: Entry, st: os.stat_result) -> bool:
    """Whether the file is surely as ``entry`` saw it, from its stat alone."""
    return entry.stat == stat_key(st) and st.st_mtime_ns < entry.saved_ns - filestate.RACY_NS


def follow_edit(entry: Entry, text: list[str]) -> bool:
    """Carry ``entry`` over to the file's new lines ``text``: kept lines keep what is
    known of them, others are uncommitted. Returns whether anything changed."""
    if text == entry.text:
        return False
    from difflib import SequenceMatcher

    lines: list[list[int] | int | None] = [UNCOMMITTED] * len(text)
    matcher = SequenceMatcher(None, entry.text, text, autojunk=False)
    for old, new, size in matcher.get_matching_blocks():
        lines[new : new + size] = entry.lines[old : old + size]
    entry.text, entry.lines = text, lines
    return True
