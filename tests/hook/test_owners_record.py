"""A commit a parallel hook call of the session claimed first is not told again
(hook/owners._record, reviewA): parallel Reads each rendered the whole answer when the
ledger claimed any of its commits, so a shared owner came once per Read. And a commit
is recorded told only when the answer tells it (newcomer1: parallel Reads of one file
marked commits told that never reached the model)."""

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
            self.chars, delivered = size(claimed)
            claimed &= delivered  # as Session.record: only what is told is recorded
        self.recorded = claimed
        return claimed


def told(*hashes: str) -> LineRecall:
    text = "\n".join(f"{h[:12]} owns lines" for h in hashes)
    return LineRecall(text, list(hashes), SimpleNamespace(explanations=[]))  # type: ignore[arg-type]


def test_only_the_commits_this_call_claimed_are_told_and_counted() -> None:
    shared, own = "a" * 40, "b" * 40
    ledger = Ledger({keys.commit(shared)})
    call = SimpleNamespace(session=ledger, native="PostToolUse")
    asked: list[set[str]] = []

    def without(taken: set[str], only: set[str]) -> LineRecall:
        asked.append(taken)
        assert only == {own}
        return told(own)

    answer = owners._record(call, "src/x.py", told(shared, own), without)  # type: ignore[arg-type]
    assert asked == [{shared}]
    assert answer is not None and answer.commits == [own] and shared[:12] not in answer.text
    assert ledger.chars == len(answer.text)


def test_nothing_is_told_when_every_commit_was_claimed_first() -> None:
    shared = "a" * 40
    call = SimpleNamespace(session=Ledger({keys.commit(shared)}), native="PostToolUse")
    assert owners._record(call, "x.py", told(shared), lambda taken, only: told()) is None  # type: ignore[arg-type]


def test_an_answer_made_again_is_made_of_the_claimed_commits_alone() -> None:
    shared, own = "a" * 40, "b" * 40
    ledger = Ledger({keys.commit(shared)})
    call = SimpleNamespace(session=ledger, native="PostToolUse")
    answer = owners._record(
        call, "x.py", told(shared, own), lambda taken, only: told(*sorted(only))
    )  # type: ignore[arg-type]
    assert answer is not None and answer.commits == [own]


def test_a_claimed_commit_the_smaller_answer_leaves_out_is_not_recorded_told() -> None:
    # the owner was taken by a parallel Read; the commit behind it, claimed here, is not
    # told without it: it must stay untold in the ledger (newcomer1: '0 characters' rows)
    owner_, behind = "a" * 40, "b" * 40
    ledger = Ledger({keys.commit(owner_)})
    call = SimpleNamespace(session=ledger, native="PostToolUse")
    assert owners._record(call, "x.py", told(owner_, behind), lambda taken, only: told()) is None  # type: ignore[arg-type]
    assert ledger.recorded == set()


def test_the_ledger_records_only_what_the_answer_delivers(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Session.record with a size that says which of the claimed items were delivered
    from memhooks.session import State, open_session

    session = open_session(
        State(str(tmp_path / "state.sqlite3")), "claude-code", "P1", str(tmp_path)
    )
    items = [{"item": keys.commit(h * 40), "words": h, "cue": None} for h in "ab"]
    claimed = session.record("PostToolUse", "x.py", items, lambda c: (7, {keys.commit("b" * 40)}),
                             tool_time=True)  # fmt: skip
    assert claimed == {keys.commit("b" * 40)}
    again = open_session(State(str(tmp_path / "state.sqlite3")), "claude-code", "P1", str(tmp_path))
    assert keys.of(keys.COMMIT, again.delivered()) == {"b" * 40}  # "a" may still be told
    assert session.record("PostToolUse", "x.py", items[:1], lambda c: (0, set())) == set()
