"""Why these lines are the way they are: the commits that own them, and where an owner
only reshaped them, the commits before it (issue 20 items 3 and 9).

:func:`explain_lines` is the one answer behind ``memhooks why``, the MCP tool and the
edit-time delivery: owners from :mod:`memhooks.lines`, what each commit said and what
leaves one out (:mod:`.why_commit`: the hook chain's ``exclude`` phrases, the embedded
store's reverted/superseded marks). A commit that is low-signal or
reshapes code (``memhooks.history.signal``) brings its lines' previous owners. Commit
text is untrusted data: it is carried as what each commit said, never as instructions.
"""

from __future__ import annotations

from ..lines.ownership import owners, owners_saved
from ..lines.ranges import extend, numbers
from ..lines.said import walked
from .why_commit import Commit, LeftOut, rules, said_before, texts, with_news
from .why_delta import late, part_of, rejudge, rejudge_before, reshaped, worded_part

# On the hook's import set (line-level recall): the walk back loads lines.previous only
# for an owner that reshaped its lines.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ..lines.ownership import Owner, Ownership
    from ..store import MemoryStore

#: Most owners judged by what they did to the lines asked (:mod:`.why_delta`) when the
#: walks back are bounded (a read): the owners of the lines an edit will replace are
#: judged ahead, and a warm edit starts no git for them.
JUDGED = 24
#: Most previous owners shown per owner.
MAX_BEFORE = 2
#: Most commits named further back past previous owners that are themselves low-signal
#: or reshaping (a formatting commit over a rename over the fix: the fix is two steps
#: back), over every line's chain.
MAX_WALK = 4


class Explanation:
    """One owner: ``commit``, ``lines`` (ranges of the working file it owns),
    ``before`` (``[(commit, lines it owned of what it replaced)]``, most first; empty
    unless it is low-signal), ``earlier`` (``[(commit, lines, hash of the commit that
    replaced them)]``: where a commit of ``before`` is itself low-signal, the owners of
    the lines it made, walked back along every line's chain until a commit that is not
    low-signal, in the order walked, at most :data:`MAX_WALK`), ``initial`` (the
    project's first commit — one without a parent — created the file: what it owns is
    what the project was imported with), ``places`` (with ``explain_lines(surface=True)``:
    in how many separate places its commit owns the file, as far as it was blamed; 0:
    not counted). An owner that changed some of its lines only in whitespace and is
    itself on the others is two: the lines it explains itself, then those it only
    re-spaced, its commit as formatting there (:func:`reshaped`) with what they replaced
    — each line's answer, whether it is asked alone or in a range."""

    __slots__ = ("before", "commit", "earlier", "initial", "lines", "places")

    def __init__(self, commit: Commit, lines: list[tuple[int, int]]) -> None:
        self.commit = commit
        self.lines = lines
        self.before: list[tuple[Commit, int]] = []
        self.earlier: list[tuple[Commit, int, str]] = []
        self.initial = False
        self.places = 0

    @property
    def previous(self) -> list[Commit]:
        """The commits named before this one: ``before``, then ``earlier``."""
        return [c for c, _ in self.before] + [c for c, _, _ in self.earlier]


class Why:
    """The answer for ``path`` (root-relative) at ``lines`` (the ranges asked, empty
    for the whole file): ``explanations`` (most lines first), ``excluded`` (``[(hash,
    reason, behind)]``: an exclude phrase, ``reverted`` or ``obsolete``; ``behind``: for
    a previous owner left out, the commit that replaced its lines, else None), ``total`` (lines asked
    about, within the file), ``size`` (the file's lines; None: not a text file git can
    blame, or a project without a commit), ``binary`` (set by
    :func:`memhooks.recall.why_path.why`: the file is not text), ``uncommitted`` and
    ``unknown`` line counts (unknown: the deadline came first), ``uncommitted_lines``
    (their ranges), ``remarks`` (what the caller met on the way, in plain words: a hook
    file skipped, no HOME), ``cut`` (``[(hash, lines)]``: lines owned by a shallow clone's
    edge — the history before it is not in the clone, so no commit here explains them;
    never an owner), ``wordless`` (ranges of lines holding no letter or digit whose
    owners own nothing else asked about: no commit is named for them), ``replaced``
    (``memhooks why`` only: the commits that own, at HEAD, the lines the uncommitted
    ones replaced — their last committed version — as :class:`Explanation`, lines
    numbered as HEAD has them, walked back as the owners are: :mod:`.why_head`),
    ``surface`` (with ``explain_lines(surface=True)``: which explanations' owners changed
    their lines only on their surface, :mod:`memhooks.lines.surface` — their hashes;
    asked lazily, one git process a call; None: not asked), ``unrun`` (git could not be
    started for a part, left out: :attr:`memhooks.lines.Ownership.unrun`)."""

    __slots__ = (
        "binary", "cut", "excluded", "explanations", "lines", "path", "remarks", "replaced", "size",
        "surface", "total", "uncommitted", "uncommitted_lines", "unknown", "unrun", "wordless",
    )  # fmt: skip

    def __init__(self, path: str, lines: Sequence[tuple[int, int]]) -> None:
        self.path = path
        self.lines = list(lines)
        self.explanations: list[Explanation] = []
        self.excluded: list[tuple[str, str, str | None]] = []
        self.total = 0
        self.size: int | None = None
        self.binary = False
        self.uncommitted = 0
        self.uncommitted_lines: list[tuple[int, int]] = []
        self.unknown = 0
        self.remarks: list[str] = []
        self.cut: list[tuple[str, list[tuple[int, int]]]] = []
        self.wordless: list[tuple[int, int]] = []
        self.replaced: list[Explanation] = []
        self.surface: Callable[[Sequence[Explanation]], set[str]] | None = None
        self.unrun: str | None = None


