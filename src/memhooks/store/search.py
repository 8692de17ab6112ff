"""Finding memories: FTS5/BM25 full-text search and the folder-cue candidate query.

Kept apart from the store class so other rankers can sit beside :func:`search`
without touching storage: :mod:`.ranking` (the recall hook's bounded queries) and
:mod:`.semantic` (embeddings).
"""

from __future__ import annotations

from memhooks.errors import StoreError

from ..fast.jsonfast import dumps
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
    found: dict[str, None] = {}  # ordered, and a set: a pasted page must not cost n² (issue 14)
    current: list[str] = []
    kept = 0
    for ch in text + " ":
        if ch.isalnum() or (not ch.isascii() and ch.isprintable() and not ch.isspace()):
            current.append(ch)
            continue
        if current:
            word = "".join(current).lower()
            current = []
            if any(c.isalnum() for c in word) and word not in found:
                found[word] = None
                kept += word not in STOPWORDS
                if kept == MAX_TERMS:
                    break  # what follows could only be dropped
    listed = list(found)
    return ([word for word in listed if word not in STOPWORDS] or listed)[:MAX_TERMS]


def match_expression(text: str) -> str:
    """An FTS5 MATCH expression for free text: :func:`words`, quoted, joined by ``OR``,
    and the names of code it says as phrases (:func:`name_phrases`: a memory saying
    ``no_proxy`` scores that phrase beside the words ``proxy``...).

    No input can form FTS5 syntax, so ``AND``/``NEAR`` are plain words. ``""``
    means "nothing to search for".
    """
    return either(any_of(words(text)), any_of(name_phrases(text)))


def either(words: str, phrases: str) -> str:
    """An FTS5 expression matching ``words`` or ``phrases`` (either may be empty)."""
    return " OR ".join(part for part in (words, phrases) if part)


#: Names of code a query's phrases are made of, at most (:func:`name_phrases`).
MAX_NAMES = 4


def name_phrases(text: str) -> list[str]:
    """The names of code ``text`` says (:func:`memhooks.words.code_names`), each as the
    words FTS5 reads in it (``no_proxy`` → ``no proxy``, ``src/requests/utils.py`` →
    ``src requests utils py``), for :func:`any_of` to quote as phrases: the store's
    tokenizer splits a name at ``_``, ``.`` and ``/``, so only a phrase keeps its words
    together. A name of one word (``mergeWindows``, ``PostgreSQL``) is none: it is one
    of the words searched already. At most :data:`MAX_NAMES`."""
    return phrases_of(said_names(text) or [])


def said_names(text: str) -> list[str] | None:
    """:func:`memhooks.words.code_names` of ``text`` when it may hold a name of two words
    or more (:func:`_joined`), else None — unread: :mod:`memhooks.words` stays unloaded
    (the prompt hook loads it only for such a prompt)."""
    if not _joined(text):
        return None
    from ..words import code_names

    return code_names(text)


def phrases_of(names: Iterable[str]) -> list[str]:
    """The names of code ``names`` (:func:`memhooks.words.code_names`) as phrases, as
    :func:`name_phrases` says; at most :data:`MAX_NAMES`."""
    out: dict[str, None] = {}
    for name in names:
        spaced = "".join(ch if ch.isalnum() else " " for ch in name).lower().split()
        if len(spaced) > 1:
            out.setdefault(" ".join(spaced), None)
    return list(out)[:MAX_NAMES]


def _joined(text: str) -> bool:
    """Whether ``text`` may hold a name of two words or more: one joined by ``_``, ``/``
    or an inner ``.``, or something in backquotes."""
    return any(c in text for c in "_/`") or "." in text.replace(". ", " ").rstrip(".")


def any_of(terms: Iterable[str]) -> str:
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
    params: list[Any] = [in_project(project, expression), project]
    clauses = _filters(scopes, files, tags, entities, include_obsolete)
    for clause, value in clauses:
        sql += f" AND {clause}"
        params.extend(value)
    # bm25() is lower-is-better; the id breaks ties so a fixed store ranks the same way twice.
    sql += " ORDER BY score, m.id LIMIT ?"
    params.append(limit)
    rows = conn.execute(sql, params).fetchall()
    return [(from_row(row), -row[-1]) for row in rows]


def in_project(project: str, expression: str) -> str:
    """``expression`` limited to ``project``'s memories (its ``project_key`` token)."""
    if not expression:
        return ""
    key = "p" + project.encode("utf-8").hex() + "x"
    return f'project_key:"{key}" AND ({expression})'


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
        for pk, scope, created_at, memory_id in conn.execute(sql, (dumps(file_list), project)):
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
        (dumps(chosen),),
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
            params.append(dumps(_scopes(scopes)))
        if files is not None:
            where.append(
                "EXISTS (SELECT 1 FROM memory_files f WHERE f.memory = m.pk"
                " AND f.path IN (SELECT value FROM json_each(?)))"
            )
            params.append(dumps(_files(files)))
        out.append(("(" + " OR ".join(where) + ")", params))
    for column, values in (("tags", tags), ("entities", entities)):
        if values is not None:
            wanted = [value.strip().translate(_ASCII_LOWER) for value in values]
            clause = (
                f"EXISTS (SELECT 1 FROM json_each(m.{column}) WHERE lower(value)"
                " IN (SELECT value FROM json_each(?)))"
            )
            out.append((clause, [dumps(wanted)]))
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
