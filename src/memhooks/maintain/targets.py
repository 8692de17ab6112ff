"""Which hook a maintenance command writes, and whether it may write at all.

Rules (``shared/spec/reference-engine.md`` (a) and (f)):

* A project is **enabled** when its root hook ``<root>/MEMHOOKS.md`` exists, is a regular
  file and validates. Maintenance never writes anywhere else before that is true, and
  never above the root (a git root is a hard boundary; see :mod:`memhooks.protocol.root`).
* ``note`` and ``remove`` target the **nearest** existing hook from the working directory
  up to and including the root. A symlinked or special ``MEMHOOKS.md`` on the way is
  refused (MH029) even when dangling: falling back to the root would silently write
  somewhere the user did not expect.
* ``prune`` and ``migrate`` work on a **hook set**, found like ``validate`` finds it: a
  file target is that file (whatever its name), a directory its subtree, ``--all`` the
  whole project.
"""

from __future__ import annotations

import os
import stat

from .. import filestate
from ..errors import Diagnostic, DiagnosticError, fail
from ..paths import is_within
from ..protocol import HOOK_NAME, UNSAFE
from ..protocol.root import Target, chain_directories, resolve_target

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from ..protocol.cache import HookCache

NOT_ENABLED_HELP = "run `memhooks init` at the project root to enable MemHooks"


def target(path: str, env: Mapping[str, str] | None = None) -> Target:
    """:func:`memhooks.protocol.root.resolve_target`, with the reference's message for a
    path that does not exist (MH024 ``path does not exist: <path>``)."""
    if not os.path.lexists(path):
        raise fail("MH024", f"path does not exist: {path}", path)
    return resolve_target(path, env)


def hook_status(path: str) -> str | None:
    """``None`` when nothing is at ``path``, ``"file"`` for a regular file, else
    ``"unsafe"`` (symlink, directory, FIFO, ...). Never follows a symlink."""
    try:
        st = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    return "file" if stat.S_ISREG(st.st_mode) else "unsafe"


def root_hook(root: str, store: HookCache | None = None) -> str:
    """The root hook of an enabled project; raises DiagnosticError otherwise.

    Missing: MH013 (as an error) ``MemHooks is not enabled at the project root `<root>```;
    not a regular file: MH029; invalid: the hook's own error diagnostics (MH001 for a
    ``memhooks/v1`` file, whose help points at ``memhooks migrate``).
    """
    path = require_enabled(root)
    from ..protocol import cache
    from .canonical import canonical_data

    view = cache.for_root(root) if store is None else store  # unchanged: not parsed again
    key = filestate.key(os.lstat(path))
    if view.get(path, key) is not None or canonical_data(path, view) is None:
        view.load(path).require_valid()  # a generated hook's canonical text is valid
    if store is None:
        view.save()
    return path


def require_enabled(root: str) -> str:
    """The root hook's path when it exists as a regular file (whether it validates is
    :func:`root_hook`'s question): MH013 (as an error) when missing, MH029 when unsafe."""
    path = os.path.join(root, HOOK_NAME)
    status = hook_status(path)
    if status is None:
        raise DiagnosticError(
            Diagnostic(
                "MH013",
                f"MemHooks is not enabled at the project root `{root}`",
                path,
                severity="error",
                help=NOT_ENABLED_HELP,
            )
        )
    if status == "unsafe":
        raise fail("MH029", UNSAFE, path)
    return path


def enabled(root: str) -> bool:
    """True when the root hook exists (whatever its state). A missing root hook means
    "not enabled"; a broken one is an error the caller should see: :func:`root_hook`."""
    return hook_status(os.path.join(root, HOOK_NAME)) is not None


def nearest_hook(directory: str, root: str) -> str:
    """The nearest ``MEMHOOKS.md`` entry from ``directory`` up to ``root`` (inclusive).

    ``directory`` is canonical and inside ``root``. Raises MH029 when the nearest entry
    is not a regular file. The root hook is returned when nothing is below it.
    """
    for folder in reversed(chain_directories(root, directory)):
        path = os.path.join(folder, HOOK_NAME)
        status = hook_status(path)
        if status == "unsafe":
            raise fail("MH029", UNSAFE, path)
        if status == "file":
            return path
    return os.path.join(root, HOOK_NAME)


def hook_set(
    path: str, *, all_hooks: bool, env: Mapping[str, str] | None = None
) -> tuple[str, list[str]]:
    """(root, hook paths) for ``prune``/``migrate`` ``PATH [--all]``, like ``validate``.

    A file target is taken as a hook whatever its name (its directory is canonicalized,
    the file itself is not followed: reading it refuses a symlink with MH029). A
    directory yields the ``MEMHOOKS.md`` files below it, ``--all`` those of the whole
    root; inside git the listing honours ``.gitignore``, and takes in the hook files
    memhooks made and keeps out of git (:mod:`memhooks.local_hooks`).
    """
    from ..listing import find_hooks
    from ..protocol.root import REASON_ENV, REASON_GIT

    if os.path.basename(os.path.normpath(path)) == HOOK_NAME and hook_status(path) == "unsafe":
        raise fail("MH029", UNSAFE, path)
    resolved = target(path, env)
    if os.path.isdir(resolved.target) or all_hooks:
        base = resolved.root if all_hooks else resolved.directory
        use_git = resolved.reason in (REASON_GIT, REASON_ENV)
        hooks = find_hooks(base, use_git=use_git, local=resolved.root if use_git else None)
        return resolved.root, hooks
    real_parent = os.path.realpath(os.path.dirname(os.path.abspath(path)))
    return resolved.root, [os.path.join(real_parent, os.path.basename(path))]


def file_exists_in(root: str) -> Callable[[str], bool]:
    """A memoizing test for ``prune``: does a root-relative ``/``-separated name
    canonicalize to an existing regular file inside ``root``?"""
    seen: dict[str, bool] = {}

    def exists(name: str) -> bool:
        if name not in seen:
            seen[name] = _is_file_inside(os.path.join(root, *name.split("/")), root)
        return seen[name]

    return exists


def _is_file_inside(path: str, root: str) -> bool:
    try:
        real = os.path.realpath(path, strict=True)
        return is_within(real, root) and stat.S_ISREG(os.stat(real).st_mode)
    except (OSError, ValueError):
        return False
