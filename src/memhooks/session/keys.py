"""The session ledger's vocabulary: every spelling of a key in the ``served`` and
``delivered`` tables of the state file (:mod:`memhooks.session.state`), in one module so
the hook, the tool-event shortcut (:mod:`memhooks.session.snapshot`), recall and
``sessions show`` agree.

Served targets (what a tool event was given, per epoch):

=================== ================================================================
``<folder>``        a root-relative folder given tool-time recall (``""``: the root):
                    :func:`folder`
``file:<path>``     a file given tool-time recall of its own: :func:`file`
``anchor:<path>``   a file of a served folder with anchored memories the session still
                    lacks, so reading it later recalls them: :func:`anchor`
``notice:store-missing`` the stderr line about a missing ``MEMHOOKS_STORE`` file was
                    said: :data:`STORE_MISSING`
``notice:compacted`` a compaction event began the epoch: :data:`COMPACTED`
``notice:invalid-hook:<hook>`` the stderr line about the invalid hook file ``hook``
                    (root-relative) left out of a chain was said: :func:`invalid_hook`
``notice:setting:<NAME>`` the stderr line about the setting ``NAME`` (no such setting,
                    or a ``MEMHOOKS_ROOT`` that cannot be a root) was said:
                    :func:`setting`
``lines:<path>#A-B`` lines A-B of a file whose read line-level recall handled (their
                    owners told, or nothing to tell): :func:`lines`; a read of other
                    lines of the file still tells their owners
=================== ================================================================

Delivered items (what reached the model, per epoch):

======================== ===========================================================
``<memory id>``          a memory, as its id
``guidance:<hook>``      a hook's guidance, by its hook file: :func:`guidance`
``commit:<hash>``        a commit told by line-level recall (full hash), or whose
                         history memory a recall delivered (claimed with its id, in
                         one write): :func:`commit`
``notice:unavailable``   the "memory unavailable" line: :data:`UNAVAILABLE`
``notice:partial``       the "partial answer" line: :data:`PARTIAL`
``notice:skipped:<hook>`` the line about an invalid hook left out: :func:`skipped`
``notice:left-out:<path>`` the line saying the owners of lines an edit of the file
                         replaces were left out for room: :func:`left_out`
======================== ===========================================================

Only strings: the tool-event shortcut imports this module.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection

FILE = "file:"
ANCHOR = "anchor:"
LINES = "lines:"
GUIDANCE = "guidance:"
COMMIT = "commit:"
#: The last line of any file: a read of the whole file is lines 1-WHOLE.
WHOLE = 10**9
#: The "memory unavailable" line (told once per session epoch, at prompt time).
UNAVAILABLE = "notice:unavailable"
#: The "partial answer" line (told once per session epoch).
PARTIAL = "notice:partial"
SKIPPED = "notice:skipped:"
SETTING = "notice:setting:"
INVALID_HOOK = "notice:invalid-hook:"
#: The served mark of the stderr line about a ``MEMHOOKS_STORE`` file that does not exist.
STORE_MISSING = "notice:store-missing"
#: The served mark of an epoch a compaction event began (``PreCompact``, ``PostCompact``):
#: a session start after it carries back what the epoch before told
#: (:mod:`memhooks.hook.compaction`).
COMPACTED = "notice:compacted"
LEFT_OUT = "notice:left-out:"
#: The line said once per epoch when the budget left a read no room for its owners.
READS_LEFT_OUT = "notice:reads-left-out"


def folder(rel: str) -> str:
    """The served key of the root-relative folder ``rel``."""
    return rel


def file(rel: str) -> str:
    """The served key of the root-relative file ``rel`` given recall of its own."""
    return FILE + rel


def anchor(rel: str) -> str:
    """The served key marking ``rel`` a file with anchored memories the session lacks."""
    return ANCHOR + rel


def lines(rel: str, first: int, last: int) -> str:
    """The served key of lines ``first``-``last`` (1-based, inclusive) of the
    root-relative file ``rel`` whose read line-level recall handled. What reaches a
    session once is a commit (:func:`commit`), not a file: the key is the range read, so
    only the same read again settles without recall."""
    return f"{LINES}{rel}#{first}-{last}"


def guidance(source: object) -> str:
    """The delivered key of the guidance of the hook file ``source``."""
    return f"{GUIDANCE}{source}"


def commit(full_hash: str) -> str:
    """The delivered key of a commit told by line-level recall, or whose history memory
    was delivered (:func:`memhooks.hook.deliver.deliver` claims both keys)."""
    return COMMIT + full_hash


def had(delivered: Collection[str], memory_id: str, commit_hash: str | None) -> bool:
    """Whether a session whose ledger is ``delivered`` has the memory ``memory_id``: its
    id is there, or it is made of a commit (``commit_hash``, full) that is
    (:func:`commit`: told by line-level recall, or delivered as another memory)."""
    return memory_id in delivered or (commit_hash is not None and COMMIT + commit_hash in delivered)


def setting(name: str) -> str:
    """The served key of the stderr line about the environment variable ``name``."""
    return SETTING + name


def left_out(rel: str) -> str:
    """The delivered key of the line saying that owners of lines an edit of ``rel``
    (root-relative) replaces were left out for room (said once per file and epoch)."""
    return LEFT_OUT + rel


def invalid_hook(rel: str) -> str:
    """The served key of the stderr line about the invalid hook ``rel`` (root-relative;
    the root hook's, said at an edit, carries its version: ``MEMHOOKS.md@<lstat key>``,
    :func:`memhooks.hook.maintenance._broken_root`)."""
    return INVALID_HOOK + rel


def skipped(rel: str) -> str:
    """The delivered key of the line about the invalid hook ``rel`` (root-relative)."""
    return SKIPPED + rel


def unread_anchor(served: set[str] | frozenset[str], rel: str) -> bool:
    """``rel`` is a file with anchored memories the session has not been given yet."""
    return ANCHOR + rel in served and FILE + rel not in served


def of(prefix: str, keys: set[str] | frozenset[str]) -> set[str]:
    """What follows ``prefix`` in each of ``keys`` that starts with it (e.g. the hashes of
    the commits delivered: ``of(COMMIT, delivered)``)."""
    return {key[len(prefix) :] for key in keys if key.startswith(prefix)}
