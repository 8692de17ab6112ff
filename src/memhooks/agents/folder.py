"""Which folder the agent is working in: decided once per hook call, for every use.

The folder comes from the host, never from the hook process's own directory when the
host said otherwise: the payload's ``cwd`` (Cursor and Cline: the first workspace root),
else the host's own project variables (``PROJECT_VARS`` of its module, e.g. Claude
Code's ``CLAUDE_PROJECT_DIR``), else — only when the host named no folder at all — the
process directory. Recall, maintenance, capture and the session working set all use
this one answer (``shared/spec/agent-hooks.md`` section 11, note 2).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: see base.py
if TYPE_CHECKING:
    from collections.abc import Mapping

    from .base import NormalizedEvent


def working_folder(event: NormalizedEvent, env: Mapping[str, str]) -> str:
    """The absolute folder ``event`` happened in (see the module docstring).

    Raises UsageError when the host named folders and none is an existing absolute
    directory: working from the process directory instead could serve another
    project's memories.
    """
    named = [c for c in (event.cwd, *event.workspace_roots) if c]
    for candidate in named:
        if os.path.isabs(candidate) and os.path.isdir(candidate):
            return candidate
    for var in project_vars(event.host):
        value = env.get(var, "")
        if value and os.path.isabs(value) and os.path.isdir(value):
            return value
    if named:
        from ..errors import UsageError

        raise UsageError(
            f"the host's working folder {named[0]!r} is not an existing absolute directory",
            "MH024",
        )
    return os.getcwd()


def named_folder(event: NormalizedEvent) -> str:
    """The folder ``event`` names itself — its ``cwd``, else its first workspace root —
    made absolute as given (not canonicalized: the root is found from the path as given,
    :func:`memhooks.protocol.root.resolve_target`), else the process folder. What
    ``memhooks event`` and capture outside the hook work in (the reference's contract: a
    named folder that does not exist is MH024 when resolved, not a UsageError)."""
    base = event.cwd or (event.workspace_roots[0] if event.workspace_roots else None)
    return os.path.abspath(base) if base else os.getcwd()


def project_vars(host: str) -> tuple[str, ...]:
    """The environment variables ``host`` sets to name the project (its module's
    ``PROJECT_VARS``; none for an unknown host)."""
    from .registry import host_module

    try:
        found: tuple[str, ...] = host_module(host).PROJECT_VARS
    except KeyError:
        return ()
    return found
