"""The recall hook's queries on a large store: bounded BM25, the folder cue, rows by pk.

They return row ids (pks), not memories: a recall fuses several ranked lists and
reads only the rows it keeps (:func:`memories`). Scores and tie-breaks are those of
:func:`memhooks.store.search.search`.

Over 300 lines on purpose: every bounded query of the hook's store, and what each counts
first (a word's document frequency), in one place.
"""

from __future__ import annotations

from ..fast.jsonfast import dumps
from .commits import NOT_A_COMMIT
from .rows import COLUMNS, from_row
from .scope import usable_files
from .search import _WEIGHTS, any_of, either, in_project, phrases_of, said_names, words

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterable

    from .memory import Memory

#: :func:`ranked` drops a word found in more of the project's memories than this
#: (on the 14,000-memory git/git set, BM25 gives such a word an idf under ~1.9)...
COMMON = 2000
#: ... and keeps words, rarest first, while their (memory, word) pairs sum to at most this.
#: Scoring costs about a microsecond a pair, on every prompt. The session benchmark
#: (bench/recall_quality.py on shared/bench/git, 495 tasks) gave, cited memory
#: delivered / MRR: 8,000 .507/.309, 5,000 .503/.307, 4,000 .508/.305, 3,000 .478 (an
#: earlier run): 4,000 keeps the quality and is ~1 ms faster on the hook bench's prompts.
POSTINGS = 4000
#: Release notes, by name (lower case, without a text extension): with ignore lists
#: (``.gitignore``, ``.dockerignore`` …) the files of a chore. A commit that touched only
#: such files and said one line ("ignore it", "no .idea ignore", "makin' history",
#: "Prepare changelog for next release": requests has 213) says nothing about code; at
#: the prompt it is a low-signal commit's memory (:func:`_without_chores`).
RELEASE_NOTES = frozenset(
    (
        "changelog",
        "change_log",
        "changes",
        "history",
        "news",
        "release-notes",
        "release_notes",
        "releasenotes",
    )
)
#: Extensions a release notes file is written with ("" : none).
NOTES_EXTENSIONS = frozenset(("", "md", "rst", "txt", "markdown", "adoc"))


