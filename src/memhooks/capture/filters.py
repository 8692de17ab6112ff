"""The filters every candidate passes, in order: length, cooldown, exact and near duplicates.

Values (seed 004 gave 300 characters, similarity above 0.85 and 30 seconds as starting
points; ``docs/capture.md`` has the measurements behind the ones chosen):

- **minimum length** per kind, counted on :attr:`Candidate.signal` — the characters the
  host sent, not our labels — because a 300-character floor keeps none of the
  decisions users actually state ("Never commit .env files." is 25 characters);
- **cooldown** per kind *and* folder: a memory of the same kind in the same folder
  within ``cooldown_s`` seconds is dropped (state in ``capture_marks``, so it holds
  across hook processes);
- **duplicates**: the same normalized text at any age, or a similarity above
  :data:`~memhooks.capture.similar.THRESHOLD` to one of the project's ``recent`` latest
  captures (:mod:`.similar` defines the measure).
"""

from __future__ import annotations

from . import marks, similar
from .candidate import (
    CHECKPOINT,
    CONSTRAINT,
    DECISION,
    LEARNING,
    PROBLEM_SOLUTION,
    SESSION,
    WHAT_CHANGED,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3

    from .candidate import Candidate

SHORT = "short"
COOLDOWN = "cooldown"
DUPLICATE = "duplicate"


class Policy:
    """Filter values: ``min_chars`` and ``cooldown_s`` per kind, ``threshold`` (similarity
    above which a candidate is a duplicate; ``1.0`` keeps only the exact-text check,
    above ``1.0`` turns de-duplication off — for measurements), ``recent`` (captures
    compared)."""

    __slots__ = ("cooldown_s", "min_chars", "recent", "threshold")

    def __init__(
        self,
        min_chars: dict[str, int],
        cooldown_s: dict[str, float],
        threshold: float = similar.THRESHOLD,
        recent: int = 500,
    ) -> None:
        self.min_chars = min_chars
        self.cooldown_s = cooldown_s
        self.threshold = threshold
        self.recent = recent


#: The values memhooks ships (see the module docstring and docs/capture.md).
DEFAULT = Policy(
    min_chars={
        CONSTRAINT: 15,
        DECISION: 20,
        LEARNING: 30,
        PROBLEM_SOLUTION: 30,
        WHAT_CHANGED: 20,
        CHECKPOINT: 50,
        SESSION: 50,
    },
    cooldown_s={
        CONSTRAINT: 30,
        DECISION: 30,
        LEARNING: 30,
        PROBLEM_SOLUTION: 30,
        WHAT_CHANGED: 30,
        CHECKPOINT: 0,
        SESSION: 0,
    },
)


def verdict(
    conn: sqlite3.Connection,
    project: str,
    candidate: Candidate,
    sketch: list[int],
    digest: str,
    now: float,
    policy: Policy,
) -> str | None:
    """Why ``candidate`` is dropped (:data:`SHORT`, :data:`COOLDOWN`, :data:`DUPLICATE`),
    or None when it is kept."""
    if candidate.signal < policy.min_chars.get(candidate.kind, 0):
        return SHORT
    cooldown = policy.cooldown_s.get(candidate.kind, 0)
    if cooldown > 0:
        last = marks.last_capture(conn, project, candidate.scope, candidate.kind)
        if last is not None and now - last < cooldown:
            return COOLDOWN
    if policy.threshold > 1.0:
        return None
    if marks.has_digest(conn, project, digest):
        return DUPLICATE
    for other in marks.recent_sketches(conn, project, policy.recent):
        if similar.similarity(sketch, other) > policy.threshold:
            return DUPLICATE
    return None
