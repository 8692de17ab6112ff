"""What happened in a recall, in one line: the status line ``memhooks recall`` prints
first (:mod:`.summary`), which also says why when memory was unavailable and a hook
tells the model so (:func:`memhooks.recall.result.unavailable`)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

STATUS_TEXT = {
    "ok": "recalled {n} memor{ies}",
    "nothing_found": "searched, nothing relevant found",
    "over_budget": "found {dropped} memor{dies}, but none fits the budget; raise --budget",
    "empty_store": "no memories recorded for this project yet (in this store)",
    "no_cues": "no recall queries in the hooks here and no prompt: nothing to recall",
    "no_backend": "no memory backend is available",
    "failed": "every recall query failed",
}


def headline(result: dict[str, Any]) -> tuple[str, str | None]:
    """The status line of a recall result (what happened, and for ``no_backend`` /
    ``failed`` why) and the reason it quotes, if any."""
    n = len(result["memories"])
    over = result["dropped"]["budget"]
    status = STATUS_TEXT[result["status"]].format(
        n=n, ies="y" if n == 1 else "ies", dropped=over, dies="y" if over == 1 else "ies"
    )
    if result["status"] in ("no_backend", "failed"):
        reasons = [q["error"] for q in result["queries"] if q.get("error")] + result["notes"]
        if reasons:  # the why belongs in the headline, not only in a note below
            return f"{status}: {reasons[0]}", reasons[0]
    return status, None
