from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import memhooks
from memhooks.session import State, open_session, report
from memhooks.session.claims import View, load_mirror, peek
from memhooks.session.edit_session import EditSession, open_edit
from memhooks.session.record import Session
from memhooks.session.snapshot import claims_paths, load, save

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="flock")

HOST = "claude-code"
SID = "S1"
Answer = Callable[[set[str], "int | None"], tuple[int, list[dict[str, object]]]]


def item(name: str) -> dict[str, object]:
    return {"item": name, "words": "w", "cue": None}


class Ledger:
    """One session's state file, claim journal and snapshot under ``tmp_path``."""

    def __init__(self, base: Path) -> None:
        self.dir = str(base / "state")
        os.makedirs(self.dir)
        self.path = os.path.join(self.dir, "state.sqlite3")
        self.root = str(base / "proj")
        os.makedirs(self.root)
        self.paths = claims_paths(self.dir, SID)
        self.state = State(self.path)

    def sqlite(self, hold: float | None = 60.0) -> Session:
        session = open_session(self.state, HOST, SID, self.root, mirror=self.paths)
        session.hold_until = None if hold is None else time.time() + hold
        return session

    def snapshot(self, epoch: int = 0) -> None:
        save(self.dir, HOST, SID, root=self.root, epoch=epoch, served=[], full=False,
             reads=True, edits=False, told=[], prompt=None)  # fmt: skip

    def edit(self, hold: float = 60.0) -> EditSession:
        found = open_edit(self.dir, self.path, SID, HOST, self.root, load(self.dir, HOST, SID, {}))
        assert found is not None
        found.hold_until = time.time() + hold
        found.deadline = time.monotonic() + 5
        return found

    def journal(self) -> list[dict[str, object]]:
        return [
            json.loads(line)
            for line in Path(self.paths[0]).read_bytes().splitlines()
            if line.endswith(b"}")
        ]

    def claimed(self, name: str) -> list[dict[str, object]]:
        claims = [r for r in self.journal() if "i" in r]  # not confirmations, not the id line
        return [r for r in claims if name in [i["item"] for i in r["i"]]]  # type: ignore[union-attr]

    def view(self) -> View:
        mirror = load_mirror(self.paths[1])
        assert mirror is not None
        found = peek(self.paths[0], str(mirror["folded"]))
        assert found is not None
        return View(mirror, found[1], time.time())

    def row(self, sql: str) -> list[tuple[object, ...]]:
        return self.state.read(sql, (SID,))


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    made = Ledger(tmp_path)
    made.sqlite()  # the session's first write leaves the journal and its mirror
    made.snapshot()
    return made


def proposing(
    *names: str, chars: int = 120, calls: list[tuple[set[str], int | None]] | None = None
) -> Answer:
    """An answer telling the first of ``names`` not taken (the rest when it is)."""

    def answer(taken: set[str], room: int | None) -> tuple[int, list[dict[str, object]]]:
        if calls is not None:
            calls.append((set(taken), room))
        left = [n for n in names if n not in taken]
        return (chars, [item(left[0])]) if left else (0, [])

    return answer


def test_an_edits_confirmed_claim_reaches_the_state_file_once(ledger: Ledger) -> None:
    # a claim the edit confirmed is in the ledger, the report and tool_chars once
    later = ledger.sqlite(hold=None)
    assert later.delivered() == set()
    edit = ledger.edit()
    assert edit.record_made("PreToolUse", "src/a.py", proposing("commit:aaa"), tool_time=True) == {
        "commit:aaa"
    }
    edit.confirm()
    before = report.deliveries(ledger.state, SID)
    assert [(d["target"], d["chars"], [i["item"] for i in d["items"]]) for d in before] == [
        ("src/a.py", 120, ["commit:aaa"])
    ]
    assert report.sessions(ledger.state)[0]["chars"] == 120
    assert later.record("UserPromptSubmit", "", [item("m1")], lambda c: 10) == {"m1"}
    assert later.delivered() >= {"commit:aaa", "m1"}
    assert ledger.row(
        "SELECT chars, until FROM deliveries WHERE key = ? AND target = 'src/a.py'"
    ) == [(120, None)]
    assert ledger.row("SELECT tool_chars FROM sessions WHERE key = ?") == [(120,)]
    assert "commit:aaa" in ledger.sqlite().delivered()
    after = [d for d in report.deliveries(ledger.state, SID) if d["target"] == "src/a.py"]
    assert len(after) == 1 and after[0]["chars"] == 120
    assert report.sessions(ledger.state)[0]["chars"] == 130


