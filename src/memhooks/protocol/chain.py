"""Load the hook chain from the root down to a directory, through the parsed-hook cache.

Each directory's ``MEMHOOKS.md`` is looked at with ``lstat``: absent → skipped; a regular
file → loaded; anything else (symlink — even one pointing inside the project — dangling
link, directory, FIFO) → MH029. Every loaded hook must be valid (no error diagnostics).
Hooks in sibling directories are never read.

Parsing costs ~0.1 ms per hook with libyaml plus ~9 ms to import it, so parsed hooks are
cached by (device, inode, size, mtime_ns) (:mod:`.cache`): in process, and on disk as
JSON under the user cache directory so a fresh process with an unchanged chain never
imports YAML (``shared/spec/performance.md``). Set ``MEMHOOKS_CACHE=0`` to disable the
disk cache.
"""

from __future__ import annotations

import os
import stat

from ..errors import Diagnostic, DiagnosticError, fail
from . import HOOK_NAME, UNSAFE, cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    #: (path, data, guidance) of one valid hook, as the merge consumes it.
    HookData = tuple[str, dict[str, Any], str]


def hook_paths(root: str, directories: list[str]) -> list[tuple[str, os.stat_result]]:
    """Existing hook files (path, lstat) in ``directories``; MH029 for unsafe entries."""
    found = []
    for directory in directories:
        path = os.path.join(directory, HOOK_NAME)
        try:
            st = os.lstat(path)
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError as exc:
            raise fail(
                "MH000",
                f"could not read hook: {exc.strerror}",
                path,
                1,
                1,
                help="check the directory's permissions",
            ) from None
        if not stat.S_ISREG(st.st_mode):
            raise fail("MH029", UNSAFE, path)
        found.append((path, st))
    return found


def load_chain(
    root: str, directories: list[str], skipped: list[Diagnostic] | None = None
) -> list[HookData]:
    """Parse (or fetch from cache) every hook in ``directories``, root first.

    Raises DiagnosticError with the first invalid hook's error diagnostics, or MH029 /
    MH000 for unsafe or unreadable hook files — unless ``skipped`` is given: then such a
    hook is left out of the chain, its first error appended to ``skipped``, and the rest
    of the chain loads (issue 22 item 2: the agent hook degrades, it does not go dark
    because one hook in the chain is broken).
    """
    hooks = []
    store = cache.for_root(root)
    try:
        for directory in directories:
            try:
                found = hook_paths(root, [directory])
                for path, st in found:
                    parsed = store.load(path, st)
                    parsed.require_valid()
                    assert parsed.data is not None
                    hooks.append((path, parsed.data, parsed.guidance))
            except DiagnosticError as exc:
                if skipped is None:
                    raise
                skipped.append(exc.diagnostic)
    finally:
        store.save()  # what was parsed before an invalid hook stays parsed
    return hooks