def explain_lines(
    top: str,
    path: str,
    ranges: Sequence[tuple[int, int]] = (),
    *,
    state_dir: str,
    exclude: Sequence[str] = (),
    store: MemoryStore | None = None,
    project: str | None = None,
    shown_path: str | None = None,
    deadline: float | None = None,
    max_owners: int | None = None,
    max_previous: int | None = None,
    saved: bool = False,
    focus: Sequence[tuple[int, int]] = (),
    walk: Callable[[Explanation], bool] | None = None,
    surface: bool = False,
    max_before: int | None = MAX_BEFORE,
) -> Why:
    """Why lines ``ranges`` of ``path`` (relative to the work tree ``top``) are as they
    are. ``exclude``: the chain's exclusion phrases; ``store``/``project``: the embedded
    store whose revert marks apply; ``shown_path``: the path as the answer names it
    (root-relative; default ``path``); ``max_owners``: keep the owners of most lines;
    ``max_previous``: look up the previous owners of that many low-signal owners at most
    (most lines first: a cold whole-file read has dozens, each a diff and a blame; none
    once ``deadline`` passed); ``saved``: answer for the version the cache saved before
    an edit just applied; ``focus``: the lines of ``ranges`` an edit really changes (its
    context lines left out) — a low-signal owner's previous owners are those of its
    lines there (each line's history is its own: the context of a reformatted block must
    not hide what the changed lines replaced), and one that owns none of them is not
    walked back; ``walk``: whether a low-signal owner's previous owners are worth
    looking up (default: all); ``surface``: give the answer its :attr:`Why.surface` judge;
    ``max_before``: the previous owners named per owner (and per step back), most lines
    first, and :data:`MAX_WALK` further back (None: every one — ``memhooks why``, where a
    range's answer names each line's).
    What an owner did to the lines asked (``focus``'s, when it owns any) may overrule its
    subject, one rule for a read, an edit and ``memhooks why`` (:mod:`.why_delta`): an
    owner that changed them only in whitespace, or whose subject names a layout change
    among other words (:func:`memhooks.history.layout.names_layout`) and that changed them only
    on their surface (:mod:`memhooks.lines.surface`: whitespace, comments), is
    formatting there — walked back as the low-signal rule's formatting commits are —;
    one whose subject says it reshapes code but that only added words to them is no
    reshape there. Whitespace is judged line by line: an owner that only re-spaced some
    of the lines and changed others is walked back from the first alone, as an
    explanation of its own after the owner's (:class:`Explanation`). With
    ``max_previous``, at most :data:`JUDGED` owners are judged so (most lines first: a
    read's whole file has hundreds).
    Raises :class:`memhooks.lines.BlameError` when git cannot run,
    :class:`~memhooks.errors.DiagnosticError` MH032 when git cannot read a commit."""
    if saved:  # the version before an edit just applied (lines.saved_text)
        own = owners_saved(top, path, ranges, state_dir=state_dir)
    else:
        own = owners(top, path, ranges, state_dir=state_dir, deadline=deadline)
    answer = Why(shown_path or path, ranges)
    answer.total, answer.uncommitted, answer.unknown = own.lines, own.uncommitted, own.unknown
    answer.size = own.size
    answer.uncommitted_lines = own.uncommitted_lines
    answer.cut = [(o.hash, o.lines) for o in own.owners if o.boundary]
    # a read's: in how many places each commit owns the whole file (a sweep's footprint)
    places = own.entry.places() if surface and own.entry is not None else {}
    if surface:
        answer.surface = _surface_judge(top, own, deadline)
    found = _owners(own, max_owners, answer)
    # an owner of wordless lines alone is read too (the same git process): an edit's
    # shortcut (hook.told) finds every owner of the lines around it in the notes
    read = [o.hash for o in own.owners if o in found or (not o.boundary and max_owners is None)]
    commits = texts(top, read, own)
    left_out = LeftOut(rules(exclude), store, project)
    left_out.look_up(commits)
    walks, most = max_previous, max_before
    focused = own.within(focus) if focus else None
    parts: dict[str, set[int]] = {}
    if not late(deadline):  # what the owners did to these lines: judged (git) once
        limit = None if walks is None else JUDGED
        parts = rejudge(top, found, commits, own, focused, deadline, limit)
    for owner in found:
        commit = commits.get(owner.hash)
        if commit is None:
            continue
        if left_out.leaves_out(commit, answer.path):
            continue
        explanation = Explanation(commit, owner.lines)
        explanation.initial = owner.previous is None and commit.root
        explanation.places = places.get(owner.hash, 0)
        start = worded_part(own, owner if focused is None else focused.owner(owner.hash))
        can_walk = (walks is None or walks > 0) and not late(deadline)
        answer.explanations.append(explanation)
        part, rest = part_of(own, owner, parts.get(owner.hash) if can_walk else None)
        if part is not None:  # formatting on these of its lines alone: walked back there
            shaped = Explanation(reshaped(commit), part.lines)
            shaped.places = explanation.places
            if walk is None or walk(shaped):
                shaped.before, shaped.earlier = walk_back(top, part, own, deadline, left_out, most)
                walks = None if walks is None else walks - 1
            if shaped.before or shaped.earlier:  # else the owner's lines all, as itself
                explanation.lines = rest
                answer.explanations.append(shaped)
        elif (
            walks_back(commit)
            and start is not None
            and can_walk
            and (walk is None or walk(explanation))
        ):
            found_before = walk_back(top, start, own, deadline, left_out, most)
            explanation.before, explanation.earlier = found_before
            walks = None if walks is None else walks - 1
    answer.excluded = left_out.excluded
    answer.unrun = own.unrun
    return answer


