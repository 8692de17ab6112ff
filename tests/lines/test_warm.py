"""Blame ahead of the edit: one bounded background process per file, single-flight,
that leaves the whole file's owners in the cache and ends by itself."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from memhooks.lines import cache, owners, warm, warm_start
from memhooks.lines.warm_start import lock_of

PATH = "retryx/retry.py"


def wait_for(lock: str, seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while os.path.exists(lock) and time.monotonic() < end:
        time.sleep(0.05)
    assert not os.path.exists(lock), "the background blame did not end"


def test_the_background_blame_leaves_the_whole_file_ready(
    repo: Path, state: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert warm_start.spawn(str(repo), PATH, state)
    wait_for(lock_of(state, str(repo), PATH))
    monkeypatch.setenv("PATH", "")  # the edit finds every line known: no git
    answer = owners(str(repo), PATH, state_dir=state)
    assert answer.cached and answer.complete and answer.owners


def test_one_process_per_file_at_a_time(repo: Path, state: str) -> None:
    lock = lock_of(state, str(repo), PATH)
    os.makedirs(os.path.dirname(lock))
    open(lock, "w").close()  # another hook's process is at it
    assert not warm_start.spawn(str(repo), PATH, state)
    old = time.time() - warm_start.LIMIT_S - 1
    os.utime(lock, (old, old))  # its process was killed before it could clean up
    assert warm_start.spawn(str(repo), PATH, state)
    wait_for(lock)


def test_a_lock_whose_process_is_gone_is_no_lock(repo: Path, state: str) -> None:
    # newcomer29: a background blame killed on the way (the laptop slept, memory ran out)
    # left its lock for the whole limit, and meanwhile each edit of lines not yet blamed
    # ran git itself — a lock names its process, and one that is gone holds nothing
    import subprocess
    import sys

    lock = lock_of(state, str(repo), PATH)
    os.makedirs(os.path.dirname(lock))
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    with open(lock, "w") as fp:
        fp.write(gone)  # young, but its process ended without removing it
    assert warm_start.spawn(str(repo), PATH, state)
    wait_for(lock)
    with open(lock, "w") as fp:
        fp.write(str(os.getpid()))  # a process that runs: it holds the lock
    assert not warm_start.spawn(str(repo), PATH, state)
    os.unlink(lock)


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="Linux's /proc says a process is a zombie")
def test_a_lock_whose_process_ended_unreaped_is_no_lock(repo: Path, state: str) -> None:
    # newcomer31: a killed background blame is a zombie until its reaper comes (1-2 s
    # here; never in a container without an init): kill(pid, 0) finds it, /proc says Z
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:  # ended, and not waited for: a zombie
        with open(f"/proc/{child.pid}/stat", "rb") as fp:
            if fp.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                break
        time.sleep(0.02)
    lock = lock_of(state, str(repo), PATH)
    os.makedirs(os.path.dirname(lock))
    with open(lock, "w") as fp:
        fp.write(str(child.pid))
    try:
        assert not warm_start.alive(lock)
        assert warm_start.spawn(str(repo), PATH, state)
        wait_for(lock)
    finally:
        child.wait()


def test_the_process_names_itself_in_its_lock(
    repo: Path, state: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    lock = lock_of(state, str(repo), PATH)
    os.makedirs(os.path.dirname(lock))
    open(lock, "w").close()  # as the hook leaves it for the process it starts
    seen: list[str] = []

    def blame(*args: object, **kwargs: object) -> object:
        with open(lock, encoding="utf-8") as fp:
            seen.append(fp.read())
        raise RuntimeError("stop here")  # the process ends whatever fails on the way

    monkeypatch.setattr(warm, "owners", blame)
    assert warm.main([str(repo), PATH, state, "5"]) == 0
    assert seen == [str(os.getpid())]
    assert not os.path.exists(lock)  # and removes it when it ends


def test_the_process_ends_at_its_limit_with_what_it_settled(repo: Path, state: str) -> None:
    assert warm.main([str(repo), PATH, state, "0"]) == 0  # no time at all: nothing blamed
    assert not os.path.exists(lock_of(state, str(repo), PATH))
    assert owners(str(repo), PATH, state_dir=state).complete  # the next call blames it


def test_what_the_owners_said_is_read_ahead_and_an_edit_far_from_the_read_runs_no_git(
    repo: Path, state: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # issue 20 item 7: a Read of a few lines leaves the commits of the rest of the file
    # unread; an edit there started git to say what they said (and loaded the history's
    # rules) — the background process reads them ahead, beside the entry
    from memhooks.lines import said
    from memhooks.recall.why import explain_lines
    from memhooks.recall.why_commit import read_commits

    top = str(repo)
    assert warm.main([top, PATH, state, "30"]) == 0
    entry = cache.path_of(state, top, PATH)
    every = owners(top, PATH, state_dir=state)
    ahead = said.aside(entry, every.entry.head if every.entry else "", cache.FORMAT)
    hashes = [o.hash for o in every.owners]
    assert hashes and all(said.Said.of(ahead, h) is not None for h in hashes)
    assert "commits" not in every.notes  # the entry itself stays as small as it was
    expected = read_commits(top, hashes)  # what git says, read now
    monkeypatch.setenv("PATH", "")  # no git from here on
    why = explain_lines(top, PATH, [(9, 10)], state_dir=state)
    told = {e.commit.hash: e.commit for e in why.explanations}
    assert told
    for hash_, commit in told.items():
        assert vars_of(commit) == vars_of(expected[hash_])


def test_what_stood_behind_a_reshaping_owner_is_looked_up_ahead_for_each_line(
    repo: Path, state: str, hashes: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # issue 20 item 7: an edit of lines a read did not cover, owned by "perf: simplify
    # retry", started git (a diff, a blame of the version before, what the decision said)
    # to find the decision behind them — 1-4 processes on a third of bench_lines_hook's
    # far edits. The background process walks back ahead, kept line by line
    # (lines.story), so any of the owner's lines, alone or together, is answered without
    # it
    from memhooks.recall.why import explain_lines

    top = str(repo)
    assert warm.main([top, PATH, state, "30"]) == 0
    monkeypatch.setenv("PATH", "")  # no git from here on
    for lines in ([(9, 9)], [(10, 10)], [(9, 10)], [(8, 11)]):
        why = explain_lines(top, PATH, lines, state_dir=state, focus=lines)
        assert why.unrun is None, lines
        (simplified,) = [e for e in why.explanations if e.commit.hash == hashes["regression"]]
        assert [c.hash for c, _ in simplified.before] == [hashes["decision"]], lines


def test_what_was_read_ahead_for_another_head_is_not_used(repo: Path, state: str) -> None:
    from memhooks.lines import said

    top = str(repo)
    assert warm.main([top, PATH, state, "30"]) == 0
    entry = cache.path_of(state, top, PATH)
    head = owners(top, PATH, state_dir=state).entry.head  # type: ignore[union-attr]
    assert said.aside(entry, head, cache.FORMAT)
    assert said.aside(entry, "another head", cache.FORMAT) == {}
    assert said.aside(entry, head, cache.FORMAT - 1) == {}  # another text rule


def test_a_row_read_ahead_is_read_alone_as_the_whole_file_reads_it(repo: Path, state: str) -> None:
    # issue 20 item 7: an edit asks for a few of the hundreds of commits kept aside for a
    # big file; each row is parsed when asked, and says what parsing the whole file says
    from memhooks.lines import said

    top = str(repo)
    assert warm.main([top, PATH, state, "30"]) == 0
    entry = cache.path_of(state, top, PATH)
    head = owners(top, PATH, state_dir=state).entry.head  # type: ignore[union-attr]
    whole = said.aside(entry, head, cache.FORMAT)
    hashes = list(whole["commits"])  # type: ignore[call-overload]
    assert hashes
    ahead = said.Ahead.read(entry, head, cache.FORMAT)
    for hash_ in [*hashes, "0" * 40, hashes[0][:12]]:
        assert fields(ahead.said(hash_)) == fields(said.Said.of(whole, hash_))
    assert ahead.said("0" * 40) is None
    # past said.SEARCHED rows asked, the whole file is parsed once: the same answers
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(said, "SEARCHED", 1)
        many = said.Ahead.read(entry, head, cache.FORMAT)
        assert [fields(many.said(h)) for h in hashes] == [fields(ahead.said(h)) for h in hashes]
    # another HEAD or text rule: nothing, as the whole file says
    assert said.Ahead.read(entry, "another head", cache.FORMAT).said(hashes[0]) is None
    assert said.Ahead.read(entry, head, cache.FORMAT - 1).said(hashes[0]) is None
    # a file written in another layout (spaced JSON) is parsed whole, and answers the same
    import json

    with open(said.aside_file(entry), "w") as fp:
        json.dump(whole, fp, indent=1)
    spaced = said.Ahead.read(entry, head, cache.FORMAT)
    assert [fields(spaced.said(h)) for h in hashes] == [fields(ahead.said(h)) for h in hashes]


def fields(found: object) -> tuple[object, ...] | None:
    return None if found is None else tuple(getattr(found, k) for k in found.__slots__)  # type: ignore[attr-defined]


def vars_of(commit: object) -> dict[str, object]:
    return {k: getattr(commit, k) for k in commit.__slots__}  # type: ignore[attr-defined]


def test_an_edit_told_from_the_read_ahead_leaves_the_entry_as_it_was_and_settles_after(
    repo: Path, state: str, hashes: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # issue 20 item 7: what the owners of an edit's lines said came from the read-ahead;
    # saving the whole entry again to keep it in the notes was ~7 % of a warm edit far
    # from the read (a 6,000-line file's entry: ~130 kB of JSON). It stays aside, and
    # the pre-tool shortcut finds it there: the same edit again settles.
    from memhooks.hook.told import all_told
    from memhooks.lines.tools import changes
    from memhooks.recall.why import explain_lines

    top = str(repo)
    past = time.time() - 60  # written minutes ago: its stat vouches for it
    os.utime(repo / PATH, (past, past))
    assert warm.main([top, PATH, state, "30"]) == 0
    entry = Path(cache.path_of(state, top, PATH))
    kept = entry.read_bytes()
    monkeypatch.setenv("PATH", "")  # no git: every commit from the read-ahead
    why = explain_lines(top, PATH, [(2, 8)], state_dir=state)
    told = {e.commit.hash for e in why.explanations}
    assert hashes["decision"] in told
    assert entry.read_bytes() == kept  # not written again
    cap = "MAX_ATTEMPTS = 4  # the gateway's measured budget\n"
    found = changes("Edit", {"file_path": PATH, "old_string": cap, "new_string": "x\n"})
    assert all_told(found, lambda p: str(repo / p), top, state, told)
    assert not all_told(found, lambda p: str(repo / p), top, state, told - {hashes["decision"]})


def test_what_a_commit_said_is_its_note_else_what_was_read_ahead(repo: Path, state: str) -> None:
    # one reading for the pre-tool shortcut and the whole way (issue 21: it was written
    # in hook/told and recall/why_commit): a note kept from git answers first, then the
    # read-ahead; a commit neither holds is None, for git to be asked
    from memhooks.lines import said

    top = str(repo)
    assert warm.main([top, PATH, state, "30"]) == 0
    entry = owners(top, PATH, state_dir=state).entry
    assert entry is not None and "commits" not in entry.notes
    whole = said.aside(cache.path_of(state, top, PATH), entry.head, cache.FORMAT)
    hashes = list(whole["commits"])  # type: ignore[call-overload]
    assert hashes and all(fields(entry.said(h)) == fields(said.Said.of(whole, h)) for h in hashes)
    kept = said.Said("kept from git", 1, "a@example.org", "kept from git\n", None, False, 1)
    kept.keep(entry.notes, hashes[0])
    assert fields(entry.said(hashes[0])) == fields(kept)  # the note, not the read-ahead
    assert entry.said("0" * 40) is None
