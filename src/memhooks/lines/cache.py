"""What blame said about one file version, kept in the state directory between calls.

One JSON file per (work tree, path): ``<state dir>/blame/<key>.json``. It holds the
commit HEAD named and the file's stat when it was saved, the file's lines, and for each
line what is known of its owner: not blamed yet, uncommitted, or (origin, line there).
Blaming a range fills in those lines; a later blame of other lines adds to them.

What invalidates what (:func:`memhooks.lines.ownership.owners` applies it):

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

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

FORMAT = 4  # 3: the stat key is memhooks.filestate.key; 4: owners as ints, text aside

#: What is known of a line's owner: None (not blamed yet), UNCOMMITTED, or
#: ``origin index << SHIFT | line number in that origin`` (one int: a file's owners
#: load as one flat JSON array, not a list per line — 10,000 lines in about a
#: millisecond).
UNCOMMITTED = -1
SHIFT = 24
Known = "int | None"


def known(origin: int, line: int) -> int:
    """What is known of a line owned by ``origin`` at ``line`` there."""
    return origin << SHIFT | line


def origin_of(value: int) -> tuple[int, int]:
    """``(origin index, line number there)`` of a known line's value."""
    return value >> SHIFT, value & ((1 << SHIFT) - 1)


class Entry:
    """One file version's blame: ``head`` (commit hash or ``""``), ``stat`` (the file's
    stat key when saved), ``saved_ns``, ``text`` (its lines, without newlines; kept in a
    file of its own beside the entry and read only when needed: to follow an edit),
    ``lines`` (per line, see :data:`Known`), ``origins`` (``[hash, path, previous hash
    or None, previous path or None]``), ``commits`` (hash -> ``[summary, author time,
    boundary]``) and ``before`` (previous owners already found: ``"<hash> <path> <first>-
    <last>"`` -> rows of :func:`memhooks.lines.ownership.previous_owners`) and ``notes`` (what callers keep with this
    file version: :attr:`memhooks.lines.Ownership.notes`)."""

    __slots__ = (
        "_text", "_text_file", "before", "commits", "head", "lines", "notes", "origins",
        "saved_ns", "stat", "text_changed",
    )  # fmt: skip

    def __init__(self, head: str, stat: list[int], text: list[str] | None) -> None:
        self.head = head
        self.stat = stat
        self.saved_ns = 0
        self._text = text
        self._text_file = ""
        self.text_changed = text is not None
        self.lines: list[int | None] = [None] * len(text or ())
        self.origins: list[list[str | None]] = []
        self.commits: dict[str, list[str | int | bool]] = {}
        self.before: dict[str, list[list[Any]]] = {}
        self.notes: dict[str, object] = {}

    @property
    def text(self) -> list[str]:
        if self._text is None:
            try:
                with open(self._text_file, encoding="utf-8") as fp:
                    self._text = fp.read().split("\n")[:-1]
            except OSError:
                self._text = []
        return self._text

    @text.setter
    def text(self, value: list[str]) -> None:
        self._text = value
        self.text_changed = True


def path_of(state_dir: str, top: str, path: str) -> str:
    """The cache file of ``path`` in the work tree ``top``."""
    return os.path.join(state_dir, "blame", cachefile.key_name(f"{top}\0{path}") + ".json")


def load(file: str) -> Entry | None:
    """The entry saved in ``file``, or None (none, unreadable, another format)."""
    from ..fast.jsonfast import loads

    try:
        with open(file, "rb") as fp:
            data = loads(fp.read())
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return None
        entry = Entry(data["head"], data["stat"], None)
        entry._text_file = file[: -len(".json")] + ".text"
        entry.saved_ns = data["saved_ns"]
        entry.lines = data["lines"]
        entry.origins = data["origins"]
        entry.commits = data["commits"]
        entry.before = data["before"]
        entry.notes = data["notes"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return entry


def save(file: str, entry: Entry) -> bool:
    """Write ``entry`` to ``file`` whole or not at all; False when it could not be."""
    from ..fast.jsonfast import dumps  # json.dumps, without loading json (and re) in the hook

    entry.saved_ns = time.time_ns()
    if entry.text_changed:  # the text first: an entry never names a text not written
        text = "".join(f"{line}\n" for line in entry.text)
        if not cachefile.write(file[: -len(".json")] + ".text", text, mode=0o700):
            return False
        entry.text_changed = False
    data = {
        "format": FORMAT,
        "head": entry.head,
        "stat": entry.stat,
        "saved_ns": entry.saved_ns,
        "lines": entry.lines,
        "origins": entry.origins,
        "commits": entry.commits,
        "before": entry.before,
        "notes": entry.notes,
    }
    return cachefile.write(file, dumps(data, separators=(",", ":")), mode=0o700)


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

    lines: list[int | None] = [UNCOMMITTED] * len(text)
    matcher = SequenceMatcher(None, entry.text, text, autojunk=False)
    for old, new, size in matcher.get_matching_blocks():
        lines[new : new + size] = entry.lines[old : old + size]
    entry.text, entry.lines = text, lines
    return True
