"""How long a commit's text may be, and where it is cut: the one rule for a memory made
from a commit (:mod:`.message`) and a commit told at tool time
(:func:`memhooks.recall.why_text.render_kept`). Apart from :mod:`.message` because that
module compiles its trailer patterns on import (~1.4 ms, with :mod:`re`), and a warm
pre-tool edit that tells a long message needs only the cut (issue 20 item 7)."""

from __future__ import annotations

#: Longest memory text made from one commit message (characters; a cut text ends in "…").
MAX_TEXT_CHARS = 2000


def bound(text: str, limit: int = MAX_TEXT_CHARS) -> str:
    """``text`` cut to at most ``limit`` characters, at a line or word end when one is
    near (in the last fifth), with ``…`` marking the cut."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    for mark in ("\n", " "):
        end = cut.rfind(mark)
        if end >= limit * 4 // 5:
            cut = cut[:end]
            break
    return cut.rstrip() + "…"
