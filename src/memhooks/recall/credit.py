"""Which cue really recalled a memory (issue 22 item 5: "recalled by" credited the generic
generated question for a match the prompt made).

Every query searches with the prompt beside its own text (:mod:`.runtime`), so a query
"recalls" memories that only the prompt's words found. A query is credited when the
memory shares a word with the query's own text — a generated folder cue's text carries
no topic, so only its file cues count — or touches one of its file cues; a memory no
query can claim so was found by the prompt. Words are compared by the one rule memhooks
compares prose by (:func:`memhooks.words.content_words`: lower case, a few endings off,
short and common words left out), as the relevance floor compares them; a number shared
is no match (the README's demo credited "Why is the backend pinned to PostgreSQL 15?" for
"Access tokens must expire after 15 minutes", newcomer24).
"""

from __future__ import annotations

from ..words import content_words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ..backends.base import Hit
    from .runtime import Task

QUERY = "query"
PROMPT = "prompt"


def credited(hit: Hit, tasks: list[Task]) -> list[tuple[Task, str]]:
    """``tasks`` (the queries that found ``hit``, in rank order) each with how it matched
    — :data:`QUERY` (its own words or file cues) or :data:`PROMPT` (only the prompt it was
    searched with) — those that matched on their own first."""
    files = set(hit.files or ())
    read: list[frozenset[str]] = []  # the memory's words, read when a query's words decide

    def words() -> frozenset[str]:
        if not read:
            read.append(content_words(hit.text))
        return read[0]

    marked = [(task, QUERY if _own(task, words, files) else PROMPT) for task in tasks]
    return sorted(marked, key=lambda pair: pair[1] != QUERY)


def _own(task: Task, words: Callable[[], frozenset[str]], files: set[str]) -> bool:
    request = task.request
    if task.source is None:
        return True  # the prompt-only query: its text is the prompt
    if request is not None and files and files & set(request.files or ()):
        return True
    if request is not None and request.auto:
        return False  # a generated cue's text names no topic
    # a number alone is no topic: "PostgreSQL 15" credited "tokens expire after 15 minutes"
    said = {w for w in content_words(str(task.query.get("query", ""))) if not w.isdigit()}
    return not words().isdisjoint(said)