def _surface_judge(
    top: str, own: Ownership, deadline: float | None
) -> Callable[[Sequence[Explanation]], set[str]]:
    def judge(explanations: Sequence[Explanation]) -> set[str]:
        from ..lines.surface import surface_owners  # only for owners about to be told

        found = [own.owner(e.commit.hash) for e in explanations]
        owners = [o for o in found if o is not None]
        return surface_owners(top, owners, own, deadline=deadline) if owners else set()

    return judge


def _owners(own: Ownership, limit: int | None, answer: Why) -> list[Owner]:
    """The owners worth naming, most lines first, at most ``limit``: not a shallow
    clone's edge, and not one owning only lines without a word (kept in
    ``answer.wordless``)."""
    kept = []
    for owner in own.owners:
        if owner.boundary:
            continue
        if own.wordless(owner.lines):
            for n in numbers(owner.lines):
                extend(answer.wordless, n)
            continue
        kept.append(owner)
    return kept if limit is None else kept[:limit]


def walk_back(
    top: str,
    owner: Owner,
    own: Ownership,
    deadline: float | None,
    left_out: LeftOut,
    limit: int | None = MAX_BEFORE,
) -> tuple[list[tuple[Commit, int]], list[tuple[Commit, int, str]]]:
    """``owner``'s previous owners, and behind each of them that is low-signal too, the
    owners of the lines it made — each line followed by its text, so each line's chain
    is followed, not the chain of the most lines (requests' ``auth.py``
    290–297: the fix behind a rename owns one line of four) — a step at a time, renames
    followed: ``(before, earlier)`` of :class:`Explanation`; at most ``limit`` previous
    owners a step and :data:`MAX_WALK` further back (None: every one, however far)."""
    from ..lines.previous import previous_owners  # only an owner that reshaped its lines

    found = previous_owners(top, owner, own, deadline=deadline)
    before = said_before(top, found, own, left_out, limit, owner.hash)
    rejudge_before(top, before, own, deadline)
    earlier: list[tuple[Commit, int, str]] = []
    seen = {owner.hash, *(c.hash for _, c in before)}
    steps = [(b, c) for b, c in before if walks_back(c)]
    most = MAX_WALK if limit is not None else None
    while steps and (most is None or len(earlier) < most) and not late(deadline):
        step, after = steps.pop(0)
        further = previous_owners(top, step, own, deadline=deadline)
        told = said_before(top, further, own, left_out, limit, step.hash)
        rejudge_before(top, told, own, deadline)
        for back, commit in told:
            if commit.hash in seen or (most is not None and len(earlier) >= most):
                continue
            seen.add(commit.hash)
            earlier.append((commit, back.count, after.hash))
            if walks_back(commit):
                steps.append((back, commit))
    return with_news([(c, b.count) for b, c in before], earlier)


def walks_back(commit: Commit) -> bool:
    """Whether the commits before ``commit`` say why its lines are so: it is low-signal
    or reshapes code, and is no bump (:func:`memhooks.lines.said.walked`, the one rule)."""
    return walked(commit.low_signal)
