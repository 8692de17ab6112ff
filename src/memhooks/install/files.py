"""Reading and atomically writing the config files installers touch."""

from __future__ import annotations

import os

from .. import atomicfile


def read(path: str, errors: str = "strict") -> str | None:
    """The file's text (UTF-8, BOM kept), or None when it does not exist. ``errors``:
    ``"surrogateescape"`` keeps bytes that are not UTF-8 (:func:`write` puts them back)."""
    try:
        with open(path, encoding="utf-8", errors=errors, newline="") as handle:
            return handle.read()
    except FileNotFoundError:
        return None


def write(path: str, text: str, mode: int | None = None) -> None:
    """Replace ``path`` with ``text`` durably and atomically
    (:func:`memhooks.atomicfile.write`). Keeps an existing file's permission bits (else
    ``mode``, else 0644 less the umask). Creates missing parent folders."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    try:
        old: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        old = None
    data = text.encode("utf-8", "surrogateescape")  # bytes read past UTF-8 as they were
    atomicfile.write(path, data, old=old, new_mode=0o644 if mode is None else mode)


def remove(path: str, levels: int = 3) -> None:
    """Delete ``path``, and up to ``levels`` folders above it that this leaves empty
    (a plugin folder; the skill's ``memhooks/``, then ``skills/``, then ``.claude/``)."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        os.unlink(path)
    except FileNotFoundError:
        return
    for _ in range(levels):
        try:
            os.rmdir(folder)
        except OSError:  # not empty, or not ours to judge
            atomicfile.fsync_directory(folder)
            return
        folder = os.path.dirname(folder)
