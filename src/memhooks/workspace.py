"""Where a command is working: the project root, folder, scope and project id of a path."""

from __future__ import annotations

import os

from .paths import is_within, relative
from .protocol.root import resolve_target
from .store import identify


class Workspace:
    """``root`` (canonical project root), ``directory`` (canonical folder of the path),
    ``scope`` (root-relative folder, ``""`` for the root, ``/`` separators) and
    ``project`` (the store's project id for the root) and ``aliases`` (ids the project
    had before: :attr:`memhooks.store.Identity.aliases`; pass them to ``MemoryStore.adopt``)."""

    __slots__ = ("aliases", "directory", "project", "root", "scope")

    def __init__(
        self, root: str, directory: str, scope: str, project: str, aliases: tuple[str, ...] = ()
    ) -> None:
        self.root = root
        self.directory = directory
        self.scope = scope
        self.project = project
        self.aliases = aliases

    def relative(self, path: str) -> str:
        """``path`` (absolute, or relative to the process directory) relative to the
        root with ``/`` separators; a path outside the root is returned absolute."""
        real = os.path.realpath(path)
        return (relative(real, self.root) or ".") if is_within(real, self.root) else real


def locate(path: str = ".") -> Workspace:
    """The workspace of ``path`` (file or folder). Raises DiagnosticError MH024/MH029 as
    :func:`memhooks.protocol.root.resolve_target` does."""
    target = resolve_target(path)
    identity = identify(target.root)
    scope = relative(target.directory, target.root)
    return Workspace(target.root, target.directory, scope, identity.id, identity.aliases)