def ranked(
    conn: sqlite3.Connection,
    project: str,
    query_text: str,
    *,
    limit: int,
    frequencies: dict[str, int] | None = None,
    include_obsolete: bool = False,
    names: bool = False,
    commits: bool = True,
) -> list[tuple[int, float]]:
    """BM25 search with bounded work: ``[(pk, score)]``, best first, at most ``limit``;
    without ``commits``, among the memories not made of a commit (the symbol cue's search:
    a note naming ``super_len`` came after the ten commits that name it, newcomer25).

    :func:`~memhooks.store.search.search` scores every memory of the project that
    shares a word with the query; on a large store common words match a third of the
    rows, at about a microsecond each. Here each word's document frequency in the
    project is counted first, up to :data:`COMMON` (over the whole store when the
    project holds most of it; ``frequencies`` memoizes the counts: pass one dict per
    state of the store). Words are kept rarest first while each occurs in at most
    :data:`COMMON` memories and all together in at most :data:`POSTINGS`; only kept
    words match and score. A dropped word is so common that BM25 gives it little
    weight; a memory that matches only dropped words is not found. When every word
    is common, all words score against the newest :data:`COMMON` matching memories
    only. When no word is dropped, the result is exactly ``search()``'s (which matches
    names as ``names`` does): same scores, ties broken by id.

    With ``names`` (the prompt's ranking), a name of code the query says
    (:func:`~memhooks.store.search.name_phrases`: ``no_proxy``, ``os.environ``, a path)
    is a strong cue: it is matched as a phrase too,
    so a memory that says it scores that phrase's BM25 beside its words' (the prompt
    "no_proxy is ignored when using sessions" put five one-line ``.gitignore`` commits,
    found by "ignored", before the commits about ``no_proxy``: FTS5 reads ``no_proxy``
    as the words ``no``, a stopword, and ``proxy``). Names are never dropped as common.
    On iproute2's 87 task prompts (33 name code) the prompt's ranking took the same time
    with them (median 2.2 ms, warm counts); a query of eight names, as symbol recall
    asks (:mod:`memhooks.recall.symbol_recall`, which matches names on its own), took
    7–12 ms instead of 2 ms, so other queries leave them out. With ``names``, a
    low-signal commit's memory is left out unless it says a name of the query
    (:func:`_without_chores`).
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
    # the query's names of code, read once: for its phrases, and again by _without_chores
    named = said_names(query_text) if live and names else None
    phrases = any_of(phrases_of(named)) if named else ""
    expression = in_project(project, either(any_of(t for t in live if t in chosen), phrases))
    window: tuple[int, ...] = ()
    if live and not chosen:  # every word is common: score the newest matches only
        expression = in_project(project, either(any_of(live), phrases))
        oldest = conn.execute(
            "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?"
            " ORDER BY rowid DESC LIMIT 1 OFFSET ?",
            (expression, COMMON - 1),
        ).fetchone()
        window = () if oldest is None else (oldest[0],)
    if not live:
        return []
    found = _top(conn, expression, window, limit, include_obsolete, commits)
    return _without_chores(conn, found, query_text, named) if names else found


def _without_chores(
    conn: sqlite3.Connection,
    found: list[tuple[int, float]],
    query_text: str,
    named: list[str] | None,
) -> list[tuple[int, float]]:
    """``found`` without the memories of low-signal commits (merges, bots' and version
    bumps, formatting, one-line chores: :func:`memhooks.history.signal.low_signal`) unless
    one says a name of code of the query (:func:`memhooks.words.code_names`, as written,
    any case; ``named``: those names when :func:`ranked` read them already, else None) or
    touched the file the query names by its path. They stay searchable (``memhooks
    memories search``) and never fill a tool-time delivery; at the prompt, requests'
    "ignore it" and "no .idea ignore" (``.gitignore``) filled it for the word "ignored".
    A commit of one line that touched only ignore lists and release notes
    (:func:`chore_file`) is such a chore too."""
    sql = (
        "SELECT DISTINCT memory FROM commits WHERE low_signal IS NOT NULL"
        " AND memory IN (SELECT value FROM json_each(?))"
    )
    quiet = {pk for (pk,) in conn.execute(sql, (dumps([pk for pk, _ in found]),))}
    quiet |= _bookkeeping(conn, [pk for pk, _ in found if pk not in quiet])
    if not quiet:
        return found
    if named is None:
        from ..words import code_names  # (loaded only when a chore was found)

        named = code_names(query_text)
    names = [name.lower() for name in named]
    said = {pk for pk, text in texts(conn, quiet).items() if any(n in text.lower() for n in names)}
    touched = conn.execute(
        "SELECT memory, path FROM memory_files WHERE memory IN (SELECT value FROM json_each(?))",
        (dumps(sorted(quiet - said)),),
    )
    said.update(pk for pk, path in touched if path.lower() in names)
    return [(pk, score) for pk, score in found if pk not in quiet or pk in said]


def _bookkeeping(conn: sqlite3.Connection, pks: list[int]) -> set[int]:
    """The memories of ``pks`` made of a commit of one line that touched only files of
    :func:`chore_file`."""
    files: dict[int, list[str]] = {}
    rows = conn.execute(
        "SELECT f.memory, f.path FROM memory_files f WHERE f.memory IN"
        " (SELECT c.memory FROM commits c WHERE c.memory IN (SELECT value FROM json_each(?)))",
        (dumps(pks),),
    )
    for pk, path in rows:
        files.setdefault(pk, []).append(path)
    chores = [pk for pk, paths in files.items() if all(map(chore_file, paths))]
    return {pk for pk, text in texts(conn, chores).items() if "\n" not in text.strip()}


def chore_file(path: str) -> bool:
    """Whether ``path`` is an ignore list or a project's release notes (a chore's file:
    :data:`RELEASE_NOTES`)."""
    name = path.rpartition("/")[2].lower()
    if name.startswith(".") and name.endswith("ignore"):
        return True
    stem, dot, extension = name.rpartition(".")
    if not dot:
        stem, extension = name, ""
    return stem in RELEASE_NOTES and extension in NOTES_EXTENSIONS


def _top(
    conn: sqlite3.Connection,
    expression: str,
    window: tuple[int, ...],
    limit: int,
    include_obsolete: bool,
    commits: bool = True,
) -> list[tuple[int, float]]:
    """The best ``limit`` live matches of ``expression``, by (score, id) (without
    ``commits``: of the memories not made of a commit).

    FTS5 sorts by score alone, without a join per match; the rows it hands over are
    then filtered (obsolete) and tie-broken by id. If that could have cut a tie or
    left too few rows, ask again for more, so the result is what a full sort gives.
    """
    sql = (
        f"SELECT rowid, bm25(memories_fts, {_WEIGHTS}) AS score FROM memories_fts"
        f" WHERE memories_fts MATCH ?{' AND rowid >= ?' if window else ''}"
        " ORDER BY score LIMIT ?"
    )
    live = ("" if include_obsolete else " AND m.obsolete = 0") + (
        "" if commits else f" AND {NOT_A_COMMIT}"
    )
    fetch = limit + 16
    while True:
        best = conn.execute(sql, (expression, *window, fetch)).fetchall()
        scores = dict(best)
        ids = conn.execute(
            "SELECT m.pk, m.id FROM memories m"
            f" WHERE m.pk IN (SELECT value FROM json_each(?)){live}",
            (dumps(list(scores)),),
        ).fetchall()
        ordered = sorted(ids, key=lambda row: (scores[row[0]], row[1]))[:limit]
        exhausted = len(best) < fetch
        if exhausted or (len(ordered) == limit and best[-1][1] > scores[ordered[-1][0]]):
            return [(pk, -scores[pk]) for pk, _ in ordered]
        fetch *= 4


def frequent(
    conn: sqlite3.Connection, project: str, text: str, *, share: float, least: int
) -> dict[str, float]:
    """The share of ``project``'s memories that holds each word of ``text``
    (:func:`~memhooks.store.search.words`; 0.0 to 1.0), counted up to just above ``share``:
    a word in more reads as ``(int(total * share) + 1) / total``, more than ``share``.
    ``{}`` when the project holds fewer than ``least`` memories (few tell little). A word
    in more than a third says nothing of any one memory: requests' ``request`` is in 56 %
    of its history's memories (the package's folder); one in more than 1 % is common
    (iproute2's "tool", "table": :mod:`memhooks.recall.floor`)."""
    total = conn.execute("SELECT count(*) FROM memories WHERE project = ?", (project,)).fetchone()[
        0
    ]
    if total < least:
        return {}
    cap = int(total * share) + 1
    return {t: _frequency(conn, project, t, cap) / total for t in words(text)}


def _frequency(conn: sqlite3.Connection, project: str | None, term: str, cap: int) -> int:
    """In how many memories of ``project`` (None: of all projects) ``term`` occurs,
    counting up to ``cap``."""
    phrase = f'"{term}"'
    expression = phrase if project is None else in_project(project, phrase)
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
    wanted = usable_files(files)
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
    params = (dumps(list(dict.fromkeys(wanted))), project, scope, limit, project, limit)
    return [pk for (pk,) in conn.execute(sql, params)]


def texts(conn: sqlite3.Connection, pks: Iterable[int]) -> dict[int, str]:
    """The text of each memory ``pks`` names (one query; no other field is decoded)."""
    found = conn.execute(
        "SELECT pk, text FROM memories WHERE pk IN (SELECT value FROM json_each(?))",
        (dumps(list(pks)),),
    )
    return {pk: text for pk, text in found}


def memories(conn: sqlite3.Connection, pks: Iterable[int]) -> dict[int, Memory]:
    """The memories with these pks (one query); a pk deleted meanwhile is left out."""
    found = conn.execute(
        f"SELECT m.pk, {COLUMNS} FROM memories m WHERE m.pk IN (SELECT value FROM json_each(?))",
        (dumps(list(pks)),),
    )
    return {row[0]: from_row(row[1:]) for row in found}


def not_commits(conn: sqlite3.Connection, pks: list[int]) -> list[int]:
    """``pks`` less the memories made of a commit (:data:`.commits.NOT_A_COMMIT`), in order."""
    sql = (
        "SELECT m.pk FROM memories m"
        f" WHERE m.pk IN (SELECT value FROM json_each(?)) AND {NOT_A_COMMIT}"
    )
    kept = {pk for (pk,) in conn.execute(sql, (dumps(pks),))}
    return [pk for pk in pks if pk in kept]
