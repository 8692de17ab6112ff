"""The files an agent event touched, filtered to what hook maintenance may anchor.

Rules (``shared/spec/reference-engine.md`` (f) step 4, plus nested repositories):

* a relative path joins the event's working directory; an absolute one is used as is;
* an **existing** path is canonicalized (symlinks followed) and must be a regular file;
  a symlink resolving outside the root is therefore rejected;
* a **missing** path (a delete, or a rename's old name) is kept only to reconcile: its
  parent directory must exist; it never creates a hook by itself;
* either way the result must be inside the root (not the root itself), not named
  ``MEMHOOKS.md`` (nor one of our temporary files), have no component in
  :data:`SKIP_PARTS`, and not lie in a nested repository or submodule (a directory
  below the root with its own ``.git``): that is another project's tree.

No YAML is imported here: an event that touches nothing maintainable costs a few
``lstat`` calls.
"""

from __future__ import annotations

import os
import stat

from ..git import marker
from ..paths import is_within, relative
from ..protocol import HOOK_NAME

#: Directory names never anchored (the reference engine's list).
SKIP_PARTS = frozenset(
    (".git", ".hg", ".svn", ".venv", "venv", "node_modules", "dist", "build", "target",
     "__pycache__", ".idea", ".vscode", ".pytest_cache", ".mypy_cache")
)  # fmt: skip


class Touched:
    """Accepted paths of one event: ``groups`` maps a canonical directory to its
    ``(root-relative file name, exists)`` pairs, sorted and de-duplicated."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.groups: dict[str, list[tuple[str, bool]]] = {}
        self._nested: dict[str, bool] = {}

    def add(self, raw: str, base: str) -> bool:
        """Accept ``raw`` (absolute, or relative to ``base``) if the rules allow it."""
        found = self._classify(raw if os.path.isabs(raw) else os.path.join(base, raw))
        if found is None:
            return False
        directory, rel, exists = found
        members = self.groups.setdefault(directory, [])
        if (rel, exists) not in members:
            members.append((rel, exists))
            members.sort()
        return True

    def _classify(self, path: str) -> tuple[str, str, bool] | None:
        try:
            st = os.lstat(path)
        except (FileNotFoundError, NotADirectoryError):
            st = None
        except (OSError, ValueError):
            return None
        try:
            if st is not None:
                real = os.path.realpath(path, strict=True)
                if not stat.S_ISREG(os.stat(real).st_mode):
                    return None
            else:
                name = os.path.basename(os.path.normpath(path))
                if name in ("", ".", ".."):
                    return None
                parent = os.path.realpath(os.path.dirname(os.path.normpath(path)), strict=True)
                if not os.path.isdir(parent):
                    return None
                real = os.path.join(parent, name)
        except (OSError, ValueError):
            return None
        directory, name = os.path.split(real)
        if name == HOOK_NAME or _is_our_temp(name) or not is_within(real, self.root):
            return None
        rel = relative(real, self.root)
        if not rel or any(part in SKIP_PARTS for part in rel.split("/")):
            return None
        if self._in_nested_repository(directory):
            return None
        return directory, rel, st is not None

    def _in_nested_repository(self, directory: str) -> bool:
        """True when a directory strictly below the root, at or above ``directory``,
        holds a ``.git`` entry (memoized per directory)."""
        if directory == self.root:
            return False
        if directory not in self._nested:
            here = bool(marker(directory))
            self._nested[directory] = here or self._in_nested_repository(os.path.dirname(directory))
        return self._nested[directory]


def _is_our_temp(name: str) -> bool:
    # atomic.py (and its `secrets` import, ~10 ms) is loaded only for a name that looks like one
    if not (name.startswith(f".{HOOK_NAME}.") and name.endswith(".tmp")):
        return False
    from .atomic import is_temp_name

    return is_temp_name(name)


def directory_rel(root: str, directory: str) -> str:
    """A canonical directory inside ``root`` as the generated cue names it: root-relative
    with ``/`` separators, ``.`` for the root itself."""
    return relative(directory, root) or "."
