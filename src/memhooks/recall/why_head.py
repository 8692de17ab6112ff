"""What uncommitted lines replaced, for ``memhooks why``: the commits owning those lines
at HEAD — their last committed version — each walked back where it only reshaped its
lines, by the rule for committed lines (:func:`memhooks.recall.why.walks_back`): an
edit over a "perf: simplify" line names the decision it simplified away, as a question
about the committed line does. Not on the hook's path (the hook tells what owns the
lines an edit replaces, which are committed or owned by nothing).
"""

from __future__ import annotations

from ..lines.blame import old_side
from ..lines.ownership import owners_at_head
from ..lines.ranges import numbers, ranges_of
from .why import Explanation, Why, walk_back, walks_back
from .why_delta import late
from .why_commit import LeftOut, rules, texts
from .why_delta import worded_part

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..store import MemoryStore


def at_head(
    top: str,
    path: str,
    answer: Why,
    *,
    state_dir: str,
    exclude: Sequence[str] = (),
    store: MemoryStore | None = None,
    project: str | None = None,
    deadline: float | None = None,
) -> None:
    """Fill ``answer.replaced`` for the uncommitted lines of ``answer`` (of ``path``,
    relative to the work tree ``top``): one diff against HEAD, one blame there (kept in
    the blame cache under HEAD's own key), most lines first; what the chain's
    ``exclude`` phrases or the store's revert marks leave out joins ``answer.excluded``.
    Lines only added replaced nothing; a shallow clone's edge is no owner; every previous
    owner is named, as ``memhooks why`` names them (its one caller). Raises
    :class:`memhooks.lines.BlameError` when git cannot run."""
    if not answer.uncommitted_lines:
        return
    olds = old_side(top, ("HEAD", path), ("", path), answer.uncommitted_lines)
    wanted = ranges_of(numbers([r for old in olds.values() for r in old]))
    if not wanted:
        return
    own = owners_at_head(top, path, wanted, state_dir=state_dir, deadline=deadline)
    found = [o for o in own.owners if not o.boundary]
    commits = texts(top, [o.hash for o in found], own)
    left_out = LeftOut(rules(exclude), store, project)
    left_out.look_up(commits)
    for owner in found:
        commit = commits.get(owner.hash)
        if commit is None or left_out.leaves_out(commit, path):
            continue
        explanation = Explanation(commit, owner.lines)
        start = worded_part(own, owner)  # a line without a word has nothing to follow
        if walks_back(commit) and start is not None and not late(deadline):
            back = walk_back(top, start, own, deadline, left_out, None)  # every one, as why
            explanation.before, explanation.earlier = back
        answer.replaced.append(explanation)
    answer.unrun = answer.unrun or own.unrun
    known = {h for h, _, _ in answer.excluded}
    answer.excluded += [e for e in left_out.excluded if e[0] not in known]
