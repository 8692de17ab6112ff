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

    def record_made(self, native, target, answer, *, tool_time=False, ceiling=None):  # type: ignore[no-untyped-def]
        self.asked.append(set(self.taken))
        self.chars, items = answer(set(self.taken), None)
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

    def again(taken: set[str], room: int | None) -> LineRecall:
        asked.append(taken)
        return told(own, next_)  # made without what the session holds now

    answer = owners._record(call, "src/x.py", told(shared, own), again, 8000)  # type: ignore[arg-type]
    assert asked == [{shared}]  # every commit the session holds, not memory ids
    assert answer is not None and answer.commits == [own, next_] and shared[:12] not in answer.text
    assert ledger.recorded == {keys.commit(own), keys.commit(next_)}
    assert ledger.chars == len(answer.text)


def test_an_answer_nobody_overtook_is_told_as_made() -> None:
    own = "b" * 40
    ledger = Ledger({keys.commit("d" * 40)})  # another commit, told elsewhere

    def again(taken: set[str], room: int | None) -> LineRecall:
        raise AssertionError("made again although none of its commits was taken")

    call = SimpleNamespace(session=ledger, native="PostToolUse")
    answer = owners._record(call, "x.py", told(own), again, 8000)  # type: ignore[arg-type]
    assert answer is not None and answer.commits == [own] and ledger.recorded == {keys.commit(own)}


def test_nothing_is_told_or_claimed_when_every_commit_was_claimed_first() -> None:
    # the owner was taken by a parallel Read and the answer made again tells nothing:
    # nothing is claimed (newcomer1: '0 characters' rows of commits never told)
    shared = "a" * 40
    ledger = Ledger({keys.commit(shared)})
    call = SimpleNamespace(session=ledger, native="PostToolUse")
    assert owners._record(call, "x.py", told(shared), lambda taken, room: told(), 8000) is None  # type: ignore[arg-type]
    assert ledger.recorded == set()


def test_the_answer_is_made_outside_the_write_and_again_when_overtaken(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Session.record_made: the answer (line recall: git, blame cache files) is made with
    # the ledger this call read, outside the state file's write lock (review 13:46: made
    # inside it, one overtaken Read held the lock 547 ms with 11 git processes, and every
    # hook call of every session waited); the write claims it only when none of its
    # items was taken since — else it is made again from what stood then
    from memhooks.session import State, open_session

    def session():  # type: ignore[no-untyped-def]
        return open_session(
            State(str(tmp_path / "state.sqlite3")), "claude-code", "P1", str(tmp_path)
        )

    first, second = session(), session()
    second.delivered()  # the ledger as this call read it: empty
    item = {h: {"item": keys.commit(h * 40), "words": h, "cue": None} for h in "abc"}
    assert first.record_made("PostToolUse", "x.py", lambda taken, room: (5, [item["a"]])) == {
        keys.commit("a" * 40)
    }
    seen: list[set[str]] = []

    def answer(taken: set[str], room: int | None) -> tuple[int, list[dict[str, object]]]:
        assert not second.state.conn.in_transaction  # no lock held while it is made
        seen.append(set(taken))
        room = "ab" if keys.commit("a" * 40) not in taken else "bc"  # the room freed
        return 7, [item[h] for h in room]

    assert second.record_made("PostToolUse", "x.py", answer, tool_time=True) == {
        keys.commit("b" * 40),
        keys.commit("c" * 40),
    }
    assert seen == [set(), {keys.commit("a" * 40)}]  # made again once, from what stood
    again = session()
    assert keys.of(keys.COMMIT, again.delivered()) == {h * 40 for h in "abc"}
    assert again.tool_chars == 7
    # an answer that tells nothing claims nothing
    assert again.record_made("PostToolUse", "x.py", lambda taken, room: (0, [])) == set()


def test_an_answer_overtaken_at_every_try_claims_nothing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from memhooks.session import State, open_session
    from memhooks.session.record import MAKES

    state = State(str(tmp_path / "state.sqlite3"))
    mine, other = (open_session(state, "claude-code", "P1", str(tmp_path)) for _ in "12")
    tries: list[int] = []

    def answer(taken: set[str], room: int | None) -> tuple[int, list[dict[str, object]]]:
        n = len(tries)
        tries.append(n)  # a parallel call takes what it is about to tell, every time
        other.record("PostToolUse", "x.py", [{"item": f"commit:{n}", "words": "", "cue": None}], lambda c: 1)  # fmt: skip
        return 3, [{"item": f"commit:{n}", "words": "", "cue": None}]

    assert mine.record_made("PostToolUse", "x.py", answer) == set()
    assert len(tries) == MAKES  # bounded
