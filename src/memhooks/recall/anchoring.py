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

    from .outcome import Recalled


class Anchor:
    """A ``keep`` test for :func:`memhooks.recall.recall_result`: ``folders`` and
    ``files`` root-relative (``""`` is the root), ``hooks`` the absolute paths of the
    target folders' own hook files. Calling it with a memory says why the memory is kept
    (:meth:`__call__`); recall gives a memory kept for a file it touched or for its scope
    that reason as ``anchored_by`` (``"anchored to billing/invoice.py"`` — a commit's:
    ``"touched billing/invoice.py"`` —, ``"scoped to billing"``): what brought it,
    rather than the query that happened to rank it.
    ``commits``: keep history memories (a commit's) too; False when line-level recall
    tells the commits that own the lines touched instead of those that touched the file
    (issue 20 item 2)."""

    __slots__ = ("commits", "files", "folders", "hooks")

    def __init__(
        self,
        folders: Iterable[str],
        files: Iterable[str],
        hooks: Iterable[str],
        *,
        commits: bool = True,
    ) -> None:
        self.folders = frozenset(folders)
        self.files = frozenset(files)
        self.hooks = frozenset(hooks)
        self.commits = commits

    def __call__(self, memory: Recalled) -> str | None:
        """Why ``memory`` belongs to the targets — ``"anchored to <file>"`` (a commit's
        memory: ``"touched <file>"``), ``"scoped to
        <folder>"``, or ``""`` when a target folder's own hook recalled it — or None when
        it does not."""
        if not self.commits and memory.commit:
            return None
        paths = memory.files
        touched = [p for p in paths if p in self.files] or [
            p for p in paths if p.rpartition("/")[0] in self.folders
        ]
        if touched:  # a commit touched the file; a note or a conversation is anchored to it
            return f"{'touched' if memory.commit else 'anchored to'} {touched[0]}"
        scope = memory.scope
        if scope is not None and scope in self.folders and scope != "":
            return f"scoped to {scope}"
        if any(by.get("source") in self.hooks for by in memory.recalled_by):
            return ""
        return None

    @classmethod
    def for_target(cls, root: str, target: str, active: Iterable[str] = ()) -> Anchor:
        """The anchor of one tool event at ``target`` (a folder or file under the
        canonical ``root``) with the root-relative ``active`` files: what
        ``memhooks recall --tool-time`` keeps."""
        import os

        from ..paths import relative
        from ..protocol import HOOK_NAME

        real = os.path.realpath(target)
        folder = real if os.path.isdir(real) else os.path.dirname(real)
        files = list(active)
        if not os.path.isdir(real):
            files.append(relative(real, root))
        return cls([relative(folder, root)], files, [os.path.join(folder, HOOK_NAME)])


#: Most files of one folder remembered as having anchored memories.
MAX_ANCHORED_FILES = 500


def anchored_files(
    backend: object, project: str, folder: str, besides: set[str], *, commits: bool = True
) -> list[str]:
    """Root-relative files directly in ``folder`` that memories not in ``besides`` (ids
    the session has) touched — not counting commits' memories unless ``commits`` —
    when ``backend`` can say (the embedded store; others cannot, nor a backend that did
    not open: then none, and tool-time recall works per folder only). Never raises."""
    from ..backends.capabilities import AnchorsFiles
    from ..errors import MemhooksError

    if not isinstance(backend, AnchorsFiles):
        return []
    try:
        found = backend.anchored_files(
            project, folder, besides=besides, limit=MAX_ANCHORED_FILES, commits=commits
        )
    except MemhooksError:
        return []
    return found
