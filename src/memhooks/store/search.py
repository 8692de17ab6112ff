"""Finding memories: FTS5/BM25 full-text search and the folder-cue candidate query.

Kept apart from the store class so a second ranker (e.g. embeddings fused with
BM25) can sit beside :func:`search` without touching storage.
"""

from __future__ import annotations

import json

from memhooks.errors import StoreError

from .rows import COLUMNS, from_row
from .scope import normalize_file, normalize_scope

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterable
    from typing import Any

    from .memory import Memory

#: bm25() weights in ``memories_fts`` column order: text, tags, entities, files, kind,
#: project_key. A word that someone chose as a tag or entity says more than one in
#: running text; the project token only selects (weight 0: it adds nothing to a score).
WEIGHTS = (1.0, 2.0, 2.0, 1.5, 0.5, 0.0)
#: Query words beyond this many are ignored (bounds the cost of a pasted paragraph).
MAX_TERMS = 32
#: :func:`ranked` drops a word found in more of the project's memories than this.
COMMON = 2000
#: ... and words beyond this many (memory, word) pairs in all, rarest kept first.
POSTINGS = 8000
_WEIGHTS = ", ".join(str(weight) for weight in WEIGHTS)
# fmt: off
STOPWORDS = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "can", "do", "does", "for",
    "from", "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my",
    "no", "not", "of", "on", "or", "our", "should", "so", "that", "the", "their", "them",
    "then", "there", "these", "this", "to", "was", "we", "were", "what", "when", "where",
    "which", "who", "why", "will", "with", "you", "your",
})
# fmt: on
# SQLite's lower() folds ASCII only; fold the same way on our side so filters agree.
_ASCII_LOWER = {code: code + 32 for code in range(ord("A"), ord("Z") + 1)}


def words(text: str) -> list[str]:
    """The searchable words of free text, lower-cased, first occurrences in order.

    Words are runs of letters, digits and non-ASCII symbols; ASCII punctuation
    (``" * ( ) - : ^``...) only separates. Stopwords are dropped unless nothing
    else is left; words past :data:`MAX_TERMS` are dropped.
    """
    found: list[str] = []
    current: list[str] = []
    for ch in text + " ":
        if ch.isalnum() or (not ch.isascii() and ch.isprintable() and not ch.isspace()):
            current.append(ch)
            continue
        if current:
            word = "".join(current).lower()
            current = []
            if any(c.isalnum() for c in word) and word not in found:
                found.append(word)
    kept = [word for word in found if word not in STOPWORDS] or found
    return kept[:MAX_TERMS]


def match_expression(text: str) -> str:
    """An FTS5 MATCH expression for free text: :func:`words`, quoted, joined by ``OR``.

    No input can form FTS5 syntax, so ``AND``/``NEAR`` are plain words. ``""``
    means "nothing to search for".
    """
    return _any(words(text))


def _any(terms: Iterable[str]) -> str:
    return " OR ".join(f'"{term}"' for term in terms)


def search(
    conn: sqlite3.Connection,
    project: str,
    query_text: str,
    *,
    limit: int,
    scopes: Iterable[str] | None,
    files: Iterable[str] | None,
    tags: Iterable[str] | None,
    entities: Iterable[str] | None,
    include_obsolete: bool,
) -> list[tuple[Memory, float]]:
    """See :meth:`memhooks.store.MemoryStore.search`."""
    expression = match_expression(query_text)
    if not expression or limit <= 0:
        return []
    sql = (
        f"SELECT {COLUMNS}, bm25(memories_fts, {_WEIGHTS}) AS score"
        " FROM memories_fts JOIN memories m ON m.pk = memories_fts.rowid"
        " WHERE memories_fts MATCH ? AND m.project = ?"
    )
    params: list[Any] = [_in_project(project, expression), project]
    clauses = _filters(scopes, files, tags, entities, include_obsolete)
    for clause, value in clauses:
        sql += f" AND {clause}"
        params.extend(value)
    # bm25() is lower-is-better; the id breaks ties so a fixed store ranks the same way twice.
    sql += " ORDER BY score, m.id LIMIT ?"
    params.append(limit)
    rows = conn.execute(sql, params).fetchall()
    return [(from_row(row), -row[-1]) for row in rows]


