"""What ``memhooks history import`` writes of commits (table ``commits``, schema version 6;
the rows themselves: :mod:`memhooks.store.commits`).

The importer reads what the store holds of its changes (:func:`stored`,
:func:`imported`) and writes through :func:`apply` and :func:`mark_reverted`, each in the
caller's write transaction, so that what it decides is decided against the store as it
is under the write lock (two imports at once each count what they really wrote). Apart
from the readers' module: recall, on every prompt, reads commit rows and never loads
these classes (issue 21, the hook's import set).
"""

from __future__ import annotations

from . import batch, rows, supersede

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Callable, Iterable, Sequence

    from .memory import Memory

#: Ids read per statement (SQLite's default limit on bound variables is 999).
CHUNK = 500

ADDED, UPDATED, PRESENT, EMPTY = "added", "updated", "present", "empty"


class CommitRow:
    """One commit of a change: ``hash`` (full hex), ``author`` (name), ``authored_at``
    (ISO 8601 UTC), ``low_signal`` (a reason, or None)."""

    __slots__ = ("author", "authored_at", "hash", "low_signal")

    def __init__(self, hash: str, author: str, authored_at: str, low_signal: str | None) -> None:
        self.hash = hash
        self.author = author
        self.authored_at = authored_at
        self.low_signal = low_signal


class Stored:
    """What the store holds of one imported change: its row's ``pk``, ``scope``,
    ``files`` (the stored JSON text: compared, never parsed), ``source``, ``format`` (the
    lowest format of its commit rows; 0 when it has none: imported before schema version
    6), ``hashes`` (its commits) and ``low`` (one of them is low-signal)."""

    __slots__ = ("files", "format", "hashes", "low", "pk", "scope", "source")

    def __init__(
        self,
        pk: int,
        scope: str,
        files: str,
        source: str,
        format: int,
        hashes: set[str],
        low: bool,
    ) -> None:
        self.pk = pk
        self.scope = scope
        self.files = files
        self.source = source
        self.format = format
        self.hashes = hashes
        self.low = low

    def same_place(self, want: Wanted) -> bool:
        """Whether ``want`` has this scope, files and source (or did not read them)."""
        if want.files is None:
            return True
        return (self.scope, self.source) == (want.scope, want.source) and self.files == (
            rows.dump_list(want.files)
        )


class Wanted:
    """One commit of a change, as the importer wants it stored: the memory ``id``, the
    commit ``hash``, ``row`` (makes its :class:`CommitRow`), the ``format`` of the
    mapping, and where the memory is (``scope``, ``files``, ``source``; ``files`` None: the
    import did not read them, a stored memory keeps its own); ``build`` makes
    the whole memory (text, kind, tags, created_at; None when the message is empty) —
    called only when it has to be written, since reading the message is the costly part.
    Without ``build``, the commit is another commit of a change stored already (a
    cherry-pick): its row is added to that memory, which is left as it is."""

    __slots__ = ("build", "files", "format", "hash", "id", "row", "scope", "source")

    def __init__(
        self,
        id: str,
        hash: str,
        *,
        row: Callable[[], CommitRow],
        format: int,
        scope: str = "",
        files: list[str] | None = None,
        source: str = "",
        build: Callable[[], Memory | None] | None = None,
    ) -> None:
        self.id = id
        self.hash = hash
        self.row = row
        self.format = format
        self.scope = scope
        self.files = files
        self.source = source
        self.build = build


def stored(conn: sqlite3.Connection, project: str, ids: Iterable[str]) -> dict[str, Stored]:
    """What ``project`` holds of the changes ``ids`` (those it has)."""
    wanted = list(dict.fromkeys(ids))
    found: dict[str, Stored] = {}
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start : start + CHUNK]
        marks = ",".join("?" * len(chunk))
        sql = (
            "SELECT m.id, m.pk, m.scope, m.files, m.source, coalesce(min(c.format), 0),"
            " group_concat(c.hash), count(c.low_signal)"
            " FROM memories m LEFT JOIN commits c ON c.memory = m.pk"
            f" WHERE m.project = ? AND m.id IN ({marks}) GROUP BY m.pk"
        )
        for memory_id, pk, scope, files, source, format, hashes, low in conn.execute(
            sql, (project, *chunk)
        ):
            commits = set(hashes.split(",")) if hashes else set()
            found[memory_id] = Stored(pk, scope, files, source, format, commits, low > 0)
    return found


