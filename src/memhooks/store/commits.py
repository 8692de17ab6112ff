"""The git commits a history memory was made of (schema version 6, table ``commits``).

Beside each memory ``memhooks history import`` makes of a commit, one row per commit
that carries its change (a change cherry-picked to another branch is one memory with two
rows): the full ``hash``, the ``author`` name, ``authored_at`` (ISO 8601 UTC),
``low_signal`` (why the commit says little — :func:`memhooks.history.signal.low_signal`
— or None) and the ``format`` of the mapping that wrote the memory (a re-import rewrites
the memories of an older one; memories imported before version 6 have no row at all).

Readers: tool-time recall leaves low-signal memories out (:data:`HIGH_SIGNAL`, a
condition on ``m``); line-level recall finds the memory of a blamed commit
(:func:`by_hash`); recall shows the commit a memory came from (:func:`commit_of`,
:func:`short`). The importer's writes are :mod:`memhooks.store.commit_writes`, a module
the hook never loads.
"""

from __future__ import annotations

from . import rows

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterable

    from .memory import Memory

#: A history memory's ``source``: this prefix, then the full hash of its commit.
SOURCE_PREFIX = "git:"
#: Hex digits of a commit hash shown to the model: enough for ``git show`` in a history
#: of millions of objects (git's own abbreviation grows to 12 at about 16 million).
SHORT = 12
#: SQL condition on a memory row aliased ``m``: not a low-signal commit.
HIGH_SIGNAL = (
    "NOT EXISTS (SELECT 1 FROM commits c WHERE c.memory = m.pk AND c.low_signal IS NOT NULL)"
)
#: SQL condition on a memory row aliased ``m``: not made of a commit (a remembered note,
#: a conversation): the memories line-level recall does not tell by their commits.
NOT_A_COMMIT = "NOT EXISTS (SELECT 1 FROM commits c WHERE c.memory = m.pk)"


def commit_of(source: str) -> str | None:
    """The full hash a memory's ``source`` names (``git:<hash>``), else None."""
    if source.startswith(SOURCE_PREFIX) and len(source) > len(SOURCE_PREFIX):
        return source[len(SOURCE_PREFIX) :]
    return None


def short(hash: str) -> str:
    """The first :data:`SHORT` hex digits of a commit ``hash``."""
    return hash[:SHORT]


def by_hash(conn: sqlite3.Connection, project: str, names: Iterable[str]) -> dict[str, Memory]:
    """The memories of ``project`` made of the commits ``names`` (full hashes, or
    abbreviations of at least 4 hex digits): ``{name: memory}``; a name that matches no
    imported commit, or abbreviates commits of two memories, is left out."""
    found: dict[str, Memory] = {}
    for name in dict.fromkeys(names):
        key = name.strip().lower()
        if len(key) < 4 or any(ch not in "0123456789abcdef" for ch in key):
            continue
        hits = conn.execute(
            f"SELECT DISTINCT {rows.COLUMNS} FROM commits c CROSS JOIN memories m"
            " ON m.pk = c.memory"
            " WHERE c.hash >= ? AND c.hash < ? AND m.project = ? LIMIT 2",
            (key, key + "g", project),
        ).fetchall()
        if len(hits) == 1:
            found[name] = rows.from_row(hits[0])
    return found


#: The commits of a project whose one memory is obsolete (parameters: the project, twice).
#: From the project's memories to their commits (the memories' project index, then each
#: commit by its key): from the commits side, SQLite read every commit of the store.
OBSOLETE = (
    "SELECT DISTINCT c.hash FROM memories m JOIN commits c ON c.memory = m.pk"
    " WHERE m.project = ? AND m.obsolete = 1 AND NOT EXISTS (SELECT 1 FROM commits o"
    " JOIN memories n ON n.pk = o.memory WHERE o.hash = c.hash AND o.memory != c.memory"
    " AND n.project = ?)"
)
#: The commits of a project whose memory names another as its source (parameters: the
#: project, :data:`SOURCE_PREFIX`).
ELSEWHERE = (
    "SELECT DISTINCT c.hash FROM memories m JOIN commits c ON c.memory = m.pk"
    " WHERE m.project = ? AND m.source IS NOT (? || c.hash)"
)


def marks(conn: sqlite3.Connection, project: str) -> tuple[list[str], list[str]]:
    """What :func:`by_hash` can say of any commit of ``project``, as one read a hook keeps
    beside the store's state (:mod:`memhooks.session.marks`): ``(obsolete, elsewhere)`` —
    the full hashes whose memory (the only one :func:`by_hash` finds by that hash) is
    obsolete, and the hashes whose memory names another commit as its source (a change
    cherry-picked, a history rewritten since the import): a session given that memory
    claimed the commit its source names, not this one (:func:`memhooks.hook.deliver.deliver`).
    Reads the project's memories and their commits, not the store's other projects'."""
    obsolete = conn.execute(OBSOLETE, (project, project)).fetchall()
    elsewhere = conn.execute(ELSEWHERE, (project, SOURCE_PREFIX)).fetchall()
    return sorted(str(h) for (h,) in obsolete), sorted(str(h) for (h,) in elsewhere)
