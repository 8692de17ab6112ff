"""Validation of targets as the ``validate`` command and the Python API see them: the hooks
:mod:`memhooks.listing` finds, with those the hook writer keeps out of git
(:mod:`memhooks.local_hooks`), each checked through the parsed-hook cache."""

from __future__ import annotations

import os

from .errors import Diagnostic, DiagnosticError
from .listing import find_hooks
from .protocol import HOOK_NAME, cache
from .protocol.chain import hook_paths
from .protocol.root import REASON_ENV, REASON_GIT, chain_directories, resolve_target


def collect(path: str, *, all_hooks: bool, strict: bool = False) -> tuple[list[Diagnostic], str]:
    """(diagnostics, validation root) for one target (spec (a) ``validate``).

    A file is validated as a hook whatever its name; a directory is scanned — and when
    nothing below it is a hook, the hooks of its chain (root down to it) are validated,
    as they are what applies there; with ``all_hooks`` the whole project root of ``path``
    is scanned. No hook found is MH013 (an error with ``strict``). A missing path is MH024. The validation root is what
    SARIF URIs are relative to. Diagnostics are sorted by path, line, column.
    """

    early: dict[str, list[Diagnostic]] = {}  # hooks read while git listed the tree
    try:
        where = resolve_target(path)
        if all_hooks or where.target == where.directory:
            base = where.root if all_hooks else where.directory
            # MEMHOOKS_ROOT may name a directory inside a git work tree: git still decides
            # what is ignored there (find_hooks falls back to the walker outside git)
            store = cache.for_root(where.root)  # the one explain and recall read through
            use_git = where.reason in (REASON_GIT, REASON_ENV)
            hooks = find_hooks(
                base,
                use_git=use_git,
                # git's listing leaves out the hook files memhooks made and keeps out of
                # git (its own block of info/exclude), which the hook loads: take them in,
                # as prune/migrate do (a hook the user's .gitignore leaves out stays out)
                local=where.root if use_git else None,
                meanwhile=store.prepare,
                speculate=lambda hook: early.__setitem__(hook, store.load(hook).diagnostics),
                settle=store.save,  # while git checks what was read; again below if need be
            )
        else:
            base, hooks, store = where.directory, [where.target], cache.HookCache(None)
        if not hooks and not all_hooks:
            # a folder of a project with nothing of its own below it: the hooks that apply
            # there (its chain from the root), as explain and recall find them — not a
            # "run memhooks init" for a project that has hooks
            hooks = [
                found
                for found, _ in hook_paths(
                    where.root, chain_directories(where.root, where.directory)
                )
            ]
    except DiagnosticError as exc:
        return exc.diagnostics, os.path.dirname(os.path.abspath(path))
    if not hooks:
        severity = "error" if strict else "warning"
        return [Diagnostic("MH013", f"no {HOOK_NAME} files found", path, severity=severity)], base
    diagnostics: list[Diagnostic] = []
    for hook in hooks:
        found = early.get(hook)
        diagnostics.extend(store.load(hook).diagnostics if found is None else found)
    store.save()
    diagnostics.sort(key=Diagnostic.sort_key)
    return diagnostics, base


def validate(
    paths: list[str] | str = ".", *, all_hooks: bool = False, strict: bool = False
) -> list[Diagnostic]:
    """Diagnostics for one or more targets (see :func:`collect`), sorted."""
    targets = [paths] if isinstance(paths, str) else list(paths)
    out: list[Diagnostic] = []
    for target in targets:
        out.extend(collect(os.fspath(target), all_hooks=all_hooks, strict=strict)[0])
    return sorted(set(out), key=Diagnostic.sort_key)
