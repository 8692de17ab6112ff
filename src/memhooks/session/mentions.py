"""Paths a prompt or a shell command names: ``billing/invoice.py``, ``@billing/invoice.py``,
``sed -n 1,80p billing/invoice.py``, ``rg total billing/``.

Only what exists, inside the canonical project root, counts (a symlink pointing out of
the root does not). The text is untrusted and is never run: a command is only split into
words (``shlex``), and ``cd DIR`` earlier in it moves the folder later words are taken
from. Bounded: the first :data:`MAX_TEXT` characters, :data:`MAX_WORDS` words,
:data:`MAX_FOUND` paths.
"""

from __future__ import annotations

import os

from ..paths import inside

MAX_TEXT = 4000
MAX_WORDS = 64
MAX_FOUND = 16
#: Characters trimmed from the ends of a prompt word (quotes, brackets, punctuation).
_TRIM = "\"'`()[]{}<>,;:!?*"
#: Shell words that separate commands (a ``cd`` applies to what follows them).
_SEPARATORS = frozenset({"&&", "||", ";", "|", "&"})


def in_prompt(prompt: str, cwd: str, root: str) -> list[tuple[str, str]]:
    """``(root-relative path, "file" | "folder")`` for the paths ``prompt`` names: words
    with a ``/`` or a file extension, an ``@`` prefix allowed (Claude Code, Codex and
    Gemini CLI attach files that way), taken from ``cwd`` first, then from ``root``."""
    found: list[tuple[str, str]] = []
    for word in prompt[:MAX_TEXT].split()[: MAX_WORDS * 4]:
        word = word.strip(_TRIM).lstrip("@").rstrip(".")
        if not word or "://" in word or not ("/" in word or _has_extension(word)):
            continue
        for base in (cwd, root):
            hit = _inside(os.path.join(base, word), root)
            if hit is not None:
                if hit not in found:
                    found.append(hit)
                break
        if len(found) >= MAX_FOUND:
            break
    return found


def in_command(command: str, cwd: str, root: str) -> list[tuple[str, str]]:
    """``(root-relative path, "file" | "folder")`` for the existing paths among the words
    of shell ``command`` (options and words that name nothing are skipped)."""
    import shlex

    text = command[:MAX_TEXT]
    try:
        lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        words = list(_bounded(lexer))
    except ValueError:  # an unbalanced quote: plain words will do
        words = text.split()[:MAX_WORDS]
    found: list[tuple[str, str]] = []
    base = cwd
    after_cd = False
    for word in words:
        if word in _SEPARATORS:
            after_cd = False
            continue
        if after_cd:
            after_cd = False
            moved = os.path.join(base, os.path.expanduser(word) if word.startswith("~") else word)
            if os.path.isdir(moved):
                base = moved
            continue
        if word == "cd":
            after_cd = True
            continue
        if word.startswith("-"):
            word = word.partition("=")[2]  # --file=path; other options name nothing
            if not word:
                continue
        hit = _inside(os.path.join(base, word), root) if _plausible(word) else None
        if hit is not None and hit not in found:
            found.append(hit)
            if len(found) >= MAX_FOUND:
                break
    return found


def _bounded(lexer: object) -> list[str]:
    out: list[str] = []
    for word in lexer:  # type: ignore[attr-defined]
        out.append(word)
        if len(out) >= MAX_WORDS:
            break
    return out


def _plausible(word: str) -> bool:
    """Cheap tests before touching the disk: a path word has no shell or glob syntax."""
    return bool(word) and len(word) < 4096 and not any(c in word for c in "$`*?<>|\n\x00")


def _has_extension(word: str) -> bool:
    stem, dot, ext = word.rpartition(".")
    return bool(dot and stem and ext.isalnum() and len(ext) <= 8 and not ext.isdigit())


def _inside(path: str, root: str) -> tuple[str, str] | None:
    """``(root-relative path, kind)`` when ``path`` exists inside canonical ``root``."""
    try:
        rel = inside(path, root)
    except (OSError, ValueError):
        return None
    if rel is None:
        return None
    real = os.path.join(root, rel)
    if os.path.isfile(real):
        kind = "file"
    elif os.path.isdir(real):
        kind = "folder"
    else:
        return None
    return rel, kind
