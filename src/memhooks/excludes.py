"""The repository's own exclude file (``info/exclude``) and the blocks memhooks keeps in it.

git reads ``$GIT_COMMON_DIR/info/exclude`` like a ``.gitignore`` that is never committed:
what it lists stays out of ``git status`` in this clone only. memhooks keeps its lines in
blocks, each opened by a header comment of its own and ended by a blank or comment line::

    # memhooks-managed: these files hold this machine's path to memhooks
    /.claude/settings.local.json

Lines outside our blocks are the user's and are never touched, byte for byte. Everything
here is text (:func:`read_block`, :func:`with_block`, :func:`pattern`, :func:`unpattern`),
a path (:func:`path_of`) or the file's lines and bytes (:func:`read_lines`,
:func:`encoded`): the writers apply it under their own lock — the hook writer's
(:func:`memhooks.maintain.local.update`) and the installer's edit plan
(:mod:`memhooks.install.gitexclude`, through its own reader of the files it edits).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .git import Repository


def path_of(repository: Repository) -> str:
    """The exclude file of ``repository`` (shared by its linked worktrees)."""
    return os.path.join(repository.common, "info", "exclude")


def read_lines(path: str) -> list[str]:
    """The lines of the exclude file ``path`` ([] when there is none). git takes any bytes
    there: those that are not UTF-8 (a user's Latin-1 comment) are kept as they are
    (``surrogateescape``), so a block still reads and :func:`encoded` writes them back.
    Raises OSError when the file cannot be read."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as fp:
            return fp.read().splitlines()
    except FileNotFoundError:
        return []


def encoded(text: str) -> bytes:
    """``text`` (of :func:`with_block` over :func:`read_lines`) as the file's bytes."""
    return text.encode("utf-8", "surrogateescape")


def read_block(lines: list[str], header: str) -> list[str]:
    """Our lines: those after ``header`` up to a blank or comment line."""
    if header not in lines:
        return []
    out = []
    for line in lines[lines.index(header) + 1 :]:
        if not line.strip() or line.startswith("#"):
            break
        out.append(line)
    return out


def with_block(lines: list[str], header: str, ours: list[str]) -> str:
    """``lines`` with the block of ``header`` holding ``ours`` (appended when new, after a
    blank line; removed with its header when ``ours`` is empty)."""
    if header in lines:
        start = lines.index(header)
        end = start + 1 + len(read_block(lines, header))
        rest = lines[:start] + lines[end:]
        if not ours and start > 0 and not lines[start - 1].strip():
            rest = lines[: start - 1] + lines[end:]  # the blank line we put before it
        lines = rest[:start] + ([header, *ours] if ours else []) + rest[start:]
    elif ours:
        lines = [*lines, *([""] if lines and lines[-1].strip() else []), header, *ours]
    return "\n".join(lines) + "\n" if lines else ""


def pattern(rel: str) -> str:
    """The exclude line that matches exactly the file ``rel`` (``/``-separated, relative
    to the top of the work tree): anchored with ``/``, the characters gitignore reads as
    wildcards or escapes (``* ? [ \\``) and trailing spaces escaped."""
    escaped = "".join("\\" + ch if ch in "*?[\\" else ch for ch in rel)
    stripped = escaped.rstrip(" ")
    escaped = stripped + "\\ " * (len(escaped) - len(stripped))
    return "/" + escaped


def unpattern(line: str) -> str | None:
    """The relative path a line :func:`pattern` wrote matches, or None for another line."""
    if not line.startswith("/"):
        return None
    out = []
    escaped = False
    for ch in line[1:]:
        if escaped or ch != "\\":
            out.append(ch)
            escaped = False
        else:
            escaped = True
    return "".join(out)