def ranked(
    conn: sqlite3.Connection,
    project: str,
    query_text: str,
    *,
    limit: int,
    frequencies: dict[str, int] | None = None,
    include_obsolete: bool = False,
) -> list[tuple[int, float]]:
    """BM25 search with bounded work: ``[(pk, score)]``, best first, at most ``limit``.

    The recall hook's search. :func:`search` scores every memory of the project that
    shares a word with the query, and on a large store common words match a third of
    the rows at about a microsecond each. Here each word's document frequency in the
    project is counted first, up to :data:`COMMON` (over the whole store when the
    project holds most of it; ``frequencies`` memoizes the counts: pass one dict per
    state of the store). Words are then kept rarest first
    while each occurs in at most :data:`COMMON` memories and all together in at most
    :data:`POSTINGS`; only kept words match and score. A dropped word is so common
    that BM25 gives it little weight; a memory that matches only dropped words is not
    found. When every word is common, all words score against the newest
    :data:`COMMON` matching memories only. When no word is dropped, the result is
    exactly :func:`search`'s: same scores, ties broken by id.
    """
    terms = words(query_text)
    if not terms or limit <= 0:
        return []
    counts = {} if frequencies is None else frequencies
    prefix = f"{project}\x1f"
    if prefix not in counts:  # 1 when the project holds most of the store
        mine, total = conn.execute(
            "SELECT (SELECT count(*) FROM memories WHERE project = ?),"
            " (SELECT count(*) FROM memories)",
            (project,),
        ).fetchone()
        counts[prefix] = int(2 * mine >= total)
    # Counting inside a project that is most of the store costs ten times more than
    # counting in all of it, for nearly the same number.
    scope = None if counts[prefix] else project
    for term in terms:
        if prefix + term not in counts:
            counts[prefix + term] = _frequency(conn, scope, term, COMMON + 1)
    count = {term: counts[prefix + term] for term in terms}
    live = [term for term in terms if count[term]]
    chosen: set[str] = set()
    total = 0
    for term in sorted(live, key=count.__getitem__):  # stable: query order breaks ties
        if count[term] > COMMON or total + count[term] > POSTINGS:
            break
        chosen.add(term)
        total += count[term]
    expression = _in_project(project, _any(t for t in live if t in chosen))
    window: tuple[int, ...] = ()
    if live and not chosen:  # every word is common: score the newest matches only
        expression = _in_project(project, _any(live))
        oldest = conn.execute(
            "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?"
            " ORDER BY rowid DESC LIMIT 1 OFFSET ?",
            (expression, COMMON - 1),
        ).fetchone()
        window = () if oldest is None else (oldest[0],)
    if not live:
        return []
    return _top(conn, expression, window, limit, include_obsolete)


def _top(
    conn: sqlite3.Connection,
    expression: str,
    window: tuple[int, ...],
    limit: int,
    include_obsolete: bool,
) -> list[tuple[int, float]]:
    """The best ``limit`` live matches of ``expression``, by (score, id).

    FTS5 sorts by score alone, without a join per match; the rows it hands over are
    then filtered (obsolete) and tie-broken by id. If that could have cut a tie or
    left too few rows, ask again for more, so the result is what a full sort gives.
    """
    sql = (
        f"SELECT rowid, bm25(memories_fts, {_WEIGHTS}) AS score FROM memories_fts"
        f" WHERE memories_fts MATCH ?{' AND rowid >= ?' if window else ''}"
        " ORDER BY score LIMIT ?"
    )
    live = "" if include_obsolete else " AND obsolete = 0"
    fetch = limit + 16
    while True:
        best = conn.execute(sql, (expression, *window, fetch)).fetchall()
        scores = dict(best)
        ids = conn.execute(
            f"SELECT pk, id FROM memories WHERE pk IN (SELECT value FROM json_each(?)){live}",
            (json.dumps(list(scores)),),
        ).fetchall()
        ordered = sorted(ids, key=lambda row: (scores[row[0]], row[1]))[:limit]
        exhausted = len(best) < fetch
        if exhausted or (len(ordered) == limit and best[-1][1] > scores[ordered[-1][0]]):
            return [(pk, -scores[pk]) for pk, _ in ordered]
        fetch *= 4