def test_a_claim_folded_before_its_confirmation_is_reported_once_confirmed(ledger: Ledger) -> None:
    # the report lists an edit's confirmed delivery though a write folded it while held
    edit = ledger.edit()
    edit.record_made("PreToolUse", "src/a.py", proposing("commit:aaa"), tool_time=True)
    ledger.sqlite()  # a parallel call's write folds the held claim
    edit.confirm()
    assert [d["target"] for d in report.deliveries(ledger.state, SID)] == ["src/a.py"]


def test_an_item_the_state_file_claimed_is_not_claimed_again_by_an_edit(ledger: Ledger) -> None:
    # SQLite first: the edit's answer is made again without the item, never journaled
    edit = ledger.edit()
    session = ledger.sqlite()
    assert session.record_made("PreToolUse", "src/b.py", proposing("commit:xxx")) == {"commit:xxx"}
    session.confirm()
    calls: list[tuple[set[str], int | None]] = []
    assert edit.record_made(
        "PreToolUse", "src/a.py", proposing("commit:xxx", "commit:yyy", calls=calls)
    ) == {"commit:yyy"}
    assert [("commit:xxx" in taken) for taken, _ in calls] == [False, True]
    assert ledger.claimed("commit:xxx") == [] and len(ledger.claimed("commit:yyy")) == 1


def test_an_item_an_edit_holds_is_not_claimed_by_the_state_file(ledger: Ledger) -> None:
    # edit first: the SQLite call is overtaken by the journal's held claim
    session = ledger.sqlite()
    assert ledger.edit().record_made("PreToolUse", "src/a.py", proposing("commit:yyy")) == {
        "commit:yyy"
    }
    calls: list[tuple[set[str], int | None]] = []
    claimed = session.record_made(
        "PreToolUse", "src/b.py", proposing("commit:yyy", "commit:zzz", calls=calls)
    )
    assert claimed == {"commit:zzz"}
    assert [("commit:yyy" in taken) for taken, _ in calls] == [False, True]
    assert ledger.row("SELECT d.target FROM delivered l JOIN deliveries d ON d.id = l.delivery"
                      " WHERE l.key = ? AND l.item = 'commit:yyy'") == [("src/a.py",)]  # fmt: skip
    assert session.record("PostToolUse", "src/c.py", [item("commit:yyy")], lambda c: 5) == set()


def test_an_edits_hold_never_confirmed_lapses(ledger: Ledger) -> None:
    # an unconfirmed claim stops counting at its hold, for edits and for SQLite
    session = ledger.sqlite()
    edit = ledger.edit(hold=0.3)
    assert edit.record_made("PreToolUse", "src/a.py", proposing("commit:zzz"), tool_time=True) == {
        "commit:zzz"
    }
    assert "commit:zzz" in ledger.edit().delivered()
    time.sleep(0.4)
    assert "commit:zzz" not in ledger.edit().delivered()
    assert ledger.view().spent == 0
    assert session.record_made("PreToolUse", "src/b.py", proposing("commit:zzz")) == {"commit:zzz"}
    session.confirm()
    assert [d["target"] for d in report.deliveries(ledger.state, SID)] == ["src/b.py"]
    assert ledger.row("SELECT tool_chars FROM sessions WHERE key = ?") == [(0,)]


