"""``memhooks prune``: drop generated cues' file resources that no longer exist.

Rules (``shared/spec/reference-engine.md`` (a) ``prune`` and (f)): in every query tagged
``memhooks:auto``, a ``kind: file`` resource whose root-relative name does not
canonicalize to an existing regular file inside the root is removed; auto queries left
without resources are removed. Hand-written queries, other resources and backend data
are never touched. Each hook is updated under its own lock (none for a dry run); it is
not a cross-file transaction, so hooks written before a failure stay written.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..protocol.hookfile import ParsedHook
from .cues import prune_auto
from .targets import file_exists_in, hook_set, root_hook
from .tidy import drop_emptied_queries
from .update import update


def prune(
    path: str = ".",
    *,
    all_hooks: bool = False,
    dry_run: bool = False,
    env: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Prune the hooks at ``path`` (a hook file, a directory's subtree, or with
    ``all_hooks`` the whole project). Returns the reference's summary:
    ``{"hooks_changed": N, "resources_removed": N, "queries_removed": N, "dry_run": bool}``.

    Raises DiagnosticError: MH024 for a missing path; the not-enabled error; MH029 for a
    symlinked or special hook; an invalid hook's own errors; MH030 when the tree cannot
    be listed; MH031 when a write fails.
    """
    root, hooks = hook_set(path, all_hooks=all_hooks, env=env)
    root_hook(root)
    exists = file_exists_in(root)
    totals = {"hooks_changed": 0, "resources_removed": 0, "queries_removed": 0}
    for hook in hooks:
        counts = _prune_hook(hook, exists, dry_run)
        if counts != (0, 0):
            totals["hooks_changed"] += 1
            totals["resources_removed"] += counts[0]
            totals["queries_removed"] += counts[1]
    return {**totals, "dry_run": dry_run}


def _prune_hook(hook: str, exists: Callable[[str], bool], dry_run: bool) -> tuple[int, int]:
    """(resources removed, queries removed) in one hook (written unless ``dry_run``)."""
    counts = (0, 0)

    def edit(parsed: ParsedHook) -> bool:
        nonlocal counts
        counts = prune_auto(parsed.tree, exists)
        if counts[1]:
            drop_emptied_queries(parsed.tree)
        return counts != (0, 0)

    update(hook, edit, dry_run=dry_run)
    return counts