def apply(
    conn: sqlite3.Connection, project: str, wanted: Sequence[Wanted]
) -> dict[str, tuple[str, bool]]:
    """Store ``wanted`` in ``project`` (in the caller's transaction): a change the store
    lacks is added (unless its message is empty); one written by an older format is
    rewritten (its id, obsolete mark, successor, entities and creation time kept; tags
    and files joined with the new ones); one of the current format gets the ``scope``,
    ``files`` and ``source`` wanted when they differ (a rename since, a rebase); a commit
    the store lacks gets its row. Returns ``{id: (what was done, low-signal)}`` for the
    wanted with ``build`` — done is ``"added"``, ``"updated"``, ``"present"`` or
    ``"empty"``; low-signal says whether one of its commits is. Raises ValueError/TypeError from
    :func:`memhooks.store.batch.clean` for a memory that cannot be stored."""

    now = stored(conn, project, [w.id for w in wanted])
    pks = {memory_id: have.pk for memory_id, have in now.items()}
    known = {memory_id: have.hashes for memory_id, have in now.items()}
    outcome: dict[str, tuple[str, bool]] = {}
    new_rows: dict[str, list[tuple[object, ...]]] = {
        "INSERT OR IGNORE": [],
        "INSERT OR REPLACE": [],
    }

    def add_row(pk: int, want: Wanted, verb: str) -> None:
        row = want.row()
        values = (pk, row.hash, row.author, row.authored_at, row.low_signal, want.format)
        new_rows[verb].append(values)

    for want in wanted:
        if want.build is None or want.id in outcome:  # another commit of a stored change
            if want.id in pks and want.hash not in known[want.id]:
                add_row(pks[want.id], want, "INSERT OR IGNORE")
                known[want.id].add(want.hash)
            continue
        have = now.get(want.id)
        if have is None:
            memory = want.build()
            if memory is None:
                outcome[want.id] = (EMPTY, False)
                continue
            pks[want.id] = rows.insert(conn, batch.clean(project, memory))
            add_row(pks[want.id], want, "INSERT OR IGNORE")
            known[want.id] = {want.hash}
            outcome[want.id] = (ADDED, want.row().low_signal is not None)
            continue
        if have.format < want.format and _rewrite(conn, project, want):
            done = UPDATED
        elif not have.same_place(want):
            conn.execute(
                "UPDATE memories SET scope = ?, files = ?, source = ? WHERE pk = ?",
                (want.scope, rows.dump_list(want.files or []), want.source, have.pk),
            )
            done = UPDATED
        else:
            if want.hash not in have.hashes:  # a commit rebased since: its row
                add_row(have.pk, want, "INSERT OR IGNORE")
                have.hashes.add(want.hash)
            outcome[want.id] = (PRESENT, have.low)
            continue
        add_row(have.pk, want, "INSERT OR REPLACE")
        conn.execute(  # the change's other commits (cherry-picks) are of this format too
            "UPDATE commits SET format = ? WHERE memory = ? AND format < ?",
            (want.format, have.pk, want.format),
        )
        have.hashes.add(want.hash)
        outcome[want.id] = (done, want.row().low_signal is not None)
    for verb, values in new_rows.items():  # one statement for the batch's commits
        conn.executemany(
            f"{verb} INTO commits (memory, hash, author, authored_at, low_signal, format)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            values,
        )
    return outcome


def _rewrite(conn: sqlite3.Connection, project: str, want: Wanted) -> bool:
    """Rewrite the memory ``want`` names from its commit; False when the commit's message
    now gives no text (the memory is left as it is)."""

    assert want.build is not None
    memory = want.build()
    old = rows.find(conn, project, want.id)
    if memory is None or old is None:
        return False
    new = batch.clean(project, memory)
    new.obsolete, new.superseded_by = old.obsolete, old.superseded_by
    new.entities = old.entities
    new.created_at = old.created_at
    new.tags = list(dict.fromkeys([*new.tags, *old.tags]))
    new.files = list(dict.fromkeys([*new.files, *old.files]))
    rows.update(conn, new)
    return True


def imported(
    conn: sqlite3.Connection, project: str, hashes: Sequence[str], format: int
) -> set[str]:
    """Which of ``hashes`` are commits of memories of ``project`` written by ``format``
    or a later one."""
    found: set[str] = set()
    for start in range(0, len(hashes), CHUNK):
        chunk = hashes[start : start + CHUNK]
        marks = ",".join("?" * len(chunk))
        sql = (
            # CROSS JOIN: commits first, by hash (left to choose, SQLite walked every
            # memory of the project: minutes for 50,000)
            "SELECT c.hash FROM commits c CROSS JOIN memories m ON m.pk = c.memory"
            f" WHERE c.hash IN ({marks}) AND c.format >= ? AND m.project = ?"
        )
        found.update(row[0] for row in conn.execute(sql, (*chunk, format, project)))
    return found


def mark_reverted(
    conn: sqlite3.Connection, project: str, marks: Sequence[tuple[str, str]]
) -> tuple[list[tuple[str, str]], int]:
    """Mark each ``(reverted id, revert id)`` of ``marks``, in order, obsolete and
    superseded by the revert (in the caller's transaction) where both memories are in
    ``project`` and the reverted one is live. Returns the marks made and how many named a
    reverted memory ``project`` does not hold. A memory already obsolete keeps its mark,
    so the first revert that names it is its successor."""

    made: list[tuple[str, str]] = []
    missing = 0
    for target, revert in marks:
        if target == revert or rows.find(conn, project, revert) is None:
            continue
        if supersede.mark_live(conn, project, target, revert):
            made.append((target, revert))
        elif rows.find(conn, project, target) is None:
            missing += 1
    return made, missing
