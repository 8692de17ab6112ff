"""Tool-time precision: which recalled memories belong to the folder or file the agent
just touched (issue 12 item 4; a competitor that matched memories on file-name tokens
injected unrelated ones, PCIRCLE-AI/memesh#358 — nothing is better than noise).

A memory is *anchored* to a target when it touched the target file, or a file directly
in a target folder, when its scope is a target folder, or when a target folder's own
hook recalled it (a query written in that folder's ``MEMHOOKS.md``, or its generated
cue). Memories inherited from ancestors' hooks and recalled only by the prompt are not:
the prompt was already served at prompt time.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any


class Anchor:
    """A ``keep`` test for :func:`memhooks.recall.recall_result`: ``folders`` and
    ``files`` root-relative (``""`` is the root), ``hooks`` the absolute paths of the
    target folders' own hook files."""

    __slots__ = ("files", "folders", "hooks")

    def __init__(self, folders: Iterable[str], files: Iterable[str], hooks: Iterable[str]) -> None:
        self.folders = frozenset(folders)
        self.files = frozenset(files)
        self.hooks = frozenset(hooks)

    def __call__(self, memory: dict[str, Any]) -> bool:
        for path in memory.get("files") or ():
            if path in self.files or path.rpartition("/")[0] in self.folders:
                return True
        scope = memory.get("scope")
        if scope is not None and scope in self.folders and scope != "":
            return True
        return any(by.get("source") in self.hooks for by in memory.get("recalled_by", ()))
