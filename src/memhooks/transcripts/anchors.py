"""What code a stretch of conversation was about: files it read and edited, paths and names it said.

A session's paths are the host's: absolute in the folder the session ran in, or relative
to it. :class:`Place` maps them onto the project as it is now (``root``): a session of
another checkout of the same project (another worktree, a moved clone: same project id)
has its paths taken relative to that checkout's top. Only paths inside the project
count; a path that leaves it (``..``, a symlink out) is dropped, never followed.

Three kinds of anchor, strongest first:

- **touched**: the files the agent's tools edited or read (the transcript's tool calls);
  kept even when the file is gone now (it was there then);
- **named**: paths the user or the agent wrote in the text, or that a shell command
  names, that exist in the project now (:mod:`memhooks.session.mentions`);
- **symbols**: function, class and constant names the conversation mentions that a
  touched or named file defines (:func:`memhooks.symbols.definitions`: Python's ``ast``,
  git's funcname patterns for other languages). A name that is also an everyday word
  (``merge``, ``report``) counts only when the text writes it as code: in backticks or
  called (``merge()``); a name shaped like code (``snake_case``, ``CamelCase``,
  ``UPPER_CASE``) counts wherever the text says it.
"""

from __future__ import annotations

import os
import re

from ..paths import is_within
from ..session import mentions
from ..symbols import definitions

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from .model import Message

#: Most bytes of one file searched for symbol names.
MAX_FILE_BYTES = 256 << 10
#: Identifiers, as a text may mention one.
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: Words written as code: backticked, called, snake_case, UPPER_CASE, CamelCase.
_CODE_WORD = re.compile(
    r"`([A-Za-z_][A-Za-z0-9_.]{2,60})`"
    r"|\b([A-Za-z_][A-Za-z0-9_]{2,60})\(\)"
    r"|\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b"
    r"|\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b"
    r"|\b([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+)\b"
)


class Place:
    """Where one session's paths land: ``root`` (the project now, canonical), ``base``
    (the top of the checkout the session ran in; ``root`` itself for a session of this
    checkout) and ``cwd`` (the session's folder, absolute)."""

    __slots__ = ("base", "cwd", "root")

    def __init__(self, root: str, base: str, cwd: str) -> None:
        self.root = root
        self.base = base
        self.cwd = cwd

    def relative(self, path: str) -> str | None:
        """``path`` as a root-relative POSIX path, or None when it is outside the project."""
        if path.startswith("~"):
            return None
        full = os.path.normpath(os.path.join(self.cwd, path))
        rel = os.path.relpath(full, self.base)
        if rel == os.curdir or rel.startswith(os.pardir) or os.path.isabs(rel):
            return None
        rel = rel.replace(os.sep, "/")
        if rel.split("/", 1)[0] == ".git":
            return None
        if self.base == self.root and not _stays_inside(self.root, rel):
            return None
        return rel

    def here(self) -> str:
        """The session's folder as the same folder of this checkout."""
        rel = os.path.relpath(os.path.normpath(self.cwd), self.base)
        return self.root if rel.startswith(os.pardir) else os.path.join(self.root, rel)


def _stays_inside(root: str, rel: str) -> bool:
    """A path whose symlinks lead out of the root is not the project's."""
    return is_within(os.path.realpath(os.path.join(root, rel)), root)


def touched(place: Place, messages: Iterable[Message]) -> tuple[list[str], list[str]]:
    """``(edited, read)`` root-relative files of the tool calls in ``messages``, first
    seen first; a file both edited and read is only in ``edited``."""
    edited: list[str] = []
    read: list[str] = []
    for message in messages:
        for use in message.tools:
            if use.kind not in ("edit", "read", "search"):
                continue
            target = edited if use.kind == "edit" else read
            for path in use.paths:
                rel = place.relative(path)
                if rel is not None and rel not in target:
                    target.append(rel)
    return edited, [r for r in read if r not in edited]


def named(place: Place, messages: Iterable[Message]) -> list[str]:
    """Root-relative paths (files and folders) the texts and shell commands name that
    exist in the project now."""
    here = place.here()
    found: list[str] = []
    for message in messages:
        hits = mentions.in_prompt(message.text, here, place.root) if message.text else []
        for use in message.tools:
            if use.command:
                hits += mentions.in_command(use.command, here, place.root)
        for rel, _kind in hits:
            if rel and rel not in found:
                found.append(rel)
    return found


def symbols(root: str, texts: Iterable[str], files: Iterable[str], limit: int = 12) -> list[str]:
    """The names ``files`` (root-relative, read now) define that ``texts`` mention (see
    the module docstring), most mentioned first, at most ``limit``."""
    defined: set[str] = set()
    for rel in files:
        source = _source(root, rel)
        if source:
            defined.update(d.name for d in definitions(rel, source) if not d.name.startswith("__"))
    if not defined:
        return []
    said: dict[str, int] = {}
    as_code: set[str] = set()
    for text in texts:
        for word in _WORD.findall(text):
            if word in defined:
                said[word] = said.get(word, 0) + 1
        for match in _CODE_WORD.finditer(text):
            as_code.add(next(g for g in match.groups() if g).rpartition(".")[2])
    found = [w for w in said if w in as_code or _code_shaped(w)]
    return sorted(found, key=lambda w: (-said[w], w))[:limit]


def _code_shaped(name: str) -> bool:
    """``snake_case``, ``UPPER_CASE`` or ``CamelCase``: not an everyday word."""
    return "_" in name.strip("_") or name.isupper() or any(c.isupper() for c in name[1:])


def _source(root: str, rel: str) -> str:
    path = os.path.join(root, *rel.split("/"))
    if not _stays_inside(root, rel) or not os.path.isfile(path):
        return ""
    try:
        with open(path, "rb") as fp:
            return fp.read(MAX_FILE_BYTES).decode("utf-8", "replace")
    except OSError:
        return ""
