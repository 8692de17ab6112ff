"""A commit a parallel hook call of the session claimed first is not told again
(hook/owners._record, reviewA): parallel Reads each rendered the whole answer when the
ledger claimed any of its commits, so a shared owner came once per Read. The answer is
made again inside the ledger's write, as a Read after the other would make it (the room
freed brings the next owners), and a commit is recorded told exactly when the answer
tells it (newcomer1: parallel Reads of one file marked commits told that never reached
the model)."""

from __future__ import annotations

from types import SimpleNamespace

from memhooks.hook import owners
from memhooks.recall.line_recall import LineRecall
from memhooks.session import keys


class Ledger:
    """The session's ``record_made`` as the ledger answers it inside its write: the
    answer is asked with what the session holds (``taken``), and only what it tells that
    no other call took is claimed."""

    def __init__(self, taken: set[str]) -> None:
        self.taken = taken
        self.chars: int | None = None
        self.asked: list[set[str]] = []

    def record_made(self, native, target, answer, *, tool_time=False):  # type: ignore[no-untyped-def]
        self.asked.append(set(self.taken))
        self.chars, items = answer(set(self.taken))
        self.recorded = {str(i["item"]) for i in items} - self.taken
        return self.recorded


def told(*hashes: str) -> LineRecall:
    text = "\n".join(f"{h[:12]} owns lines" for h in hashes)
    return LineRecall(text, list(hashes), SimpleNamespace(explanations=[]))  # type: ignore[arg-type]


def test_an_answer_a_parallel_call_overtook_is_made_again_and_brings_the_next_owner() -> None:
    # reviewA: a shared owner came once per parallel Read; lines20: the answer made
    # again without it told fewer than a Read after the other would (requests utils.py
    # 810-859 and 840-889 at once left a4f9a599 and 2255c34a to neither)
    shared, own, next_ = "a" * 40, "b" * 40, "c" * 40
    ledger = Ledger({keys.commit(shared), "mem-1"})
    call = SimpleNamespace(session=ledger, native="PostToolUse")
    asked: list[set[str]] = []

    def again(taken: set[str]) -> LineRecall:
        asked.append(taken)
        return told(own, next_)  # made without what the session holds now

    answer = owners._record(call, "src/x.py", told(shared, own), again)  # type: ignore[arg-type]
    assert asked == [{shared}]  # every commit the session holds, not memory ids
    assert answer is not None and answer.commits == [own, next_] and shared[:12] not in answer.text
    assert ledger.recorded == {keys.commit(own), keys.commit(next_)}
    assert ledger.chars == len(answer.text)


def test_an_answer_nobody_overtook_is_told_as_made() -> None:
    own = "b" * 40
    ledger = Ledger({keys.commit("d" * 40)})  # another commit, told elsewhere

    def again(taken: set[str]) -> LineRecall:
        raise AssertionError("made again although none of its commits was taken")

    call = SimpleNamespace(session=ledger, native="PostToolUse")
    answer = owners._record(call, "x.py", told(own), again)  # type: ignore[arg-type]
    assert answer is not None and answer.commits == [own] and ledger.recorded == {keys.commit(own)}


def test_nothing_is_told_or_claimed_when_every_commit_was_claimed_first() -> None:
    # the owner was taken by a parallel Read and the answer made again tells nothing:
    # nothing is claimed (newcomer1: '0 characters' rows of commits never told)
    shared = "a" * 40
    ledger = Ledger({keys.commit(shared)})
    call = SimpleNamespace(session=ledger, native="PostToolUse")
    assert owners._record(call, "x.py", told(shared), lambda taken: told()) is None  # type: ignore[arg-type]
    assert ledger.recorded == set()


def test_the_ledger_claims_what_the_answer_made_in_its_write_tells(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Session.record_made: the answer sees what a parallel call holds, and what it tells
    # is claimed in the same write — only that
    from memhooks.session import State, open_session

    def session():  # type: ignore[no-untyped-def]
        return open_session(
            State(str(tmp_path / "state.sqlite3")), "claude-code", "P1", str(tmp_path)
        )

    first, second = session(), session()
    item = {h: {"item": keys.commit(h * 40), "words": h, "cue": None} for h in "abc"}
    assert first.record_made("PostToolUse", "x.py", lambda taken: (5, [item["a"]])) == {
        keys.commit("a" * 40)
    }
    seen: list[set[str]] = []

    def answer(taken: set[str]) -> tuple[int, list[dict[str, object]]]:
        seen.append(taken)
        return 7, [item[h] for h in "bc" if keys.commit(h * 40) not in taken]

    assert second.record_made("PostToolUse", "x.py", answer, tool_time=True) == {
        keys.commit("b" * 40), keys.commit("c" * 40)}  # fmt: skip
    assert seen == [{keys.commit("a" * 40)}]
    again = session()
    assert keys.of(keys.COMMIT, again.delivered()) == {h * 40 for h in "abc"}
    assert again.tool_chars == 7
    # an answer that tells nothing claims nothing
    assert again.record_made("PostToolUse", "x.py", lambda taken: (0, [])) == set()
