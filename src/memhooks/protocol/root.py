"""Canonical target and project-root discovery (``shared/spec/reference-engine.md`` (c)).

First match wins:

1. ``MEMHOOKS_ROOT``, when it contains the target directory (an invalid value is MH024);
2. the nearest ancestor-or-self holding a ``.git`` entry — a directory, or a file as in
   worktrees and submodules — which is a hard boundary for reading and writing;
3. outside git, the highest ancestor-or-self holding any ``MEMHOOKS.md`` entry, never the
   user's home directory or above it (a stray ``~/MEMHOOKS.md`` must not capture every
   non-git folder; reference weakness (l)10);
4. the target directory itself.

An ancestor that cannot be examined (permission denied) ends the upward search there.
The chosen root comes with the reason it was chosen, for ``explain``.
"""

from __future__ import annotations

import os
import stat

from ..errors import fail
from .hookfile import HOOK_NAME, UNSAFE

TYPE_CHECKING = False  # typing costs ~2 ms to import; annotations are strings
if TYPE_CHECKING:
    from collections.abc import Mapping

REASON_ENV = "MEMHOOKS_ROOT"
REASON_GIT = "git"
REASON_HOOK = "highest hook"
REASON_TARGET = "target directory"


class Target:
    """A canonical target: ``target`` (absolute path as given, canonicalized),
    ``directory`` (the target, or its parent for a file), ``root`` and ``reason``."""

    __slots__ = ("directory", "reason", "root", "target")

    def __init__(self, target: str, directory: str, root: str, reason: str) -> None:
        self.target = target
        self.directory = directory
        self.root = root
        self.reason = reason

    def __repr__(self) -> str:
        return f"Target({self.target!r}, root={self.root!r}, reason={self.reason!r})"


def canonical(path: str, what: str = "target") -> str:
    """``realpath`` that must succeed; MH024 ``could not canonicalize <what>`` otherwise."""
    try:
        return os.path.realpath(path, strict=True)
    except OSError as exc:
        raise fail("MH024", f"could not canonicalize {what}: {exc.strerror or exc}", path) from None


def _lstat(path: str) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return None


def resolve_target(target: str, env: Mapping[str, str] | None = None) -> Target:
    """Canonicalize ``target`` and find its project root.

    Raises DiagnosticError: MH024 for a missing target or invalid ``MEMHOOKS_ROOT``;
    MH029 for a ``MEMHOOKS.md`` target that is not a regular file, or a target that is
    neither a regular file nor a directory.
    """
    env = os.environ if env is None else env
    if os.path.basename(os.path.normpath(target)) == HOOK_NAME:
        st = _lstat(target)
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise fail("MH029", UNSAFE, target)
    real = canonical(target)
    st = os.stat(real)
    if stat.S_ISDIR(st.st_mode):
        directory = real
    elif stat.S_ISREG(st.st_mode):
        directory = os.path.dirname(real)
    else:
        raise fail("MH029", "target is not a regular file or directory", target)
    root, reason = find_root(directory, env)
    return Target(real, directory, root, reason)


def env_root(env: Mapping[str, str]) -> str | None:
    """The canonical ``MEMHOOKS_ROOT`` or ``None``; MH024 when set but unusable."""
    value = env.get("MEMHOOKS_ROOT")
    if not value:
        return None
    try:
        root = os.path.realpath(value, strict=True)
    except OSError as exc:
        raise fail(
            "MH024",
            f"invalid MEMHOOKS_ROOT: {exc.strerror or exc}",
            value,
            help="unset MEMHOOKS_ROOT or point it at the project root",
        ) from None
    if not os.path.isdir(root):
        raise fail(
            "MH024",
            "MEMHOOKS_ROOT must be a directory",
            value,
            help="point MEMHOOKS_ROOT at the project root directory",
        )
    return root


def is_within(path: str, root: str) -> bool:
    """True when canonical ``path`` is ``root`` or below it (component-wise)."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def ancestors(directory: str) -> list[str]:
    """``directory`` and each parent up to the filesystem root, nearest first."""
    out = [directory]
    while True:
        parent = os.path.dirname(out[-1])
        if parent == out[-1]:
            return out
        out.append(parent)


def find_root(directory: str, env: Mapping[str, str] | None = None) -> tuple[str, str]:
    """(root, reason) for a canonical directory; see the module docstring."""
    env = os.environ if env is None else env
    explicit = env_root(env)
    if explicit is not None and is_within(directory, explicit):
        return explicit, REASON_ENV
    visible = []
    for candidate in ancestors(directory):
        try:
            entry = os.lstat(os.path.join(candidate, ".git"))
        except (FileNotFoundError, NotADirectoryError):
            entry = None
        except OSError:
            break  # cannot look inside: nothing above here is ours to read
        if entry is not None and (
            not stat.S_ISLNK(entry.st_mode) or os.path.exists(os.path.join(candidate, ".git"))
        ):
            return candidate, REASON_GIT
        visible.append(candidate)
    home = _home(env)
    highest = None
    for candidate in visible:
        if home is not None and is_within(home, candidate):
            break
        if _lstat(os.path.join(candidate, HOOK_NAME)) is not None:
            highest = candidate
    if highest is not None:
        return highest, REASON_HOOK
    return directory, REASON_TARGET


def _home(env: Mapping[str, str]) -> str | None:
    home = env.get("HOME") or os.path.expanduser("~")
    try:
        return os.path.realpath(home)
    except OSError:
        return None


def chain_directories(root: str, directory: str) -> list[str]:
    """Directories from ``root`` down to ``directory`` inclusive (root first)."""
    if not is_within(directory, root):
        return [directory]
    rel = os.path.relpath(directory, root)
    dirs = [root]
    if rel != ".":
        for part in rel.split(os.sep):
            dirs.append(os.path.join(dirs[-1], part))
    return dirs
