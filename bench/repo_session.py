"""What an agent does to make one later commit, read from git: the files it reads and the
edits it makes, with the real file contents at the commit's parent.

A task's session (:func:`plan`): every file the commit changes that exists at its first
parent is read, most-changed first (ties by path) — a Read without a range, which
Claude Code answers with the file's first 2,000 lines, and for a hunk below those a
ranged Read of it with :data:`AROUND` lines either side (:func:`ranges`: the agent
sees the lines before it edits them); then, file by file in the same order, each hunk
of ``git diff -U3 --no-renames PARENT COMMIT`` is one Edit whose ``old_string`` is the
hunk's old side — its 3 lines of context and the lines it removes — and whose
``new_string`` is its new side; a file the commit creates is one Write of its new
contents. Deletions, binary files and mode changes are not edits an
agent makes with a file tool and are left out. :func:`apply` replays an Edit on the
file on disk, so each later Edit (and the hook) sees the file as the agent left it.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass, field

CONTEXT = 3
#: Lines either side of a hunk that a ranged Read shows (module docstring).
AROUND = 20
_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def git(repo: str, *args: str) -> bytes:
    """Standard output of ``git -C repo ARGS`` (raises on failure)."""
    return subprocess.run(["git", "-C", repo, *args], capture_output=True, check=True).stdout


@dataclass
class Hunk:
    """One hunk of a file's diff: ``old_start`` is 1-based in the parent's file (git's
    number; for an empty old side, the line after which the new lines go)."""

    old_start: int
    new_start: int
    old: list[bytes] = field(default_factory=list)
    new: list[bytes] = field(default_factory=list)
    patch: list[str] = field(default_factory=list)

    def old_string(self) -> str:
        return text(b"".join(self.old))

    def new_string(self) -> str:
        return text(b"".join(self.new))

    def structured(self) -> list[dict]:
        """Claude Code's ``structuredPatch`` of this edit."""
        return [{"oldStart": self.old_start, "oldLines": len(self.old),
                 "newStart": self.new_start, "newLines": len(self.new), "lines": self.patch}]  # fmt: skip


@dataclass
class FilePlan:
    """One file of the change: ``path`` root-relative, ``exists`` at the parent, its
    ``hunks`` (empty for a created file, whose ``content`` is written)."""

    path: str
    changed: int
    exists: bool
    hunks: list[Hunk] = field(default_factory=list)
    content: bytes | None = None


def text(data: bytes) -> str:
    """File bytes as the host shows them to the model (UTF-8, invalid bytes replaced)."""
    return data.decode("utf-8", "replace")


def changed_files(repo: str, parent: str, commit: str) -> list[tuple[str, int, str]]:
    """``[(path, lines changed, status)]`` of ``parent..commit``, most-changed first."""
    numstat = git(repo, "diff", "--no-renames", "-z", "--numstat", parent, commit).split(b"\0")
    status = git(repo, "diff", "--no-renames", "-z", "--name-status", parent, commit).split(b"\0")
    kinds = {text(status[i + 1]): text(status[i]) for i in range(0, len(status) - 1, 2)}
    out = []
    for entry in numstat:
        fields = entry.split(b"\t")
        if len(fields) == 3 and fields[2]:
            added, deleted, path = fields
            lines = int(added) + int(deleted) if added.isdigit() and deleted.isdigit() else 0
            name = text(path)
            out.append((name, lines, kinds.get(name, "M")))
    return sorted(out, key=lambda item: (-item[1], item[0]))


def hunks(diff: bytes) -> list[Hunk]:
    """The hunks of one file's unified diff (``git diff -U3`` output)."""
    out: list[Hunk] = []
    current: Hunk | None = None
    last = b""
    for line in diff.split(b"\n"):
        match = _HUNK.match(line)
        if match:
            current = Hunk(int(match.group(1)), int(match.group(3)))
            out.append(current)
            continue
        tag, body = line[:1], line[1:] + b"\n"
        if current is None or tag not in (b" ", b"-", b"+", b"\\"):
            continue
        if tag == b"\\":  # "\ No newline at end of file": the line before has none
            for side, tags in ((current.old, b" -"), (current.new, b" +")):
                if last in tags and side:
                    side[-1] = side[-1][:-1]
            current.patch[-1] += "\n\\ No newline at end of file"
            continue
        if tag in (b" ", b"-"):
            current.old.append(body)
        if tag in (b" ", b"+"):
            current.new.append(body)
        current.patch.append(text(line))
        last = tag
    return out


def plan(repo: str, parent: str, commit: str) -> list[FilePlan]:
    """The files of ``commit``'s change as an agent would read and edit them (module
    docstring), in session order."""
    files = []
    for path, lines, status in changed_files(repo, parent, commit):
        if status.startswith("D"):
            continue
        if status.startswith("A"):
            files.append(
                FilePlan(path, lines, False, content=git(repo, "show", f"{commit}:{path}"))
            )
            continue
        diff = git(repo, "diff", "--no-renames", "--no-color", "--no-ext-diff", f"-U{CONTEXT}",
                   parent, commit, "--", path)  # fmt: skip
        if b"\n@@ " not in diff:  # binary or mode only
            continue
        files.append(FilePlan(path, lines, True, hunks(diff)))
    return files


def ranges(hunks: list[Hunk], shown: int) -> list[tuple[int, int]]:
    """(offset, limit) of the ranged Reads that show each hunk's old side not already
    shown by a Read of the first ``shown`` lines or an earlier ranged Read."""
    out: list[tuple[int, int]] = []
    seen_to = shown
    for hunk in hunks:
        last = hunk.old_start + max(len(hunk.old), 1) - 1
        if last <= seen_to:
            continue
        offset = max(1, hunk.old_start - AROUND)
        limit = last + AROUND - offset + 1
        out.append((offset, limit))
        seen_to = offset + limit - 1
    return out


def apply(path: str, hunk: Hunk, delta: int) -> tuple[bool, int]:
    """Replace ``hunk``'s old side by its new side in the file ``path`` on disk, the old
    side found at its parent line shifted by ``delta`` (lines earlier edits of this file
    added). (applied, new delta); a file that does not hold the old side there is left
    as it is."""
    with open(path, "rb") as fp:
        before = fp.read()
    lines = before.splitlines(keepends=True)
    at = hunk.old_start + delta - (1 if hunk.old else 0)
    if lines[at : at + len(hunk.old)] != hunk.old:
        return False, delta
    lines[at : at + len(hunk.old)] = hunk.new
    tmp = path + ".memhooks-bench"
    with open(tmp, "wb") as fp:
        fp.write(b"".join(lines))
    os.replace(tmp, path)
    return True, delta + len(hunk.new) - len(hunk.old)


def occurrences(path: str, hunk: Hunk) -> int:
    """How many times the hunk's ``old_string`` occurs in the file now (Claude Code's
    Edit needs exactly one; an agent would widen a repeated one)."""
    with open(path, "rb") as fp:
        return fp.read().count(b"".join(hunk.old)) if hunk.old else 0
