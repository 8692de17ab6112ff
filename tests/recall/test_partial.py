"""A huge valid hook answers within the deadline with what fits (issue 22 item 7): the
queries are searched highest priority first until the time left would not fit another,
the rest are left unsearched (not failed), and the answer says so in one clear line —
not "search took longer than 0.00 s"."""

from __future__ import annotations

import time
from pathlib import Path

from memhooks.backends.base import Hit, SearchRequest
from memhooks.backends.fake import FakeBackend
from memhooks.recall import recall_result
from memhooks.recall.result import unavailable

QUERIES = 1800


def slow(request: SearchRequest) -> list[Hit]:
    """20 ms per search, each finding one memory of its own."""
    time.sleep(0.02)
    return [Hit("m-" + request.text[-6:], "a memory about " + request.text, 1.0)]


def test_a_hook_of_1800_queries_gives_a_partial_answer_in_time(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    queries = "".join(
        f'  - query: "How does part {n} of the billing service round its totals?"\n'
        f"    priority: {(n % 100) / 100:.2f}\n"
        for n in range(QUERIES)
    )
    hook = f"---\nschema: memhooks/v2\nrecall_queries:\n{queries}---\n"
    (root / "MEMHOOKS.md").write_text(hook, encoding="utf-8")
    assert 150_000 < len(hook) < 256 * 1024
    started = time.monotonic()
    result = recall_result(str(root), prompt="totals", backend=FakeBackend(slow, name="slow"), deadline_s=1.0)
    took = time.monotonic() - started
    statuses = [q["status"] for q in result.queries]
    searched = statuses.count("ok")
    assert statuses.count("skipped") == QUERIES - searched > 0
    assert "error" not in statuses and "timeout" not in statuses
    assert result.status == "ok" and result.memories
    assert unavailable(result) is None  # nothing failed: the sources answered
    line = f"a partial answer: {searched} of {QUERIES} recall queries were searched before the deadline (highest priority first); the rest were not"
    assert result.partial() == line and line in result.notes
    done = [q["priority"] for q in result.queries if q["status"] == "ok"]
    left = [q["priority"] for q in result.queries if q["status"] == "skipped"]
    assert min(done) >= max(left)  # the most important were searched first
    assert took < 1.0 + 1.0  # the searches stopped at the deadline (ranking is kept in it)