def _in_project(project: str, expression: str) -> str:
    """``expression`` limited to ``project``'s memories (its ``project_key`` token)."""
    if not expression:
        return ""
    key = "p" + project.encode("utf-8").hex() + "x"
    return f'project_key:"{key}" AND ({expression})'


def _frequency(conn: sqlite3.Connection, project: str | None, term: str, cap: int) -> int:
    """In how many memories of ``project`` (None: of all projects) ``term`` occurs,
    counting up to ``cap``."""
    phrase = f'"{term}"'
    expression = phrase if project is None else _in_project(project, phrase)
    sql = "SELECT count(*) FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? LIMIT ?)"
    found: int = conn.execute(sql, (expression, cap)).fetchone()[0]
    return found


def cue(
    conn: sqlite3.Connection,
    project: str,
    scope: str | None,
    files: Iterable[str],
    *,
    limit: int,
    include_obsolete: bool = False,
) -> list[int]:
    """The folder cue of a recall, as pks: memories related to ``files``, most shared
    files first, then deeper scope, newest, id descending; then memories scoped exactly
    to ``scope``, newest first. At most ``limit``.

    Paths that cannot be a root-relative file are ignored (a hook may name anything).
    """
    wanted = []
    for path in files:
        try:
            wanted.append(normalize_file(path))
        except (TypeError, ValueError):
            continue
    if limit <= 0 or not (wanted or scope is not None):
        return []
    live = "" if include_obsolete else " AND obsolete = 0"
    live_m = "" if include_obsolete else " AND m.obsolete = 0"
    depth = "length(m.scope) - length(replace(m.scope, '/', '')) + (m.scope != '')"
    # The grouping runs in SQLite: a file touched by thousands of memories would cost
    # milliseconds as Python rows.
    sql = (
        "WITH shared (pk, n) AS (SELECT memory, count(*) FROM memory_files"
        "  WHERE path IN (SELECT value FROM json_each(?)) GROUP BY memory),"
        " here (pk) AS (SELECT pk FROM memories WHERE project = ? AND scope = ?"
        f"  {live} ORDER BY created_at DESC, id DESC LIMIT ?)"
        " SELECT m.pk FROM (SELECT pk, n FROM shared UNION ALL"
        "  SELECT pk, 0 FROM here WHERE pk NOT IN (SELECT pk FROM shared)) AS c"
        f" JOIN memories m ON m.pk = c.pk WHERE m.project = ?{live_m}"
        f" ORDER BY c.n DESC, {depth} DESC, m.created_at DESC, m.id DESC LIMIT ?"
    )
    params = (json.dumps(list(dict.fromkeys(wanted))), project, scope, limit, project, limit)
    return [pk for (pk,) in conn.execute(sql, params)]


def memories(conn: sqlite3.Connection, pks: Iterable[int]) -> dict[int, Memory]:
    """The memories with these pks (one query); a pk deleted meanwhile is left out."""
    found = conn.execute(
        f"SELECT m.pk, {COLUMNS} FROM memories m WHERE m.pk IN (SELECT value FROM json_each(?))",
        (json.dumps(list(pks)),),
    )
    return {row[0]: from_row(row[1:]) for row in found}


