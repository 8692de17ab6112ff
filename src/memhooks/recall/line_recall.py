"""Line-level recall for the hook (issue 20 items 2, 3): what to tell an agent about the
lines it just read or is about to replace, once per session.

* **Read**: the owners of the lines read, ranked by lines owned and by the session's
  prompt above a floor (:mod:`.line_rank`), a few per file.
* **Edit**: the owners of the lines being replaced (±3), most lines first, at most
  :data:`EDIT_OWNERS`; where an owner is low-signal, the commits before it. The
  project's first commit (:attr:`~.why.Explanation.initial`: an import, a "test project"
  commit) is told only when its message matches the prompt (:func:`.line_rank.answers`),
  as at a read.

Each owner is one line saying which lines it explains, then what it said (bounded): the
words of :mod:`.why_text`. A commit the session was already given (at a read, an edit,
or as a history memory at a prompt) is not told again, and is left out *before* the
owners are ranked and capped, so it never takes the place of one the session lacks: an
owner whose commits were all delivered is left out — at a read, an owner told before
whatever it replaced here (a formatting commit read in file after file is named once) —
and at an edit a commit named again, as the owner the lines' previous owners are behind,
comes without its message. Commit text is untrusted and labelled.
"""

from __future__ import annotations

from ..lines.said import says_little
from .why import explain_lines

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..store import MemoryStore
    from .why import Explanation, Why

READ = "read"
EDIT = "edit"
#: Most owners told about the lines of one edit.
EDIT_OWNERS = 4
#: Low-signal owners of a read whose previous owners are looked up (most lines first):
#: twice the owners a read keeps (:data:`.line_rank.LIMIT`), each a diff and a blame cold.
READ_PREVIOUS = 6
#: A read of at most this many lines is narrow: a sweeping owner of its lines (a
#: formatting or typing pass over the project) is walked back there too — what it
#: replaced on a few lines is one or two commits, not the file's grab-bag of history
#: (newcomer trial: requests' auth.py 286–297, owned by "Add automatic code formatting",
#: told nothing at the Read while ``why`` and the edit named 5296b8be "Fix infinite loop
#: on wrong Digest Authentication" behind it).
NARROW_READ = 60
#: Characters of one commit message at tool time (the rest: ``git show <id>``).
MESSAGE_CHARS = 500


class LineRecall:
    """What to deliver: ``text`` (``""``: nothing), ``commits`` (full hashes whose
    messages it carries, for the session's ledger), ``why`` (the answer it came from,
    owners kept) and ``cut``: the owners worth telling that ``max_chars`` left out
    (none of their commits named in ``text`` nor told before)."""

    __slots__ = ("capped", "commits", "cut", "text", "why")

    def __init__(
        self,
        text: str,
        commits: list[str],
        why: Why,
        cut: Sequence[Explanation] = (),
        capped: Sequence[Explanation] = (),
    ) -> None:
        self.text = text
        self.commits = commits
        self.why = why
        self.cut = list(cut)
        #: An edit's owners worth telling past the :data:`EDIT_OWNERS` it is told.
        self.capped = list(capped)


