"""A :class:`~memhooks.recall.why.Why` as data: ``memhooks why --format json`` and the MCP
``why`` tool (the words of the same answer: :mod:`.why_text`).
"""

from __future__ import annotations

from typing import Any

from .why import Explanation, Why
from .why_commit import Commit
from .why_notes import notes, nothing
from .why_text import date


def to_json(why: Why) -> dict[str, Any]:
    """``why`` as a JSON-ready dict (``untrusted``: the messages are commit text)."""
    return {
        "path": why.path,
        "lines": [list(r) for r in why.lines],
        "owners": [_explanation_json(e) for e in why.explanations],
        # owners and previous owners left out; "behind": the commit that replaced the
        # lines of a previous owner (null for an owner)
        "excluded": [{"commit": h, "reason": r, "behind": b} for h, r, b in why.excluded],
        # a shallow clone's edge: the history of these lines is not in the clone
        "history_cut": [{"commit": h, "lines": [list(r) for r in lines]} for h, lines in why.cut],
        # lines holding no letter or digit whose owners own nothing else asked about
        "wordless_ranges": [list(r) for r in why.wordless],
        "uncommitted_lines": why.uncommitted,
        "uncommitted_ranges": [list(r) for r in why.uncommitted_lines],
        # the commits owning, at HEAD, what the uncommitted lines replaced, as owners are
        # ("lines": HEAD's line numbers), walked back as owners are
        "uncommitted_replaced": [_explanation_json(e) for e in why.replaced],
        "binary": why.binary,
        "unknown_lines": why.unknown,
        "file_lines": why.size,
        "notes": notes(why) if why.explanations else [nothing(why), *notes(why)],
        "untrusted": True,
    }


def _explanation_json(explanation: Explanation) -> dict[str, Any]:
    return {
        **_commit_json(explanation.commit),
        "lines": [list(r) for r in explanation.lines],
        "before": [{**_commit_json(c), "replaced_lines": n} for c, n in explanation.before],
        # further back behind a low-signal commit of "before" (or of "earlier"), a step
        # each along every line's chain; "replaced_by": that commit
        "earlier": [
            {**_commit_json(c), "replaced_lines": n, "replaced_by": after}
            for c, n, after in explanation.earlier
        ],
    }


def _commit_json(commit: Commit) -> dict[str, Any]:
    return {
        "commit": commit.hash,
        "subject": commit.subject,
        "date": date(commit.time),
        "low_signal": commit.low_signal,
        "message": commit.message,
    }
