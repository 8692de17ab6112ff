"""The generated-hook write: an event's cue edit of a canonical generated hook
(:mod:`.canonical`), without a YAML library, through the same guarantees as
:func:`memhooks.maintain.update.update`:

::

    with hook_lock(path):                 # the per-hook lock, LOCK_TIMEOUT_S seconds
        text  = read the hook             # refuses symlinks/special files (MH029)
        model = canonical.read(text)      # None: not canonical -> round-trip path
        apply(model)                      # same pruning, order and cap as apply_cues
        new   = canonical.emit(model)     # re-read: must give the same model
        refuse a read-only hook (MH031)
        write_atomic(path, new)           # temp file + fsync + rename

A canonical text always validates (see :mod:`.canonical`), so the hook as read and as
written need no validator run. Anything outside the canonical shape — a hook people
edited, a name that needs quoting — returns None before anything is written, and the
caller runs the round-trip edit, which keeps every byte people wrote outside the edit.
Measured (``bench/bench_engine.py``, ``write_changed``): the edit without ruamel.yaml
and PyYAML costs well under a millisecond; importing them cost ~35 ms per hook process.
"""

from __future__ import annotations

from . import canonical
from .access import read_text, refuse_read_only

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

#: A new hook's text before its first cue (:func:`memhooks.maintain.roundtrip.new_hook_text`
#: without a project), here so that creating a generated hook needs no YAML import.
NEW_HOOK = "---\nschema: memhooks/v2\ninherits: true\n---\n"


def write_generated(
    hook: str,
    cues: list[tuple[str, list[str]]],
    exists: Callable[[str], bool],
    max_paths: int,
    *,
    create: bool,
) -> bool | None:
    """Apply an event's ``cues`` (``[(scope, files to add)]``) to the generated hook at
    ``hook`` under its lock: True when written, False when nothing changed (or a
    missing hook is not to be created), None when the hook is not canonical or the edit
    leaves the canonical shape (nothing written; take the round-trip path).

    Raises DiagnosticError: MH029 for a symlinked or special hook, MH000 for
    unreadable bytes, MH031 for a read-only hook that would change, a failed write, or
    the lock still held after :data:`~memhooks.maintain.lock.LOCK_TIMEOUT_S` seconds.
    """
    from .atomic import write_atomic
    from .lock import LOCK_TIMEOUT_S, hook_lock

    with hook_lock(hook, timeout=LOCK_TIMEOUT_S):
        old = read_text(hook)
        if old is None and not (create and any(files for _scope, files in cues)):
            return False
        model = canonical.read(NEW_HOOK if old is None else old)
        if model is None:
            return None
        changed = canonical.apply(model, cues, exists, max_paths)
        if not changed:
            return changed  # None (leaves the shape) or False
        new = canonical.emit(model)
        if new == old:
            return False
        again = canonical.read(new)
        if again is None or again.data() != model.data():
            return None  # cannot happen for a model apply() produced; never write it
        if old is not None:
            refuse_read_only(hook)
        write_atomic(hook, new)
        return True
