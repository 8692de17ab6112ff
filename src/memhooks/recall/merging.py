"""Stage 3 of a recall (:mod:`.stages`): the tasks' hits ranked into one list of
memories — priority groups, reciprocal-rank fusion (:func:`memhooks.recall.runtime.rank`)
— with duplicates dropped, what the caller says was already delivered left out, and what
its ``keep`` test refuses.

Two hits are the same memory when their ids are equal, or near-identical when their
texts, lower-cased with whitespace collapsed, are equal or share at least
:data:`NEAR_DUPLICATE` of their word sets (Jaccard similarity; words are runs of letters
and digits, :mod:`.wording`, so "outage." and "outage" are one word). The first (higher
priority, better ranked) copy is kept.
"""

from __future__ import annotations

from ..session.keys import had
from .outcome import Recalled
from .runtime import rank
from .wording import words as _split

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Collection
    from typing import Any

    from ..backends.base import Hit
    from .runtime import Task

NEAR_DUPLICATE = 0.9


def words(text: str) -> frozenset[str]:
    return frozenset(_split(text.lower()))


class Seen:
    """Remembers kept memories; ``duplicate_of(id, text)`` → the kept id or ``None``."""

    __slots__ = ("_ids", "_texts")

    def __init__(self) -> None:
        self._ids: set[str] = set()
        self._texts: list[tuple[str, str, frozenset[str]]] = []

    def duplicate_of(self, memory_id: str, text: str) -> str | None:
        if memory_id in self._ids:
            return memory_id
        flat = " ".join(text.lower().split())
        bag = words(flat)
        for kept_id, kept_flat, kept_bag in self._texts:
            if flat == kept_flat:
                return kept_id
            union = len(bag | kept_bag)
            if union and len(bag & kept_bag) / union >= NEAR_DUPLICATE:
                return kept_id
        return None

    def add(self, memory_id: str, text: str) -> None:
        self._ids.add(memory_id)
        flat = " ".join(text.lower().split())
        self._texts.append((memory_id, flat, words(flat)))


class Merged:
    """Stage 3: ``memories`` (:class:`~memhooks.recall.outcome.Recalled`, best first),
    ``duplicates``, ``delivered`` and ``refused`` (distinct memories left out for each
    reason)."""

    __slots__ = ("delivered", "duplicates", "memories", "refused")

    def __init__(self) -> None:
        self.memories: list[Recalled] = []
        self.duplicates = 0
        self.delivered = 0
        self.refused = 0


def merge(
    tasks: list[Task],
    per_query: int,
    *,
    delivered: Collection[str] = (),
    keep: Callable[[Recalled], str | None] | None = None,
) -> Merged:
    """Stage 3: the ranked memories of ``tasks``; a memory recalled again by a lower
    priority query only adds provenance. ``delivered``: ids the caller already gave the
    agent (left out, counted); ``keep``: a test every memory must pass (e.g. tool-time
    anchoring, :mod:`.anchoring`): None refuses it, a non-empty reason becomes its
    ``anchored_by``."""
    out = Merged()
    seen = Seen()
    kept: dict[str, int] = {}  # id -> its place in out.memories
    more: dict[int, list[dict[str, Any]]] = {}  # place -> provenance of later recalls
    left_out: dict[str, str] = {}  # id -> why, counted once per memory
    # Delivered memories do not take a query's places: the next ones move up.
    for hit, by in rank(tasks, per_query, skip=delivered):
        if hit.id in kept:
            more.setdefault(kept[hit.id], []).extend(provenance(hit, by))
            continue
        if hit.id in left_out:
            continue
        memory = Recalled.of(hit, provenance(hit, by))
        if keep is not None:
            why = keep(memory)
            if why is None:
                left_out[hit.id] = "refused"
                continue
            if why:
                memory = memory.replace(anchored_by=why)
        if seen.duplicate_of(hit.id, hit.text):
            left_out[hit.id] = "duplicate"
            continue
        seen.add(hit.id, hit.text)
        kept[hit.id] = len(out.memories)
        out.memories.append(memory)
    for place, later in more.items():
        # queries that matched on their own first, each kind in the order found (a
        # stable sort of all of them, once: the memory is replaced once)
        first = out.memories[place]
        both = sorted([*first.recalled_by, *later], key=lambda b: b.get("matched") != "query")
        out.memories[place] = first.replace(recalled_by=tuple(both))
    reasons = list(left_out.values())
    out.duplicates = reasons.count("duplicate")
    # rank() skips them (the next ones move up): count the distinct ones it skipped
    if delivered:  # (each distinct hit asked once: the queries find the same memories)
        found = {h.id: h.commit for t in tasks for h in t.hits}
        out.delivered = sum(1 for i, commit in found.items() if had(delivered, i, commit))
    out.refused = reasons.count("refused")
    return out


def provenance(hit: Hit, by: list[Task]) -> list[dict[str, Any]]:
    """The recall-v1 ``recalled_by`` of ``hit`` recalled by the tasks ``by``: the queries
    whose own words or file cues matched it first, each marked ``matched`` ``query`` or
    ``prompt`` (:mod:`.credit`)."""
    from .credit import credited

    return [
        {
            "query": t.query["query"],
            "source": t.source,
            "priority": t.priority,
            "context": t.context,
            "score": next((h.score for h in t.hits if h.id == hit.id), hit.score),
            "matched": how,
        }
        for t, how in credited(hit, by)
    ]
