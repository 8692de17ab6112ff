"""Which owners of the lines an agent read are worth its attention (issue 20 item 2):
ranked by the lines they own and by the session's prompt, above a relevance floor, a
few per file. Nothing is better than noise: an owner that owns a sliver of a large read
and shares no word with the prompt is left out.

Score of an owner = its share of the lines read + :data:`PROMPT_WEIGHT` × the share of
the prompt's words (:func:`memhooks.words.content_words`: the one rule for prose as
words) found in what the commit said.
Kept: those owning at least :data:`MIN_LINES` lines and :data:`MIN_SHARE` of the lines
read, or matching at least :data:`MIN_PROMPT` of the prompt's words; a low-signal owner
only when it brings a previous owner (what it replaced) not named already; never a sweeping commit
(:func:`sweeping`), nor one that changed the lines only on their surface — comments,
docstrings, type annotations (:mod:`memhooks.lines.surface`: "Add inline types" on
requests' ``auth.py``, whatever its subject says; judged by what the commit changed in
those lines, best first, only for the owners about to be kept); at most ``limit``, best
first.

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

from ..words import content_words

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
#: A commit touching at least this many files sweeps the project: at a read, where it
#: owns the file in more than :data:`SWEEP_RANGES` separate places (as far as the file
#: was blamed: a ranged read's blame ahead blames the rest, so a second read knows the
#: whole file — reviewer: "Add inline types" was told at every ranged read of auth.py,
#: owning 2-3 places of each) or is low-signal, it is a mechanical pass (formatting,
#: types, lint: requests' "Add inline types", 20 files, owns 72 lines of auth.py in 29
#: places; its formatting commit, 39 files, 75 lines in 44) and is not told. On
#: iproute2's real-clone sessions no cited commit touched 15 files or more (of 274
#: commits told at its reads, 8 did).
SWEEP_FILES = 15
SWEEP_RANGES = 4
#: Owners kept per file read.
LIMIT = 3
#: Most owners judged for a surface-only change per read (:mod:`memhooks.lines.surface`:
#: their two versions of the file, by one ``git cat-file --batch`` a few owners at a
#: time, unless kept with the file version); past them, none is.
JUDGED = 2 * LIMIT


def rank(
    why: Why, prompt: str | None = None, *, limit: int = LIMIT, narrow: bool = False
) -> list[Explanation]:
    """The explanations of ``why`` worth delivering for a read, best first. ``narrow``: a
    read of a few lines (:data:`.line_recall.NARROW_READ`), where a sweeping owner is
    kept when it brings what it replaced. A low-signal owner is judged against the prompt
    by what it said and what it replaced (its value is the commits behind it)."""
    read = max(1, why.total)
    cue = content_words(prompt or "")
    # a narrow read's sweep is kept for what it replaced — second-hand: it goes after the
    # owners that wrote the lines read themselves (newcomer: requests auth.py 286-297 lost
    # 3a9d9f22, owner of 287-288, to the formatter's and the typing pass's chains)
    # (a sweep, score, time, then what _chains_after weighs: a chain — low-signal, kept
    # for what it replaced —, lines owned, says the prompt's words; the explanation)
    scored: list[tuple[bool, float, int, bool, int, bool, Explanation]] = []
    for explanation in why.explanations:
        low, sweep = explanation.commit.low_signal, sweeping(explanation)
        if low or sweep:
            brings = _brings(explanation)
            if (low and not brings) or (sweep and not (narrow and brings)):
                continue
        lines = _count(explanation.lines)
        share = lines / read
        said = _said(explanation) if cue else frozenset()
        prompt_share = len(cue & said) / len(cue) if cue else 0.0
        on_lines = lines >= MIN_LINES and share >= MIN_SHARE and not explanation.initial
        if not on_lines and prompt_share < MIN_PROMPT:
            continue
        score = share + PROMPT_WEIGHT * prompt_share
        scored.append((sweep, score, explanation.commit.time, bool(low or sweep), lines,
                       prompt_share >= MIN_PROMPT, explanation))  # fmt: skip
    scored.sort(key=lambda item: (item[0], -item[1], -item[2]))
    chains = {id(item[6]) for item in scored if item[3]}
    ranked = _bringing_news(_chains_after([item[3:] for item in scored]), chains)
    if why.surface is None:
        return ranked[:limit]
    # judged lazily, best first, a few at a time (one git process each time): the owners
    # about to be kept, at most JUDGED; one that changed these lines only on their
    # surface is no decision and is left out
    kept: list[Explanation] = []
    judged = 0
    while ranked and len(kept) < limit:
        batch, ranked = ranked[: limit - len(kept)], ranked[limit - len(kept) :]
        asked = [e for e in batch if not e.before][: max(0, JUDGED - judged)]
        judged += len(asked)
        surface = why.surface(asked) if asked else set()
        kept += [e for e in batch if e.commit.hash not in surface or e.before]
    return kept


def _chains_after(ranked: list[tuple[bool, int, bool, Explanation]]) -> list[Explanation]:
    """The explanations of ``ranked`` (``(a chain, lines owned, says the prompt's words,
    explanation)``, best first) with each chain — a low-signal owner kept for what it
    replaced: its lines were only reshaped by it, the decision is second-hand — moved
    after every owner that wrote its lines itself and either says the prompt's words in
    its own message or owns more of the lines read. When the cap binds, a chain whose
    words are its previous owners' must not take the place of the owner of most of the
    lines (lines20: requests' utils.py 845-860 with the prompt "no_proxy is ignored when
    using sessions" told a one-line "Split get_environ_proxies" chain and dropped
    a4f9a599, owner of 4 of the 16 lines). A sweep is sorted after every other owner
    already (:func:`rank`): only low-signal chains move here."""
    out = list(ranked)
    for item in [r for r in ranked if r[0]]:
        lines = item[1]
        last = max(
            (
                i
                for i, (chain, owns, words, _) in enumerate(out)
                if not chain and (words or owns > lines)
            ),
            default=-1,
        )
        at = out.index(item)
        if last > at:
            out.insert(last, out.pop(at))
    return [explanation for *_, explanation in out]


def _bringing_news(ranked: list[Explanation], chains: set[int]) -> list[Explanation]:
    """``ranked`` (best first) without each chain (its ``id`` in ``chains``: a low-signal
    or sweeping owner, kept for what it replaced) whose previous owners worth telling
    (:func:`_behind`) all stand already behind a chain ranked before it: it would add its
    own reshaping and nothing behind it (newcomer6: requests ``auth.py`` 190–200 told the
    typing pass 561e4b6 for its two annotated lines, behind which stood only 1dbaddd,
    already told behind the formatter's 2a6f290). A chain behind which stands a direct
    owner of other lines read stays: it says which lines that owner's decision reaches
    through the reshaping."""
    told: set[str] = set()
    out: list[Explanation] = []
    for explanation in ranked:
        if id(explanation) in chains:
            behind = _behind(explanation)
            if behind <= told:
                continue
            told |= behind
        out.append(explanation)
    return out


def _brings(explanation: Explanation) -> bool:
    """Whether what the owner of ``explanation`` replaced names a commit that says why
    (:func:`_behind`)."""
    return bool(_behind(explanation))


def _behind(explanation: Explanation) -> set[str]:
    """The commits the owner of ``explanation`` replaced that say why: neither the
    project's first commit nor another low-signal one (a typing pass over the initial
    import tells nothing)."""
    return {c.hash for c in explanation.previous if not c.root and not c.low_signal}


def _said(explanation: Explanation) -> frozenset[str]:
    """The words of what the owner of ``explanation`` said — and, for a low-signal owner,
    of what the commits it replaced said."""
    words = content_words(explanation.commit.message)
    if explanation.commit.low_signal:
        for commit in explanation.previous:
            words |= content_words(commit.message)
    return words


def answers(explanation: Explanation, prompt: str | None) -> bool:
    """Whether the commit of ``explanation`` says at least :data:`MIN_PROMPT` of the
    prompt's words."""
    return says(explanation.commit.message, prompt)


def says(message: str, prompt: str | None) -> bool:
    """Whether commit ``message`` says at least :data:`MIN_PROMPT` of the prompt's words
    (:func:`answers`, for a commit known by its message alone)."""
    cue = content_words(prompt or "")
    return bool(cue) and len(cue & content_words(message)) / len(cue) >= MIN_PROMPT


def sweeping(explanation: Explanation) -> bool:
    """Whether the owner of ``explanation`` swept the project with a mechanical change
    (:data:`SWEEP_FILES`): what it says is about every file, not the lines read, and what
    it replaced at a whole-file read is a grab-bag of the file's history."""
    commit = explanation.commit
    if commit.files < SWEEP_FILES:
        return False
    places = max(len(explanation.lines), explanation.places)
    return bool(commit.low_signal) or places > SWEEP_RANGES


def _count(ranges: list[tuple[int, int]]) -> int:
    return sum(last - first + 1 for first, last in ranges)
