"""Which owners of the lines an agent read are worth its attention (issue 20 item 2):
ranked by the lines they own and by the session's prompt, above a relevance floor, a
few per file. Nothing is better than noise: an owner that owns a sliver of a large read
and shares no word with the prompt is left out.

Score of an owner = its share of the lines read + :data:`PROMPT_WEIGHT` × the share of
the prompt's words (three letters or more, singular, not :data:`STOPWORDS`) found in
what the commit said.
Kept: those owning at least :data:`MIN_LINES` lines and :data:`MIN_SHARE` of the lines
read, or matching at least :data:`MIN_PROMPT` of the prompt's words; a low-signal owner
only when it brings a previous owner (what it replaced); at most ``limit``, best first.

The project's first commit (no parent: an initial import, a "test project" commit),
where it created the file, owns whatever nobody changed since — often most of an old
file — and says nothing about those lines in particular: it is kept only when its
message matches the prompt (:func:`answers`), whatever it owns — at a read, and for the
lines an edit replaces (:mod:`.line_recall`). A later commit that
created the file is a feature's ("tc: add mpls actions") and is ranked like any other:
on iproute2's real-clone benchmark, 7 of the cited commits were such creators, told at
the Read. (A vendored copy added in one later commit is not recognised: left alone.)
"""

from __future__ import annotations

from .wording import singular, words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .why import Explanation, Why

#: Fewest lines, and least share of the lines read, an owner needs on lines alone.
MIN_LINES = 2
MIN_SHARE = 0.05
#: Least share of the prompt's words an owner's message needs to pass on the prompt.
MIN_PROMPT = 0.3
#: Weight of the prompt's share against the lines' share in the score: an owner whose
#: message answers the prompt goes before one that merely owns more lines.
PROMPT_WEIGHT = 2.0
#: Words too common in prompts and commit messages to say anything.
STOPWORDS = frozenset(
    [
        "the",
        "and",
        "for",
        "why",
        "what",
        "how",
        "this",
        "that",
        "with",
        "from",
        "are",
        "was",
        "were",
        "not",
        "but",
        "can",
        "you",
        "all",
        "any",
        "its",
        "has",
        "have",
        "had",
        "into",
        "out",
        "use",
        "make",
        "when",
        "where",
        "which",
        "who",
        "will",
        "would",
        "should",
        "could",
        "does",
        "did",
        "don",
        "there",
        "their",
        "them",
        "then",
        "than",
        "also",
        "just",
        "like",
    ]
)
#: Owners kept per file read.
LIMIT = 3


def rank(why: Why, prompt: str | None = None, *, limit: int = LIMIT) -> list[Explanation]:
    """The explanations of ``why`` worth delivering for a read, best first."""
    read = max(1, why.total)
    cue = _words(prompt or "")
    scored: list[tuple[float, int, Explanation]] = []
    for explanation in why.explanations:
        if explanation.commit.low_signal and not explanation.before:
            continue
        lines = _count(explanation.lines)
        share = lines / read
        said = _words(explanation.commit.message) if cue else set()
        prompt_share = len(cue & said) / len(cue) if cue else 0.0
        on_lines = lines >= MIN_LINES and share >= MIN_SHARE and not explanation.initial
        if not on_lines and prompt_share < MIN_PROMPT:
            continue
        scored.append((share + PROMPT_WEIGHT * prompt_share, explanation.commit.time, explanation))
    scored.sort(key=lambda item: (-item[0], -item[1]))
    return [explanation for _, _, explanation in scored[:limit]]


def answers(explanation: Explanation, prompt: str | None) -> bool:
    """Whether the commit of ``explanation`` says at least :data:`MIN_PROMPT` of the
    prompt's words."""
    return says(explanation.commit.message, prompt)


def says(message: str, prompt: str | None) -> bool:
    """Whether commit ``message`` says at least :data:`MIN_PROMPT` of the prompt's words
    (:func:`answers`, for a commit known by its message alone)."""
    cue = _words(prompt or "")
    return bool(cue) and len(cue & _words(message)) / len(cue) >= MIN_PROMPT


def _count(ranges: list[tuple[int, int]]) -> int:
    return sum(last - first + 1 for first, last in ranges)


def _words(text: str) -> set[str]:
    return {singular(w) for w in words(text.lower()) if len(w) >= 3 and w not in STOPWORDS}