def line_recall(
    top: str,
    path: str,
    ranges: Sequence[tuple[int, int]],
    *,
    kind: str,
    state_dir: str,
    deadline: float | None = None,
    prompt: str | None = None,
    exclude: Sequence[str] = (),
    store: MemoryStore | None = None,
    project: str | None = None,
    shown_path: str | None = None,
    delivered: frozenset[str] | set[str] = frozenset(),
    max_chars: int = 2000,
    focus: Sequence[tuple[int, int]] = (),
    saved: bool = False,
) -> LineRecall:
    """Line-level recall for lines ``ranges`` of ``path`` (relative to the work tree
    ``top``) that were read (``kind`` :data:`READ`) or are about to be replaced
    (:data:`EDIT`); ``focus``: for an edit, the lines it replaces without their context
    (their owners go first); ``saved``: the edit is already applied (a host without a
    pre-tool channel): answer for the version saved before it; ``delivered``: full
    hashes the session was given. Raises what
    :func:`memhooks.recall.why.explain_lines` raises."""
    narrow = kind == READ and bool(ranges) and sum(b - a + 1 for a, b in ranges) <= NARROW_READ
    why = explain_lines(
        top,
        path,
        ranges,
        state_dir=state_dir,
        exclude=exclude,
        store=store,
        project=project,
        shown_path=shown_path,
        deadline=deadline,
        saved=saved,
        max_previous=READ_PREVIOUS if kind == READ else None,
        focus=focus if kind == EDIT else (),
        walk=_not_sweeping if kind == READ and not narrow else None,
        surface=kind == READ,
    )
    # What the session has is dropped before ranking and capping: the owners it was
    # given (at a prompt, at another read) must not take the places of those it lacks.
    why.explanations = [e for e in why.explanations if _fresh(e, kind, delivered)]
    capped: list[Explanation] = []
    if kind == READ:
        from .line_rank import rank  # only a read is ranked (the hook's edit path: item 7)

        fresh = rank(why, prompt, narrow=narrow)
    else:
        fresh = sorted(why.explanations, key=lambda e: -_overlap(e.lines, focus))
        worthy = [e for e in fresh if _edit_worthy(e, focus, prompt)]
        fresh, capped = worthy[:EDIT_OWNERS], worthy[EDIT_OWNERS:]
    why.explanations = fresh
    if not fresh:
        return LineRecall("", [], why)  # all told: a warm edit loads no renderer
    from .why_text import render_kept

    text, kept = render_kept(why, max_chars=max_chars, message_chars=MESSAGE_CHARS, known=delivered)
    commits = [
        commit.hash
        for explanation in kept
        for commit in (explanation.commit, *explanation.previous)
        if commit.hash not in delivered
    ]
    named = {*delivered, *commits}
    cut = [e for e in fresh if not {e.commit.hash, *(c.hash for c in e.previous)} <= named]
    return LineRecall(text, list(dict.fromkeys(commits)), why, cut, capped)


def _fresh(explanation: Explanation, kind: str, delivered: frozenset[str] | set[str]) -> bool:
    """Whether ``explanation`` brings a commit the session lacks (``delivered``: full
    hashes it was given): not when its owner and every commit behind it were told, nor at
    a read when its owner was (told at another file: what it replaced here is not named
    behind it)."""
    if not delivered:
        return True
    owner = explanation.commit.hash
    if kind == READ and owner in delivered:
        return False
    return not {owner, *(c.hash for c in explanation.previous)} <= delivered


def _edit_worthy(
    explanation: Explanation, focus: Sequence[tuple[int, int]], prompt: str | None
) -> bool:
    """Whether an owner of an edit's lines is worth telling: the project's first commit
    only when it answers the prompt; a low-signal owner (a bump, formatting, a merge …:
    :func:`memhooks.lines.said.says_little`) only when it brings what it replaced —
    alone it tells nothing, and low-signal commits never fill a tool-time delivery
    (issue 20 item 1); a reshaping one ("perf: simplify retry") of context lines alone
    (none the edit changes) only with what it replaced too."""
    if explanation.initial:
        return _answers(explanation, prompt)
    low = explanation.commit.low_signal
    if not low or explanation.previous:
        return True
    return not says_little(low) and _overlap(explanation.lines, focus) > 0


def _not_sweeping(explanation: Explanation) -> bool:
    """Whether a read's low-signal owner is worth walking back: a sweeping one is not
    told at a read (:func:`.line_rank.sweeping`), so what it replaced is not looked up."""
    from .line_rank import sweeping

    return not sweeping(explanation)


def _answers(explanation: Explanation, prompt: str | None) -> bool:
    from .line_rank import answers

    return answers(explanation, prompt)


def _overlap(lines: list[tuple[int, int]], focus: Sequence[tuple[int, int]]) -> int:
    """How many of ``lines`` fall in ``focus``."""
    return sum(
        max(0, min(last, f_last) - max(first, f_first) + 1)
        for first, last in lines
        for f_first, f_last in focus
    )
