"""File paths from patch text: the Codex/OpenCode envelope and unified (git) diffs.

Codex ``apply_patch`` and OpenCode ``apply_patch`` name their files only inside
the patch (agent-hooks.md sections 2 and 8), so this is the one place where
text is parsed for paths, and it is parsed structurally, line by line:

* envelope: ``*** Add File: p`` and ``*** Update File: p`` give ``written``,
  ``*** Delete File: p`` gives ``deleted``, and ``*** Move to: q`` after an
  Update turns it into ``renamed`` q (old path p);
* unified diff: a ``--- x`` line directly followed by ``+++ y``; ``/dev/null``
  marks an added or deleted file; git's ``a/``/``b/`` prefixes are dropped; git
  ``rename from``/``rename to`` and ``copy to`` headers are honoured; hunk line
  counts are followed so removed lines that start with ``--`` are not headers.

Never raises; CRLF, a missing ``*** Begin Patch`` and junk lines are tolerated.
"""

from __future__ import annotations

from .base import DELETED, RENAMED, WRITTEN, FileChange
from .fields import MAX_ITEMS
from .paths import clean_path

_ENVELOPE = (
    ("*** Add File:", WRITTEN),
    ("*** Update File:", WRITTEN),
    ("*** Delete File:", DELETED),
)
DEV_NULL = "/dev/null"


def looks_like_patch(text: object) -> bool:
    """True when ``text`` may hold an envelope file header or a unified diff's ``+++`` line."""
    if not isinstance(text, str):
        return False
    return ("*** " in text and " File:" in text) or "\n+++ " in text


def parse_patch(text: object, cwd: str | None = None) -> list[FileChange]:
    """The files a patch touches, in order, without duplicates (at most 1024).

    ``text`` is the patch (anything else gives ``[]``); ``cwd``, when given,
    is joined to relative paths (see :func:`memhooks.agents.paths.clean_path`).
    """
    if not isinstance(text, str):
        return []
    parser = _Parser(cwd)
    for line in text.splitlines():
        parser.feed(line)
        if len(parser.changes) >= MAX_ITEMS:
            break
    parser.flush_section()
    return parser.changes[:MAX_ITEMS]


class _Section:
    """One ``diff --git`` block: the headers seen so far."""

    __slots__ = ("copy_to", "deleted", "header", "new", "old", "rename_from", "rename_to")

    def __init__(self, header: str | None) -> None:
        self.header = header
        self.old: str | None = None
        self.new: str | None = None
        self.rename_from: str | None = None
        self.rename_to: str | None = None
        self.copy_to: str | None = None
        self.deleted = False


