"""The session's parts: paths in prompts and commands, the prompt gate, the state file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memhooks.errors import DiagnosticError
from memhooks.session import State, gate, mentions, open_session, state_dir


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    for rel in ("billing/invoice.py", "billing/tax.py", "docs/guide.md", "README.md"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x\n")
    (tmp_path / "outside.py").write_text("x\n")
    os.symlink(tmp_path / "outside.py", root / "billing" / "escape.py")
    return root


@pytest.mark.parametrize(
    ("prompt", "found"),
    [
        (
            "Make the totals in billing/invoice.py use two decimals",
            [("billing/invoice.py", "file")],
        ),
        (
            "fix @billing/invoice.py, then docs/.",
            [("billing/invoice.py", "file"), ("docs", "folder")],
        ),
        (
            "see `README.md` and (billing/tax.py)",
            [("README.md", "file"), ("billing/tax.py", "file")],
        ),
        ("https://example.com/billing/invoice.py is not a path here", []),
        ("billing/missing.py does not exist", []),
        ("../outside.py and billing/escape.py lead out of the project", []),
        ("no paths at all", []),
    ],
)
def test_paths_named_in_a_prompt(tree: Path, prompt: str, found: list[tuple[str, str]]) -> None:
    assert mentions.in_prompt(prompt, str(tree), str(tree)) == found


def test_prompt_paths_are_taken_from_the_folder_first_then_the_root(tree: Path) -> None:
    assert mentions.in_prompt("look at tax.py", str(tree / "billing"), str(tree)) == [
        ("billing/tax.py", "file")
    ]
    assert mentions.in_prompt("docs/guide.md please", str(tree / "billing"), str(tree)) == [
        ("docs/guide.md", "file")
    ]


@pytest.mark.parametrize(
    ("command", "found"),
    [
        ("sed -n 1,80p billing/invoice.py", [("billing/invoice.py", "file")]),
        (
            "cat billing/invoice.py billing/tax.py | head",
            [("billing/invoice.py", "file"), ("billing/tax.py", "file")],
        ),
        ("rg -n total billing/", [("billing", "folder")]),
        ("cd billing && cat tax.py", [("billing/tax.py", "file")]),
        ("grep --file=billing/tax.py -r docs", [("billing/tax.py", "file"), ("docs", "folder")]),
        ("cat /etc/passwd ../outside.py billing/escape.py", []),
        ("echo 'unbalanced quote billing/tax.py", [("billing/tax.py", "file")]),
        ("ls $HOME/*.py", []),
    ],
)
def test_existing_paths_in_a_shell_command(
    tree: Path, command: str, found: list[tuple[str, str]]
) -> None:
    assert mentions.in_command(command, str(tree), str(tree)) == found


@pytest.mark.parametrize(
    "prompt",
    ["continue", "Thanks!", "yes", "ok, go ahead", "LGTM", "  ", "👍", "sounds good, do it"],
)
def test_acknowledgements_do_not_call_for_recall(prompt: str) -> None:
    assert gate.calls_for_recall(prompt) is False


@pytest.mark.parametrize(
    "prompt",
    [
        "continue with the billing totals",
        "why?",
        "fix it",
        "yes but use cents",
        "retry the migration",
    ],
)
def test_a_prompt_with_a_cue_calls_for_recall(prompt: str) -> None:
    assert gate.calls_for_recall(prompt) is True


def test_the_state_file_lives_in_the_state_directory_never_in_the_project(tmp_path: Path) -> None:
    assert state_dir({"MEMHOOKS_STATE_DIR": str(tmp_path)}) == str(tmp_path)
    home = str(tmp_path / "h")
    os.mkdir(home)  # a home that exists (a missing one is an error: tests/test_home.py)
    assert state_dir({"XDG_STATE_HOME": str(tmp_path / "s"), "HOME": home}) == str(
        tmp_path / "s" / "memhooks"
    )
    assert (
        state_dir({"XDG_STATE_HOME": "relative", "HOME": home}) == f"{home}/.local/state/memhooks"
    )
    # a relative MEMHOOKS_STATE_DIR is an invalid value (it would name another folder in
    # each working folder): the hook notes it and uses the default, a command fails
    notes: list[str] = []
    relative = {"MEMHOOKS_STATE_DIR": "relative", "HOME": home}
    assert state_dir(relative, notes) == f"{home}/.local/state/memhooks"
    assert notes == [
        ("MH028 MEMHOOKS_STATE_DIR must be an absolute folder (got 'relative'); unset"
        " MEMHOOKS_STATE_DIR or set it to an absolute path; using the default folder meanwhile")
    ]
    with pytest.raises(DiagnosticError) as caught:
        state_dir(relative)
    assert caught.value.diagnostic.code == "MH028"
    assert caught.value.diagnostic.path == "MEMHOOKS_STATE_DIR"


def test_a_damaged_state_file_is_replaced(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    state = State(str(path))
    assert state.replaced is not None and f"moved to {path}.old" in state.replaced  # said, once
    session = open_session(state, "claude-code", "s", str(tmp_path))
    session.claim(["billing"])
    state.close()
    assert (tmp_path / "state.sqlite3.old").read_bytes().startswith(b"this is not")
    again = State(str(path))
    assert again.replaced is None
    assert "billing" in open_session(again, "claude-code", "s", str(tmp_path)).served()


def test_idle_sessions_expire(tmp_path: Path) -> None:
    now = [1_000_000.0]
    state = State(str(tmp_path / "state.sqlite3"), clock=lambda: now[0])
    open_session(state, "claude-code", "old", "/p").claim(["billing"])
    now[0] += 8 * 24 * 3600
    open_session(state, "claude-code", "new", "/p")
    assert state.read("SELECT session FROM sessions") == [("new",)]
    assert state.read("SELECT count(*) FROM served") == [(0,)]


def test_an_expired_session_s_files_go_with_it(tmp_path: Path) -> None:
    # Snapshots, touch logs and settled-cue records are one set per session: without a
    # sweep the state directory would grow with every session ever run.
    import os

    now = [2_000_000_000.0]
    state = State(str(tmp_path / "state.sqlite3"), clock=lambda: now[0])
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    old, fresh = sessions / "old.json", sessions / "fresh.cues"
    old.write_text("{}")
    fresh.write_text("{}")
    os.utime(old, (now[0] - 8 * 24 * 3600,) * 2)
    os.utime(fresh, (now[0] - 3600,) * 2)
    open_session(state, "claude-code", "s", "/p")
    assert sorted(p.name for p in sessions.iterdir()) == ["fresh.cues"]


def test_the_working_set_is_bounded_and_most_recent_first(tmp_path: Path) -> None:
    from memhooks.session.state import MAX_TOUCHES

    session = open_session(State(str(tmp_path / "s.sqlite3")), "codex", "s", "/p")
    session.touch([(f"a/f{i}.py", "file", "read") for i in range(MAX_TOUCHES + 10)])
    session.touch([("b/x.py", "file", "edit")])
    assert session.recent(2) == [("b/x.py", "file"), (f"a/f{MAX_TOUCHES + 9}.py", "file")]
    assert session.recent_folders() == ["b", "a"]
    assert len(session.recent(10_000)) == MAX_TOUCHES


def test_the_state_file_s_log_stays_small_however_many_calls_write(tmp_path: Path) -> None:
    # Each hook process opens the state file first and SQLite then reads its whole WAL:
    # the log is checkpointed every WAL_PAGES pages, not at SQLite's 4 MB default.
    import os

    from memhooks.session.state import WAL_PAGES

    path = tmp_path / "state.sqlite3"
    left_open = []  # as many hook processes, none closing the file (closing checkpoints)
    for number in range(300):
        state = State(str(path))
        left_open.append(state)
        session = open_session(state, "claude-code", f"s{number}", "/p")
        session.touch([(f"src/f{number}_{i}.py", "file", "read") for i in range(20)])
    wal = os.path.getsize(f"{path}-wal")
    assert wal <= 2 * (WAL_PAGES + 8) * 4096, wal


def test_long_session_ids_that_share_a_start_keep_separate_snapshots(tmp_path: Path) -> None:
    from memhooks.session.snapshot import _paths

    one, two = "s/" + "a" * 300 + "1", "s/" + "a" * 300 + "2"
    first, second = (
        _paths(str(tmp_path), "claude-code", one),
        _paths(str(tmp_path), "claude-code", two),
    )
    assert first != second
    assert all(len(Path(p).name) < 255 and "/" not in Path(p).name for p in (*first, *second))
    assert _paths(str(tmp_path), "x", one) == first  # the same id, the same files


def test_a_new_state_file_is_private(tmp_path: Path) -> None:
    # It holds prompts and what each session was given: not for other users' eyes.
    import os
    import stat

    folder = tmp_path / "state"
    state = State(str(folder / "state.sqlite3"))
    open_session(state, "claude-code", "s", "/p", prompt="a private prompt")
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    for name in ("state.sqlite3", "state.sqlite3-wal", "state.sqlite3-shm"):
        assert stat.S_IMODE(os.stat(folder / name).st_mode) == 0o600, name


def test_a_replaced_state_file_carries_its_pending_updates_over(tmp_path: Path) -> None:
    """Issue 22 item 3: an update the hook accepted is applied, journaled, or reported as
    lost — also when its state file is replaced (another layout, or damaged)."""
    import json
    import sqlite3

    path = tmp_path / "state.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE journal (id INTEGER PRIMARY KEY, root TEXT, at REAL, work TEXT, extra TEXT)"
    )
    works = [json.dumps({"folder": "/p", "files": [["written", f"/p/src/{n}.py"]]}) for n in "ab"]
    conn.executemany(
        "INSERT INTO journal (root, at, work) VALUES ('/p', 1.0, ?)", [(w,) for w in works]
    )
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    state = State(str(path))
    assert state.replaced is not None and "another version" in state.replaced
    assert state.replaced.endswith(
        "; the 2 accepted hook update(s) it held (edits of /p/src/a.py, /p/src/b.py) were"
        " carried over and are applied by the next hook call"
    )
    assert (tmp_path / "state.sqlite3.old").exists()
    assert [json.loads(str(w)) for (w,) in state.read("SELECT work FROM journal ORDER BY id")] == [
        json.loads(w) for w in works
    ]
    state.close()
    # a journal that cannot be read is said to be lost, never silently
    path.unlink()
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE journal (id INTEGER PRIMARY KEY, work TEXT)")
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    state = State(str(path))
    assert (
        state.replaced is not None
        and "its journal could not be read: hook updates accepted and not yet applied are lost"
        in state.replaced
    )


def test_the_targets_an_epoch_settled_are_only_those_that_stand(tmp_path: Path) -> None:
    # The served table's one home (issue 21): a compaction reads the epoch it ended from
    # here — a target a parallel call still holds, or another epoch's, was never settled
    from memhooks.session import keys

    now = [1_000_000.0]
    state = State(str(tmp_path / "state.sqlite3"), clock=lambda: now[0])
    first = open_session(state, "claude-code", "s", "/p")
    first.claim([keys.lines("a.py", 1, 40), keys.COMPACTED])
    held = open_session(state, "claude-code", "s", "/p")
    held.hold_until = now[0] + 5  # a call whose reply has not gone out yet
    held.claim([keys.lines("b.py", 1, 9)])
    first.compacted()
    first.claim([keys.lines("c.py", 3, 4), keys.COMPACTED])
    reader = open_session(state, "claude-code", "s", "/p")
    assert reader.settled_in(0) == {keys.lines("a.py", 1, 40), keys.COMPACTED}
    assert reader.settled_in(1) == {keys.lines("c.py", 3, 4), keys.COMPACTED}
    assert reader.marked_epochs(keys.COMPACTED) == {0, 1}
    held.confirm()  # its reply went out: its row stands
    assert keys.lines("b.py", 1, 9) in reader.settled_in(0)
    assert reader.marked_epochs(keys.lines("b.py", 1, 9)) == {0}


def test_a_mark_a_call_still_holds_marks_no_epoch(tmp_path: Path) -> None:
    # a compaction mark claimed by a call whose reply has not gone out (and may never:
    # its row lapses) began no epoch yet; once the reply goes out, it did (review6)
    from memhooks.session import keys

    now = [1_000_000.0]
    state = State(str(tmp_path / "state.sqlite3"), clock=lambda: now[0])
    open_session(state, "claude-code", "s", "/p").compacted()  # epoch 1
    held = open_session(state, "claude-code", "s", "/p")
    held.hold_until = now[0] + 5
    assert held.claim([keys.COMPACTED]) == [keys.COMPACTED]
    reader = open_session(state, "claude-code", "s", "/p")
    assert reader.marked_epochs(keys.COMPACTED) == set()
    held.confirm()
    assert reader.marked_epochs(keys.COMPACTED) == {1}