CHILD = """
import os, sys, time, json
sys.path.insert(0, sys.argv[1])
from memhooks.session import edit_session
from memhooks.session.edit_session import open_edit
from memhooks.session.snapshot import load
class Slow(edit_session.View):
    def __init__(self, *args):
        super().__init__(*args)
        time.sleep(0.05)  # a claim slow between reading the ledger and appending to it
edit_session.View = Slow
state_dir, state_path, root, mark = sys.argv[2:6]
edit = open_edit(state_dir, state_path, "S1", "claude-code", root, load(state_dir, "claude-code", "S1", {}))
open(mark, "w").close()
while not os.path.exists(os.path.join(state_dir, "go")):
    time.sleep(0.001)
edit.hold_until = time.time() + 60
edit.deadline = time.monotonic() + 5
def answer(taken, room):
    return (0, []) if "commit:www" in taken else (50, [{"item": "commit:www", "words": "w", "cue": None}])
print(json.dumps(sorted(edit.record_made("PreToolUse", "src/a.py", answer))))
"""


def test_parallel_edits_claim_one_item_once(ledger: Ledger, tmp_path: Path) -> None:
    # six edit processes proposing one item at once: exactly one claims it
    src = str(Path(memhooks.__file__).resolve().parents[1])
    marks = [str(tmp_path / f"ready{i}") for i in range(6)]
    procs = [subprocess.Popen([sys.executable, "-c", CHILD, src, ledger.dir, ledger.path, ledger.root, mark],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for mark in marks]  # fmt: skip
    try:
        limit = time.monotonic() + 15
        while not all(os.path.exists(m) for m in marks) and time.monotonic() < limit:
            time.sleep(0.005)
        Path(ledger.dir, "go").touch()
        outs = [p.communicate(timeout=15) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    assert all(p.returncode == 0 for p in procs), [err for _, err in outs]
    assert sorted(json.loads(out) for out, _ in outs) == [[]] * 5 + [["commit:www"]]
    assert len(ledger.claimed("commit:www")) == 1


def test_the_edits_ceiling_counts_what_the_journal_and_state_file_hold(ledger: Ledger) -> None:
    # 900 spent in SQLite + 500 held in the journal leave an edit 100 of 1500
    session = ledger.sqlite()
    assert session.record("PostToolUse", "src", [item("m1")], lambda c: 900, tool_time=True) == {
        "m1"
    }
    session.confirm()
    first = ledger.edit()
    assert first.record_made(
        "PreToolUse", "a.py", proposing("commit:a1", chars=500), tool_time=True
    ) == {"commit:a1"}
    rooms: list[int | None] = []

    def answer(taken: set[str], room: int | None) -> tuple[int, list[dict[str, object]]]:
        rooms.append(room)
        return (
            (200, [item("commit:b1"), item("commit:b2")])
            if room is None
            else (100, [item("commit:b1")])
        )

    assert ledger.edit().record_made(
        "PreToolUse", "b.py", answer, tool_time=True, ceiling=1500
    ) == {"commit:b1"}
    assert rooms == [None, 100]
    assert ledger.view().spent == 1500 and ledger.claimed("commit:b2") == []
    assert (
        ledger.edit().record_made(
            "PreToolUse", "c.py", proposing("commit:c1", chars=1), tool_time=True, ceiling=1500
        )
        == set()
    )


def test_the_state_files_ceiling_counts_an_edits_held_claim(ledger: Ledger) -> None:
    # a SQLite call checks its ceiling against the journal's held tool-time claim too
    session = ledger.sqlite()
    ledger.edit().record_made(
        "PreToolUse", "a.py", proposing("commit:a1", chars=1400), tool_time=True
    )
    rooms: list[int | None] = []

    def answer(taken: set[str], room: int | None) -> tuple[int, list[dict[str, object]]]:
        rooms.append(room)
        return (200, [item("commit:b1")]) if room is None else (0, [])

    assert session.record_made("PreToolUse", "b.py", answer, tool_time=True, ceiling=1500) == set()
    assert rooms == [None, 100]


def test_a_mirror_of_a_replaced_state_file_is_not_used(ledger: Ledger) -> None:
    # the state file moved aside and made anew: the old mirror sends edits to SQLite
    snapshot = load(ledger.dir, HOST, SID, {})
    assert open_edit(ledger.dir, ledger.path, SID, HOST, ledger.root, snapshot) is not None
    ledger.state.close()
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(ledger.path + suffix):
            os.rename(ledger.path + suffix, ledger.path + ".old" + suffix)
    State(ledger.path).close()
    assert open_edit(ledger.dir, ledger.path, SID, HOST, ledger.root, snapshot) is None


def test_a_compaction_empties_the_mirror_and_refuses_older_snapshots(ledger: Ledger) -> None:
    # after compacted(): epoch 1 with nothing delivered; an epoch-0 snapshot gets no edit
    session = ledger.sqlite()
    session.record_made("PreToolUse", "b.py", proposing("commit:xxx"), tool_time=True)
    session.confirm()
    session.compacted()
    mirror = load_mirror(ledger.paths[1])
    assert mirror is not None
    assert (mirror["epoch"], mirror["items"], mirror["held"], mirror["tool_chars"]) == (
        1,
        {},
        [],
        0,
    )
    assert (
        open_edit(ledger.dir, ledger.path, SID, HOST, ledger.root, load(ledger.dir, HOST, SID, {}))
        is None
    )
    ledger.snapshot(epoch=1)
    edit = ledger.edit()
    assert (edit.epoch, edit.delivered(), edit.tool_chars) == (1, set(), 0)
    assert edit.record_made("PreToolUse", "a.py", proposing("commit:xxx")) == {"commit:xxx"}


def test_a_torn_last_line_is_skipped_and_folds_cleanly(ledger: Ledger) -> None:
    # a line torn by a crash is ignored by the view, peek and the next fold
    edit = ledger.edit()
    edit.record_made("PreToolUse", "a.py", proposing("commit:aaa"), tool_time=True)
    edit.confirm()
    with open(ledger.paths[0], "ab") as journal:
        journal.write(b'{"e": 0, "at"')
    assert len(peek(ledger.paths[0], None)[1]) == 2  # type: ignore[index]
    assert ledger.view().items == {"commit:aaa"} and ledger.view().tool_chars == 120
    assert ledger.edit().delivered() == {"commit:aaa"}
    session = ledger.sqlite()
    assert session.delivered() == {"commit:aaa"} and session.tool_chars == 120
    assert [d["target"] for d in report.deliveries(ledger.state, SID)] == ["a.py"]


def test_a_claim_after_a_torn_line_counts(ledger: Ledger) -> None:
    # the next claim appended past a torn line is still read as a claim
    with open(ledger.paths[0], "ab") as journal:
        journal.write(b'{"e": 0, "at"')
    assert ledger.edit().record_made("PreToolUse", "a.py", proposing("commit:bbb")) == {
        "commit:bbb"
    }
    assert "commit:bbb" in ledger.edit().delivered()


def test_a_line_changed_by_hand_is_skipped_and_blocks_nothing(ledger: Ledger) -> None:
    # JSON of another shape in the journal never stops the ledger: skipped by all readers
    with open(ledger.paths[0], "ab") as journal:
        journal.write(b'{"e": 0, "i": "not a list"}\n["a", "list"]\n{"ok": "soon"}\n')
    assert ledger.edit().record_made("PreToolUse", "a.py", proposing("commit:ccc"), tool_time=True)
    session = ledger.sqlite()
    assert session.delivered() == {"commit:ccc"}


def test_a_journal_emptied_or_made_again_is_read_from_its_start(ledger: Ledger) -> None:
    # helper-138: the fold's offset named the inode, reused by a journal made again, and
    # survived an emptied one: later claims sat below it, unseen, and came twice
    first = ledger.edit()
    first.record_made("PreToolUse", "a.py", proposing("commit:aaa"), tool_time=True)
    first.confirm()
    ledger.sqlite(hold=None)  # folds it
    for remake in ("empty", "remove"):
        if remake == "empty":
            open(ledger.paths[0], "wb").close()
        else:
            os.unlink(ledger.paths[0])
        ledger.sqlite(hold=None)  # the journal made again, with an id of its own
        name = f"commit:{remake}"
        edit = ledger.edit()
        assert edit.record_made("PreToolUse", "a.py", proposing(name), tool_time=True) == {name}
        edit.confirm()
        assert name in ledger.sqlite(hold=None).delivered()
        assert ledger.edit().record_made("PreToolUse", "a.py", proposing(name)) == set()
    logged = [i["item"] for d in report.deliveries(ledger.state, SID) for i in d["items"]]
    assert sorted(logged) == ["commit:aaa", "commit:empty", "commit:remove"]


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_journal_that_cannot_be_used_sends_the_session_to_the_state_file(
    ledger: Ledger, kind: str
) -> None:
    # helper-138: a FIFO in its place hung `memhooks sessions`; a journal that could not
    # be opened failed every later call of the session instead of taking the state file
    os.unlink(ledger.paths[0])
    if kind == "fifo":
        os.mkfifo(ledger.paths[0])
    else:
        os.mkdir(ledger.paths[0])
    session = ledger.sqlite()
    assert session.record("UserPromptSubmit", ".", [item("mem-1")], lambda claimed: 10) == {"mem-1"}
    session.confirm()
    assert not os.path.exists(ledger.paths[1])  # no mirror: the next edit takes the state file
    assert (
        open_edit(ledger.dir, ledger.path, SID, HOST, ledger.root, load(ledger.dir, HOST, SID, {}))
        is None
    )
    assert [d["target"] for d in report.deliveries(ledger.state, SID)] == ["."]
    assert report.sessions(ledger.state)[0]["deliveries"] == 1


def _logged(ledger: Ledger) -> list[str]:
    return sorted(str(i["item"]) for d in report.deliveries(ledger.state, SID) for i in d["items"])


def test_a_journal_cut_short_loses_no_claim_and_folds_none_twice(ledger: Ledger) -> None:
    # helper-139: cut below the kept offset (an earlier copy put back), the claims made
    # after the cut lay below it: skipped by the edit's view and the fold, told twice
    first = ledger.edit()
    first.record_made("PreToolUse", "a.py", proposing("commit:aaa"), tool_time=True)
    first.confirm()
    ledger.sqlite(hold=None)  # folded: the kept offset is past that claim
    head = Path(ledger.paths[0]).read_bytes().partition(b"\n")[0] + b"\n"
    Path(ledger.paths[0]).write_bytes(head)  # cut back to its id line
    assert (
        open_edit(ledger.dir, ledger.path, SID, HOST, ledger.root, load(ledger.dir, HOST, SID, {}))
        is None
    )
    assert ledger.sqlite(hold=None).delivered() == {"commit:aaa"}  # read again: nothing twice
    again = ledger.edit()
    assert again.record_made(
        "PreToolUse", "a.py", proposing("commit:aaa", "commit:bbb"), tool_time=True
    ) == {"commit:bbb"}
    again.confirm()
    assert ledger.sqlite(hold=None).delivered() == {"commit:aaa", "commit:bbb"}
    assert ledger.edit().record_made("PreToolUse", "a.py", proposing("commit:bbb")) == set()
    assert _logged(ledger) == ["commit:aaa", "commit:bbb"]
    assert ledger.row("SELECT tool_chars FROM sessions WHERE key = ?") == [(240,)]


def test_a_journal_read_again_from_its_start_writes_nothing_twice(ledger: Ledger) -> None:
    # helper-139: a first line changed by hand sent the fold back to the start: the
    # delivery was logged twice and its characters counted twice
    edit = ledger.edit()
    edit.record_made("PreToolUse", "a.py", proposing("commit:aaa"), tool_time=True)
    edit.confirm()
    ledger.sqlite(hold=None)
    data = Path(ledger.paths[0]).read_bytes()
    Path(ledger.paths[0]).write_bytes(b"#" + data[1:])  # no id any more
    ledger.sqlite(hold=None)
    assert _logged(ledger) == ["commit:aaa"]
    assert ledger.row("SELECT tool_chars FROM sessions WHERE key = ?") == [(120,)]


def test_a_confirmation_whose_held_rows_were_swept_still_stands(ledger: Ledger) -> None:
    # folded while held, its rows swept once the hold lapsed (any session's open sweeps),
    # then its confirmation folded: the claim stands, logged and counted once
    edit = ledger.edit()
    edit.record_made("PreToolUse", "a.py", proposing("commit:aaa"), tool_time=True)
    ledger.sqlite(hold=None)  # folds the claim, held
    edit.confirm()
    ledger.state.write(lambda conn: conn.execute("DELETE FROM deliveries WHERE until IS NOT NULL"))
    ledger.state.write(lambda conn: conn.execute("DELETE FROM delivered WHERE until IS NOT NULL"))
    assert ledger.sqlite(hold=None).delivered() == {"commit:aaa"}
    assert _logged(ledger) == ["commit:aaa"]
    assert ledger.row("SELECT tool_chars FROM sessions WHERE key = ?") == [(120,)]


def test_a_mirror_that_can_be_neither_written_nor_removed_is_not_trusted(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    # helper-140: a sessions/ folder that takes no file kept the old mirror; the edits
    # trusted it and told again what a prompt had just delivered through the state file
    from memhooks.session import mirror

    monkeypatch.setattr(mirror.cachefile, "write", lambda *a, **k: False)
    monkeypatch.setattr(mirror, "_unlink", lambda path: False)
    session = ledger.sqlite()
    assert session.record("UserPromptSubmit", ".", [item("commit:aaa")], lambda c: 10)
    session.confirm()
    assert os.path.exists(ledger.paths[1])  # the stale mirror stays
    snapshot = load(ledger.dir, HOST, SID, {})
    assert open_edit(ledger.dir, ledger.path, SID, HOST, ledger.root, snapshot) is None
    monkeypatch.undo()
    ledger.sqlite(hold=None)  # the folder takes files again: a mirror past the mark
    assert ledger.edit().delivered() == {"commit:aaa"}


@pytest.mark.parametrize("items", ["[]", "null", '"x"', "3"])
def test_a_mirror_of_another_shape_sends_the_edit_to_the_state_file(
    ledger: Ledger, items: str
) -> None:
    # helper-140: "items" not an object raised AttributeError (MH042) at every edit
    data = json.loads(Path(ledger.paths[1]).read_text())
    Path(ledger.paths[1]).write_text(json.dumps(data)[:-1] + f', "items": {items}}}')
    assert load_mirror(ledger.paths[1]) is None
    assert (
        open_edit(ledger.dir, ledger.path, SID, HOST, ledger.root, load(ledger.dir, HOST, SID, {}))
        is None
    )


def test_a_journal_locked_too_long_is_a_coded_store_error(ledger: Ledger) -> None:
    # helper-140: a lock held past the wait was an unforeseen TimeoutError (MH042)
    import fcntl

    from memhooks.errors import StoreError, code_of
    from memhooks.session.claims import Journal

    holder = os.open(ledger.paths[0], os.O_RDWR)
    fcntl.flock(holder, fcntl.LOCK_EX)
    try:
        with pytest.raises(StoreError) as caught:
            Journal(ledger.paths[0], time.monotonic() + 0.05)
        assert code_of(caught.value) == "MH037" and "stayed locked" in str(caught.value)
    finally:
        os.close(holder)
