"""``memhooks init``: enable a project by writing its root hook.

Rules (``shared/spec/reference-engine.md`` (a) ``init``): the hook is
``<root of PATH>/MEMHOOKS.md``; an existing one must be a regular file (MH029) and valid
(its own diagnostics otherwise) and is then left **byte for byte** unchanged; a new one
is :func:`memhooks.maintain.roundtrip.new_hook_text` for the root directory's name.
Existence and validity are checked again under the lock, so an initializer that raced
with a ``note`` never overwrites it. Unlike the reference, no lock file is left behind.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from ..protocol import HOOK_NAME
from ..protocol.hookfile import parse_text
from .access import read_text
from .atomic import write_atomic
from .lock import LOCK_TIMEOUT_S, hook_lock
from .roundtrip import new_hook_text
from .targets import target


def init_project(path: str = ".", env: Mapping[str, str] | None = None) -> tuple[str, bool]:
    """Enable the project containing ``path``; returns (root hook path, created).

    Raises DiagnosticError: MH024 when ``path`` does not exist; MH029 for a symlinked or
    special root hook; the hook's own errors when it exists but is invalid; MH031 when
    it cannot be written.
    """
    root = target(path, env).root
    hook = os.path.join(root, HOOK_NAME)
    with hook_lock(hook, timeout=LOCK_TIMEOUT_S):
        text = read_text(hook)
        if text is not None:
            parse_text(text, hook).require_valid()
            return hook, False

        write_atomic(hook, new_hook_text(os.path.basename(root) or root))
        return hook, True
