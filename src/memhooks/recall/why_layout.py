"""Where a commit only re-laid lines out, line-level recall looks behind it: an owner
whose subject names a layout change among other words
(:func:`memhooks.words.names_layout`) and that changed the lines asked only on their
surface (:mod:`memhooks.lines.surface`: whitespace, comments) is formatting there, and
is walked back as the low-signal rule's formatting commits are — iproute2 897772a7
"cmd: use spaces instead of tabs for usage indentation" re-indented usage strings and
was told as their reason (its subject passes the low-signal rule: "use", "instead",
"usage"). Loaded only for such an owner: a judgement reads both versions of the file
from git, and an edit's owners are told within its deadline.
"""

from __future__ import annotations

from ..history.reasons import FORMATTING
from ..lines.surface import surface_owners

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..lines.ownership import Owner, Ownership
    from .why_commit import Commit


def relayout(
    top: str,
    asked: Sequence[Owner],
    commits: dict[str, Commit],
    own: Ownership,
    focused: Ownership | None,
    deadline: float | None,
) -> None:
    """Mark formatting (the low-signal reason, in this answer's ``commits``) each owner of
    ``asked`` that changed its lines (those in ``focused``, when given: an edit's changed
    lines) only on their surface, in the work tree ``top`` whose answer ``own`` keeps
    the verdicts. Raises nothing; past ``deadline`` an owner is not judged."""
    owners = [o if focused is None else focused.owner(o.hash) for o in asked]
    judged = [o for o in owners if o is not None]
    for hash_ in surface_owners(top, judged, own, deadline=deadline) if judged else ():
        commits[hash_].low_signal = FORMATTING  # this answer's copy of what it said