def candidates(
    conn: sqlite3.Connection,
    project: str,
    scopes: Iterable[str],
    files: Iterable[str],
    *,
    limit: int,
    include_obsolete: bool,
) -> list[Memory]:
    """See :meth:`memhooks.store.MemoryStore.candidates_by_scope`."""
    scope_list = _scopes(scopes)
    file_list = _files(files)
    if limit <= 0 or not (scope_list or file_list):
        return []
    live = "" if include_obsolete else " AND obsolete = 0"
    # pk -> sort key (about a file, scope depth, created_at, id), all descending.
    keys: dict[int, tuple[int, int, str, str]] = {}
    if file_list:
        sql = (
            "SELECT m.pk, m.scope, m.created_at, m.id FROM memory_files f"
            " JOIN memories m ON m.pk = f.memory"
            f" WHERE f.path IN (SELECT value FROM json_each(?)) AND m.project = ?{live}"
        )
        for pk, scope, created_at, memory_id in conn.execute(sql, (json.dumps(file_list), project)):
            keys[pk] = (1, _depth(scope), created_at, memory_id)
    # One query per folder, each reading only the newest `limit` rows off the
    # (project, scope, created_at, id) index: the root folder of a big project
    # holds thousands of memories, and sorting them all costs tens of ms.
    sql = (
        f"SELECT pk, created_at, id FROM memories WHERE project = ? AND scope = ?{live}"
        " ORDER BY created_at DESC, id DESC LIMIT ?"
    )
    for scope in dict.fromkeys(scope_list):
        for pk, created_at, memory_id in conn.execute(sql, (project, scope, limit)):
            keys.setdefault(pk, (0, _depth(scope), created_at, memory_id))
    chosen = sorted(keys, key=keys.__getitem__, reverse=True)[:limit]
    found = conn.execute(
        f"SELECT m.pk, {COLUMNS} FROM memories m WHERE m.pk IN (SELECT value FROM json_each(?))",
        (json.dumps(chosen),),
    )
    memories = {row[0]: from_row(row[1:]) for row in found}
    # A memory deleted by another process between the queries is simply left out.
    return [memories[pk] for pk in chosen if pk in memories]


def _depth(scope: str) -> int:
    return scope.count("/") + 1 if scope else 0


def _filters(
    scopes: Iterable[str] | None,
    files: Iterable[str] | None,
    tags: Iterable[str] | None,
    entities: Iterable[str] | None,
    include_obsolete: bool,
) -> list[tuple[str, list[Any]]]:
    """SQL conditions on ``m`` with their parameters; lists travel as one JSON parameter."""
    out: list[tuple[str, list[Any]]] = []
    if not include_obsolete:
        out.append(("m.obsolete = 0", []))
    if scopes is not None or files is not None:
        where = []
        params: list[Any] = []
        if scopes is not None:
            where.append("m.scope IN (SELECT value FROM json_each(?))")
            params.append(json.dumps(_scopes(scopes)))
        if files is not None:
            where.append(
                "EXISTS (SELECT 1 FROM memory_files f WHERE f.memory = m.pk"
                " AND f.path IN (SELECT value FROM json_each(?)))"
            )
            params.append(json.dumps(_files(files)))
        out.append(("(" + " OR ".join(where) + ")", params))
    for column, values in (("tags", tags), ("entities", entities)):
        if values is not None:
            wanted = [value.strip().translate(_ASCII_LOWER) for value in values]
            clause = (
                f"EXISTS (SELECT 1 FROM json_each(m.{column}) WHERE lower(value)"
                " IN (SELECT value FROM json_each(?)))"
            )
            out.append((clause, [json.dumps(wanted)]))
    return out


def _scopes(scopes: Iterable[str]) -> list[str]:
    try:
        return [normalize_scope(scope) for scope in _listed("scopes", scopes)]
    except (TypeError, ValueError) as exc:
        raise StoreError(f"cannot filter by scope: {exc}") from None


def _files(files: Iterable[str]) -> list[str]:
    try:
        return [normalize_file(path) for path in _listed("files", files)]
    except (TypeError, ValueError) as exc:
        raise StoreError(f"cannot filter by file: {exc}") from None


def _listed(name: str, values: Iterable[str]) -> list[str]:
    if isinstance(values, str):
        raise TypeError(f"`{name}` must be a list of strings, not one string")
    return list(values)
