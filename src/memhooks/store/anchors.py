"""Tool-time recall's queries on a large store: the memories anchored to a folder or to
files (:func:`anchored`), ordered by relevance to the prompt (:func:`relevance`), and
the files of a folder that memories touched (:func:`anchored_files`).

Apart from :mod:`memhooks.store.ranking` (the prompt's BM25 and folder cue), so a prompt
hook loads neither these queries nor their SQL (issue 21, the hook's import set).
Memories of low-signal commits never come from here (:data:`memhooks.store.commits.HIGH_SIGNAL`).
"""

from __future__ import annotations

from ..fast.jsonfast import dumps
from .commits import HIGH_SIGNAL, NOT_A_COMMIT
from .scope import usable_files
from .search import STOPWORDS

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterable


def anchored(
    conn: sqlite3.Connection,
    project: str,
    folder: str,
    files: Iterable[str],
    *,
    limit: int,
    include_obsolete: bool = False,
    commits: bool = True,
) -> list[tuple[int, int]]:
    """Memories anchored to ``folder`` (root-relative, ``""`` = root) or to ``files``:
    ``[(pk, touches one of files)]``, those touching ``files`` first, then those touching
    a file directly in ``folder``, then those scoped exactly to ``folder``; newest first
    within each, at most ``limit``. Root-scoped memories count only through files
    (a change that spans folders is scoped at the root: the root says little). Memories
    of low-signal commits are left out (:data:`memhooks.store.commits.HIGH_SIGNAL`,
    issue 20: they never fill a tool-time delivery) — of every commit when not
    ``commits`` (line-level recall tells them: the limit is the other memories')."""
    wanted = usable_files(files)
    if limit <= 0:
        return []
    live = "" if include_obsolete else " AND m.obsolete = 0"
    prefix = f"{folder}/" if folder else ""
    # memory_files is keyed by (path, memory): a prefix range reads one folder's rows.
    # chr(0x10FFFF) bounds the range above every path starting with the prefix.
    sql = (
        "WITH hit (pk, active) AS ("
        "  SELECT memory, 1 FROM memory_files WHERE path IN (SELECT value FROM json_each(?))"
        "  UNION ALL SELECT memory, 0 FROM memory_files WHERE path >= ? AND path < ?"
        "   AND instr(substr(path, ?), '/') = 0"
        "  UNION ALL SELECT pk, 0 FROM memories WHERE project = ? AND scope = ? AND scope != ''),"
        " best (pk, active) AS (SELECT pk, max(active) FROM hit GROUP BY pk)"
        " SELECT m.pk, b.active FROM best b JOIN memories m ON m.pk = b.pk"
        f" WHERE m.project = ?{live} AND {HIGH_SIGNAL if commits else NOT_A_COMMIT}"
        " ORDER BY b.active DESC, m.created_at DESC, m.id DESC LIMIT ?"
    )
    params = (
        dumps(list(dict.fromkeys(wanted))),
        prefix,
        prefix + "\U0010ffff",
        len(prefix) + 1,
        project,
        folder,
        project,
        limit,
    )
    return [(pk, active) for pk, active in conn.execute(sql, params)]


#: Every ASCII character that is not a letter or digit, to a space (:func:`relevance`).
_SEPARATE = {c: " " for c in range(128) if not chr(c).isalnum()}


def relevance(text: str, texts: dict[int, str]) -> dict[int, float]:
    """How well each of ``texts`` (pk -> memory text) matches ``text``: the summed
    inverse document frequency, within ``texts``, of the words of ``text`` it contains
    (a plural ``s`` dropped on both sides). Pure Python over a few hundred candidates:
    an FTS5 match of a prompt's words scores every matching row of the store before any
    ``rowid`` filter applies (210-330 ms on 10,000 memories, measured), this takes well
    under a millisecond. A text sharing no word is absent."""
    import math  # a shared library: loaded by the calls that score, not by the import

    def terms(value: str) -> set[str]:
        # ASCII punctuation to spaces, then a C-speed split: a character loop over 200
        # memories cost 13 ms here (search.words is exact, and built for one prompt).
        found = value.lower().translate(_SEPARATE).split()
        return {w[:-1] if len(w) >= 4 and w.endswith("s") and not w.endswith("ss") else w
                for w in found if w not in STOPWORDS}  # fmt: skip

    wanted = terms(text)
    if not wanted or not texts:
        return {}
    bags = {pk: terms(body) & wanted for pk, body in texts.items()}
    df: dict[str, int] = {}
    for bag in bags.values():
        for term in bag:
            df[term] = df.get(term, 0) + 1
    n = len(texts)
    idf = {term: math.log(1 + (n - count + 0.5) / (count + 0.5)) for term, count in df.items()}
    return {pk: sum(idf[t] for t in bag) for pk, bag in bags.items() if bag}


def anchored_files(
    conn: sqlite3.Connection,
    project: str,
    folder: str,
    *,
    limit: int,
    besides: Iterable[str] = (),
    commits: bool = True,
) -> list[str]:
    """The files directly in ``folder`` (root-relative) that live memories of ``project``
    touched, leaving out the memories whose ids are in ``besides`` and those of
    low-signal commits (never delivered at tool time) — of every commit when not
    ``commits`` (line-level recall tells them); at most ``limit``, in path order."""
    prefix = f"{folder}/" if folder else ""
    sql = (
        # CROSS JOIN keeps SQLite reading the folder's file rows first; left to choose, it
        # scans the whole project's memories (6 ms on 10,000, against 0.3).
        "SELECT DISTINCT f.path FROM memory_files f CROSS JOIN memories m ON m.pk = f.memory"
        " WHERE f.path >= ? AND f.path < ? AND instr(substr(f.path, ?), '/') = 0"
        f" AND m.project = ? AND m.obsolete = 0 AND {HIGH_SIGNAL if commits else NOT_A_COMMIT}"
        " AND m.id NOT IN (SELECT value FROM json_each(?)) ORDER BY f.path LIMIT ?"
    )
    args = (prefix, prefix + "\U0010ffff", len(prefix) + 1, project, dumps(sorted(besides)), limit)
    rows = conn.execute(sql, args)
    return [str(path) for (path,) in rows]
