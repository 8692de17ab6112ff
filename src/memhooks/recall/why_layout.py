"""Where a commit only re-laid lines out, line-level recall looks behind it: an owner
whose subject names a layout change among other words
(:func:`memhooks.history.layout.names_layout`) and that changed the lines asked only on their
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

    from ..lines.ownership import Blamed, Ownership
    from .why_commit import Commit


def relayout(
    top: str,
    asked: Sequence[Blamed],
    commits: dict[str, Commit],
    own: Ownership,
    deadline: float | None,
) -> None:
    """Mark formatting (the low-signal reason, in this answer's ``commits``) each owner of
    ``asked`` (each with the lines judged: an edit's changed lines where it owns any)
    that changed them only on their surface, in the work tree ``top`` whose answer
    ``own`` keeps the verdicts. Raises nothing; past ``deadline`` an owner is not
    judged."""
    for hash_ in surface_owners(top, asked, own, deadline=deadline) if asked else ():
        commits[hash_].low_signal = FORMATTING  # this answer's copy of what it said
