"""Reading and atomically writing the config files installers touch."""

from __future__ import annotations

import os
import tempfile


def read(path: str) -> str | None:
    """The file's text (UTF-8, BOM kept), or None when it does not exist."""
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read()
    except FileNotFoundError:
        return None


def write(path: str, text: str, mode: int | None = None) -> None:
    """Replace ``path`` with ``text`` atomically: a temp file in the same folder,
    fsync, rename. Keeps an existing file's permission bits (else ``mode``, else 0644
    less the umask). Creates missing parent folders."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    try:
        keep: int | None = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        keep = None
    fd, temp = tempfile.mkstemp(
        prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder
    )
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if keep is not None:
            os.chmod(temp, keep)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temp, (mode if mode is not None else 0o644) & ~umask)
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
    _fsync_dir(folder)


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
            _fsync_dir(folder)
            return
        folder = os.path.dirname(folder)


def _fsync_dir(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