class _Parser:
    def __init__(self, cwd: str | None) -> None:
        self.cwd = cwd
        self.changes: list[FileChange] = []
        self.envelope = False
        self.last_update: int | None = None  # index of the Update a Move applies to
        self.pending_old: str | None = None  # a "--- x" line waiting for "+++ y"
        self.section: _Section | None = None
        self.hunk_old = 0
        self.hunk_new = 0

    def add(self, path: str, action: str, old: str | None = None) -> int | None:
        clean = clean_path(path, self.cwd)
        old_clean = clean_path(old, self.cwd) if old is not None else None
        if clean is None or (old is not None and old_clean is None):
            return None
        change = FileChange(clean, action, old_clean)
        if change not in self.changes:
            self.changes.append(change)
        return self.changes.index(change)

    def feed(self, line: str) -> None:
        if self.in_hunk(line):
            return
        stripped = line.rstrip()
        if stripped.startswith("***"):
            self.envelope_line(stripped)
        elif not self.envelope:
            self.diff_line(stripped)

    def in_hunk(self, line: str) -> bool:
        if self.hunk_old <= 0 and self.hunk_new <= 0:
            return False
        tag = line[:1]
        if tag in (" ", ""):
            self.hunk_old -= 1
            self.hunk_new -= 1
        elif tag == "-":
            self.hunk_old -= 1
        elif tag == "+":
            self.hunk_new -= 1
        elif tag != "\\":  # "\ No newline at end of file" counts for neither side
            self.hunk_old = self.hunk_new = 0
            return False
        return True

    def envelope_line(self, line: str) -> None:
        if line.startswith("*** Begin Patch"):
            self.envelope = True
        elif line.startswith("*** End Patch"):
            self.envelope = False
            self.last_update = None
        elif line.startswith("*** Move to:"):
            self.move_to(line[len("*** Move to:") :].strip())
        else:
            for prefix, action in _ENVELOPE:
                if line.startswith(prefix):
                    self.envelope = True
                    index = self.add(line[len(prefix) :].strip(), action)
                    self.last_update = index if prefix == "*** Update File:" else None
                    return

    def move_to(self, target: str) -> None:
        if self.last_update is None:
            return
        index, self.last_update = self.last_update, None
        clean = clean_path(target, self.cwd)
        source = self.changes[index]
        if clean is not None and clean != source.path:
            self.changes[index] = FileChange(clean, RENAMED, source.path)

    def diff_line(self, line: str) -> None:
        old, self.pending_old = self.pending_old, None
        section = self.section
        if line.startswith("diff --git "):
            self.flush_section()
            self.section = _Section(_git_header_path(line[len("diff --git ") :]))
        elif line.startswith("--- "):
            self.pending_old = _diff_path(line[4:])
        elif line.startswith("+++ ") and old is not None:
            self.pair(old, _diff_path(line[4:]))
        elif line.startswith("@@ "):
            self.hunk_old, self.hunk_new = _hunk_counts(line)
        elif section is not None:
            for prefix in ("rename from ", "rename to ", "copy to "):
                if line.startswith(prefix):
                    setattr(section, prefix[:-1].replace(" ", "_"), _unquote(line[len(prefix) :]))
            if line.startswith("deleted file mode"):
                section.deleted = True

    def pair(self, old: str, new: str) -> None:
        if (old == DEV_NULL or old.startswith("a/")) and (new == DEV_NULL or new.startswith("b/")):
            old = old[2:] if old != DEV_NULL else old
            new = new[2:] if new != DEV_NULL else new
        if self.section is not None:
            self.section.old, self.section.new = old, new
        elif new == DEV_NULL:
            if old != DEV_NULL:
                self.add(old, DELETED)
        else:
            self.add(new, WRITTEN)

    def flush_section(self) -> None:
        section, self.section = self.section, None
        if section is None:
            return
        if section.rename_from and section.rename_to:
            self.add(section.rename_to, RENAMED, section.rename_from)
        elif section.copy_to:
            self.add(section.copy_to, WRITTEN)
        elif section.deleted or section.new == DEV_NULL:
            gone = section.old if section.old not in (None, DEV_NULL) else section.header
            if gone:
                self.add(gone, DELETED)
        else:
            kept = section.new if section.new not in (None, DEV_NULL) else section.header
            if kept:
                self.add(kept, WRITTEN)


def _unquote(token: str) -> str:
    token = token.strip()
    if len(token) >= 2 and token[0] == token[-1] == '"':
        token = token[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    return token


def _diff_path(token: str) -> str:
    # "--- a/x\t2026-11-29 10:00" : anything after a tab is a timestamp or label.
    return _unquote(token.split("\t", 1)[0])


def _git_header_path(rest: str) -> str | None:
    # "a/P b/P" splits unambiguously only when both halves name the same file.
    rest = rest.strip()
    size = (len(rest) - 5) // 2
    if size > 0 and rest.startswith("a/") and rest[2 + size :].startswith(" b/"):
        left, right = rest[2 : 2 + size], rest[5 + size :]
        if left == right:
            return left
    return None


def _hunk_counts(line: str) -> tuple[int, int]:
    parts = line.split(" ")
    if len(parts) < 3:
        return (0, 0)
    return (_count(parts[1], "-"), _count(parts[2], "+"))


def _count(spec: str, sign: str) -> int:
    if not spec.startswith(sign):
        return 0
    _, comma, size = spec[1:].partition(",")
    if not comma:
        return 1
    value = int(size) if size.isdigit() and size.isascii() and len(size) < 10 else 0
    return value
