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

#: bm25() weights in ``memories_fts`` column order: text, tags, entities, files, kind.
#: A word that someone chose as a tag or entity says more than one in running text.
WEIGHTS = (1.0, 2.0, 2.0, 1.5, 0.5)
#: Query words beyond this many are ignored (bounds the cost of a pasted paragraph).
MAX_TERMS = 32
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


def match_expression(text: str) -> str:
    """An FTS5 MATCH expression for free text: quoted words joined by ``OR``.

    Words are runs of letters, digits and non-ASCII symbols; ASCII punctuation
    (``" * ( ) - : ^``...) only separates, so no input can form FTS5 syntax and
    ``AND``/``NEAR`` are plain words. Stopwords are dropped unless nothing else is
    left; repeats and words past :data:`MAX_TERMS` are dropped. ``""`` means
    "nothing to search for".
    """
    words: list[str] = []
    current: list[str] = []
    for ch in text + " ":
        if ch.isalnum() or (not ch.isascii() and ch.isprintable() and not ch.isspace()):
            current.append(ch)
            continue
        if current:
            word = "".join(current).lower()
            current = []
            if any(c.isalnum() for c in word) and word not in words:
                words.append(word)
    kept = [word for word in words if word not in STOPWORDS] or words
    return " OR ".join(f'"{word}"' for word in kept[:MAX_TERMS])


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
    weights = ", ".join(str(weight) for weight in WEIGHTS)
    sql = (
        f"SELECT {COLUMNS}, bm25(memories_fts, {weights}) AS score"
        " FROM memories_fts JOIN memories m ON m.pk = memories_fts.rowid"
        " WHERE memories_fts MATCH ? AND m.project = ?"
    )
    params: list[Any] = [expression, project]
    clauses = _filters(scopes, files, tags, entities, include_obsolete)
    for clause, value in clauses:
        sql += f" AND {clause}"
        params.extend(value)
    # bm25() is lower-is-better; the id breaks ties so a fixed store ranks the same way twice.
    sql += " ORDER BY score, m.id LIMIT ?"
    params.append(limit)
    rows = conn.execute(sql, params).fetchall()
    return [(from_row(row), -row[-1]) for row in rows]


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
    live = "" if include_obsolete else " AND m.obsolete = 0"
    # A UNION of two index lookups instead of one OR, which would scan the project.
    sql = (
        "WITH hits (pk, by_file) AS ("
        " SELECT pk, 0 FROM memories WHERE project = ? AND scope IN (SELECT value FROM json_each(?))"
        " UNION ALL"
        " SELECT memory, 1 FROM memory_files WHERE path IN (SELECT value FROM json_each(?)))"
        f" SELECT {COLUMNS}, max(h.by_file) AS by_file,"
        " (m.scope != '') + length(m.scope) - length(replace(m.scope, '/', '')) AS depth"
        " FROM hits h JOIN memories m ON m.pk = h.pk"
        f" WHERE m.project = ?{live}"
        " GROUP BY m.pk"
        " ORDER BY by_file DESC, depth DESC, m.created_at DESC, m.id DESC LIMIT ?"
    )
    params = (project, json.dumps(scope_list), json.dumps(file_list), project, limit)
    return [from_row(row) for row in conn.execute(sql, params).fetchall()]


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
