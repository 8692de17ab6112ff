"""The recall result for people: ``memhooks recall``'s text. It starts with the status
line (:mod:`.status`); what the model receives is :mod:`.result`'s."""

from __future__ import annotations

from ..terminal import visible
from .result import short
from .status import headline

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def text(result: dict[str, Any]) -> str:
    """Human-readable rendering of a recall result (control characters shown as escapes)."""
    status, shown = headline(result)
    lines = [
        f"memhooks recall: {status}",
        f"backend: {result['backend'] or 'none'}   project: {result['project']}",
        f"budget: {result['budget']['used']}/{result['budget']['chars']} characters",
    ]
    for number, memory in enumerate(result["memories"], 1):
        meta = ", ".join(str(memory[k]) for k in ("kind", "created_at") if memory.get(k))
        lines.append("")
        lines.append(
            f"[{number}] {memory['id']}  scope: {memory['scope'] or '.'}"
            + (f"  ({meta})" if meta else "")
        )
        lines += [f"    {line}" for line in memory["text"].splitlines() or [""]]
        # a query none of whose own words or files match the memory (it returned it with
        # the prompt searched beside it) is counted, not listed: each such line named a
        # question that had nothing to do with the memory (the README's demo: six lines a
        # memory, newcomer24)
        prompted, credited = 0, 0
        for by in memory["recalled_by"]:
            if by.get("matched") == "prompt":
                prompted += 1
                continue
            credited += 1
            priority = "default" if by["priority"] is None else f"{by['priority']:.2f}"
            lines.append(
                f"    recalled by [{priority}] {short(by['query'])}  (score {by['score']:.4g})"
            )
        if prompted:
            queries = "query" if prompted == 1 else "queries"
            also = "also returned" if credited else "returned"
            lines.append(f"    {also} by {prompted} {queries} searched with the prompt")
    dropped = result["dropped"]
    if any(dropped.values()):
        lines.append("")
        lines.append(
            f"left out: {dropped['budget']} over budget, {dropped['excluded']} excluded, {dropped['duplicates']} duplicates"
            + (
                f", {dropped['below_floor']} below the relevance floor"
                if dropped.get("below_floor")
                else ""
            )
        )
    failed = [q for q in result["queries"] if q["status"] != "ok"]
    for query in failed:
        lines.append(f"query {query['status']}: {query['query']}: {query['error']}")
    for note in result["notes"]:
        if note != shown:
            lines.append(f"note: {note}")
    # Memories and hooks are untrusted: their control characters are shown, not obeyed.
    return "\n".join(visible(line) for line in "\n".join(lines).splitlines())
