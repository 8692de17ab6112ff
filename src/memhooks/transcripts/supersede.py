"""Later decisions win: when a later piece restates or changes an earlier piece's rule.

The rule (explicit and conservative; no language model):

A piece *later* supersedes a piece *earlier* of the same project when all hold —

1. both are conversation pieces that decided something (tag ``decision``: a sentence of
   the user's that :func:`memhooks.statements.statement_kind` calls a decision,
   constraint or finding, or an edit of a file), neither is obsolete, and *earlier* is not
   marked ``kept`` (a user undid a supersession of it: ``memhooks transcripts undo``);
2. *later* was concluded after *earlier* (``created_at``; equal times never supersede);
3. they share an anchor: a file or a symbol;
4. they are on the same topic: what the user said where each ended (:mod:`.render`; the
   agent's account of its work is left out), as content words (:func:`memhooks.words.content_words`), weighted by how
   rare each word is among the project's conversation pieces (inverse document
   frequency), overlap by at least :data:`SAME_TOPIC` of the smaller side's weight and
   in at least :data:`MIN_SHARED` words. A word every piece uses ("window" in a project
   about incident windows) weighs little; a rare one ("blip") decides.

5. **or, for an amendment**, in place of 4: the later piece's user opens a changed rule
   where it ended (:data:`AMENDS`: "from now on", "change of rule", "no longer",
   "instead of", "going forward"), both pieces' conclusions (the user's words and the
   agent's reply where each ended) name one same symbol — the rule is about that code
   (``merge_windows``: "merge windows less than 5 minutes apart" amends "merge
   overlapping windows") — and their conclusions overlap by at least
   :data:`AMENDED_TOPIC` (weighted as in 4) in at least :data:`MIN_SHARED` words. On the
   development set the amendment "merge windows that overlap or are less than 5 minutes
   apart" and the rule it amends overlap by .32 around ``merge_windows``; the nearest
   pair that is *not* an amendment — "from now on ignore blips under 60 s" after the
   merge rule, both naming ``downtime_minutes`` where the filter and the merge live —
   by .24: the bar sits between them, and without an amendment phrase the bar stays 4's.

What it cannot tell: whether the later rule *replaces* all of the earlier one or adds to
it (both read as "the same topic, decided again"); a rule restated in other words with
no word in common; a decision that names no file or symbol; an amendment said without
one of the phrases of 5 whose words overlap the earlier rule's less than 4 asks. Those
stay separate live pieces. The user confirms or undoes
any supersession from the command line (``memhooks transcripts superseded|confirm|undo``).

The mark is the store's one machinery for "this replaces that" — the one reverted commits
use — :meth:`memhooks.store.MemoryStore.mark_obsolete` with ``superseded_by``, so recall
leaves the earlier piece out unless asked for obsolete memories.
"""

from __future__ import annotations

import math

from ..symbols.mentions import mentions
from ..words import content_words
from .render import KIND

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..store import Memory, MemoryStore

#: Shared content words two conclusions need at least.
MIN_SHARED = 2
#: Weighted overlap of two conclusions at or above which they are one topic.
SAME_TOPIC = 0.45
#: ... when the later one opens a changed rule and both name one symbol (rule 5).
AMENDED_TOPIC = 0.3
#: Words with which a user changes a rule already made (rule 5), case ignored.
AMENDS = (
    "from now on", "change of rule", "rule change", "no longer", "instead of",
    "going forward", "from today on", "not anymore",
)  # fmt: skip
#: Tag of a piece a user kept live (undid a supersession of).
KEPT = "kept"
#: Tag of a piece whose supersession a user confirmed.
CONFIRMED = "confirmed"
_ENDED, _REST = "\nWhere it ended:\n", "\nThe rest of the conversation"


def conclusion(memory: Memory) -> frozenset[str]:
    """The content words the user said where a piece ended (the ``user:`` lines between
    "Where it ended:" and "The rest of the conversation"): the rule as the user put it,
    not the agent's account of its work."""
    if _ENDED not in memory.text:
        return content_words(memory.text)
    said = [
        line[len("user: ") :] for line in ended(memory).splitlines() if line.startswith("user: ")
    ]
    return content_words("\n".join(said))


