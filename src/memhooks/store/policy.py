"""How the embedded store ranks what recall asks for: the fusion of its ranked lists and
the boosts of the working folder, the files the prompt names and the active files —
the policy beside the store's ranking (:mod:`.ranking`, :mod:`.search`), which the
embedded adapter (:mod:`memhooks.backends.embedded`) applies.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

RRF_K = 60
#: Weights of the fused lists; equal on purpose (no tuning against benchmark answers).
WEIGHTS = {"prompt": 1.0, "query": 1.0, "cue": 1.0, "bm25": 1.0, "dense": 1.0}
#: Candidates taken from each list before fusion.
DEPTH = 50
#: With a prompt, a memory's score is multiplied by 1 + the sum of what it earns: touching
#: a file directly in the target folder, touching a file the prompt names there (times
#: the name's share, 0.5..1), touching an active file. Chosen on a coarse grid on
#: shared/bench/git (0.25..1 all within a point of each other); see docs/recall.md.
BOOST = {"folder": 0.5, "named": 0.5, "active": 1.0}
#: Tool time: most memories anchored to a folder or file that are ranked.
ANCHORED = 200


def fuse(lists: list[tuple[str, list[int]]], limit: int) -> list[tuple[int, float]]:
    """Weighted reciprocal-rank fusion of ranked row ids; ties keep first-seen order."""
    scores: dict[int, float] = {}
    for name, ranked in lists:
        weight = WEIGHTS[name]
        for position, pk in enumerate(ranked):
            scores[pk] = scores.get(pk, 0.0) + weight / (RRF_K + position + 1)
    return sorted(scores.items(), key=lambda item: -item[1])[:limit]


def boost(
    paths: Iterable[str], folder: str | None, named: dict[str, float], active: set[str]
) -> float:
    """A memory's factor, ``1 + folder + named + active`` (:data:`BOOST`), from the files
    it touched (root-relative): one directly in ``folder`` (``""`` = root), the largest
    share of a prompt-named file, an active file."""
    paths = list(paths)
    factor = 1.0
    if folder is not None and any(path.rpartition("/")[0] == folder for path in paths):
        factor += BOOST["folder"]
    if named:
        factor += BOOST["named"] * max((named.get(p, 0.0) for p in paths), default=0.0)
    if active and not active.isdisjoint(paths):
        factor += BOOST["active"]
    return factor
