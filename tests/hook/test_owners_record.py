"""A commit a parallel hook call of the session claimed first is not told again
(hook/owners._record, reviewA): parallel Reads each rendered the whole answer when the
ledger claimed any of its commits, so a shared owner came once per Read."""

from __future__ import annotations

from types import SimpleNamespace

from memhooks.hook import owners
from memhooks.recall.line_recall import LineRecall
from memhooks.session import keys


class Ledger:
    """The session's ``record`` as the ledger answers it: what another call took first
    is not claimed; ``size`` is asked for what is."""

    def __init__(self, taken: set[str]) -> None:
        self.taken = taken
        self.chars: int | None = None

    def record(self, native, target, items, size, *, tool_time=False):  # type: ignore[no-untyped-def]
        claimed = {str(i["item"]) for i in items} - self.taken
        if claimed:
            self.chars = size(claimed)
        return claimed


def told(*hashes: str) -> LineRecall:
    text = "\n".join(f"{h[:12]} owns lines" for h in hashes)
    return LineRecall(text, list(hashes), SimpleNamespace(explanations=[]))  # type: ignore[arg-type]


def test_only_the_commits_this_call_claimed_are_told_and_counted() -> None:
    shared, own = "a" * 40, "b" * 40
    ledger = Ledger({keys.commit(shared)})
    call = SimpleNamespace(session=ledger, native="PostToolUse")
    asked: list[set[str]] = []

    def without(taken: set[str]) -> LineRecall:
        asked.append(taken)
        return told(own)

    answer = owners._record(call, "src/x.py", told(shared, own), without)  # type: ignore[arg-type]
    assert asked == [{shared}]
    assert answer is not None and answer.commits == [own] and shared[:12] not in answer.text
    assert ledger.chars == len(answer.text)


def test_nothing_is_told_when_every_commit_was_claimed_first() -> None:
    shared = "a" * 40
    call = SimpleNamespace(session=Ledger({keys.commit(shared)}), native="PostToolUse")
    assert owners._record(call, "x.py", told(shared), lambda taken: told()) is None  # type: ignore[arg-type]


def test_an_answer_made_again_never_tells_a_commit_it_did_not_claim() -> None:
    shared, own, freed = "a" * 40, "b" * 40, "c" * 40
    call = SimpleNamespace(session=Ledger({keys.commit(shared)}), native="PostToolUse")
    answer = owners._record(call, "x.py", told(shared, own), lambda taken: told(own, freed))  # type: ignore[arg-type]
    assert answer is None