def ended(memory: Memory) -> str:
    """The lines of a piece's text where it ended (its conclusion: ``user:`` and
    ``agent:`` lines), or the whole text when it has no such section."""
    text = memory.text
    start = text.find(_ENDED)
    if start == -1:
        return text
    end = text.find(_REST, start)
    return text[start + len(_ENDED) : end if end != -1 else len(text)]


def amends(memory: Memory) -> bool:
    """Whether the user changes a rule where ``memory`` ended (:data:`AMENDS`)."""
    said = " ".join(
        line[len("user: ") :] for line in ended(memory).splitlines() if line.startswith("user: ")
    ).lower()
    return any(phrase in said for phrase in AMENDS)


def named(memory: Memory) -> set[str]:
    """The symbols (entities) that a piece's conclusion names."""
    text = ended(memory)
    return {name for name in memory.entities if mentions(text, name)}


def candidate(memory: Memory) -> bool:
    """Whether ``memory`` may supersede or be superseded (rule 1)."""
    return memory.kind == KIND and "decision" in memory.tags and not memory.obsolete


class Weights:
    """Inverse document frequency of conclusion words among ``pieces``:
    ``log((1 + n) / (1 + df)) + 1`` (the smoothed form; never 0)."""

    def __init__(self, pieces: Iterable[Memory]) -> None:
        counts: dict[str, int] = {}
        total = 0
        for piece in pieces:
            total += 1
            for word in conclusion(piece):
                counts[word] = counts.get(word, 0) + 1
        self.total = total
        self.counts = counts

    def __call__(self, word: str) -> float:
        return math.log((1 + self.total) / (1 + self.counts.get(word, 0))) + 1

    def similarity(self, a: frozenset[str], b: frozenset[str]) -> float:
        """Weight of ``a & b`` over the weight of the lighter of ``a`` and ``b``."""
        if not a or not b:
            return 0.0
        shared = sum(self(w) for w in a & b)
        return shared / min(sum(self(w) for w in a), sum(self(w) for w in b))


def supersedes(later: Memory, earlier: Memory, weights: Weights) -> bool:
    """Whether ``later`` supersedes ``earlier`` (see the module docstring)."""
    if later.id == earlier.id or not (candidate(later) and candidate(earlier)):
        return False
    if KEPT in earlier.tags or not earlier.created_at < later.created_at:
        return False
    shared = set(later.files) & set(earlier.files) or set(later.entities) & set(earlier.entities)
    if not shared:
        return False
    a, b = conclusion(later), conclusion(earlier)
    if len(a & b) < MIN_SHARED:
        return False
    similarity = weights.similarity(a, b)
    if similarity >= SAME_TOPIC:
        return True
    return similarity >= AMENDED_TOPIC and amends(later) and bool(named(later) & named(earlier))


def apply(store: MemoryStore, project: str, added: Iterable[Memory]) -> list[tuple[str, str]]:
    """Mark what the newly ``added`` pieces supersede, and the new pieces that an existing
    later one supersedes; return the ``(earlier id, later id)`` pairs marked, oldest first.
    Every conversation piece of the project is read once (for the word weights and the
    candidates)."""
    every = [m for m in store.list(project, limit=None, include_obsolete=True) if m.kind == KIND]
    weights = Weights(every)
    pieces = {m.id: m for m in every}
    marked: list[tuple[str, str]] = []
    for new in sorted(added, key=lambda m: (m.created_at, m.id)):
        fresh = pieces.get(new.id)
        if fresh is None:
            continue
        for other in sorted(pieces.values(), key=lambda m: (m.created_at, m.id)):
            if fresh.obsolete:
                break
            if supersedes(fresh, other, weights):
                _mark(store, project, pieces, other, fresh, marked)
            elif supersedes(other, fresh, weights):
                _mark(store, project, pieces, fresh, other, marked)
    return marked


def _mark(
    store: MemoryStore,
    project: str,
    pieces: dict[str, Memory],
    earlier: Memory,
    later: Memory,
    marked: list[tuple[str, str]],
) -> None:
    pieces[earlier.id] = store.mark_obsolete(earlier.id, later.id, project=project)
    marked.append((earlier.id, later.id))
