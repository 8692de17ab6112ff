"""Line ownership on a real repository: the owners of lines in the working tree, their
previous owners, and the cache that answers the next call without git."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from storyrepo import commit_files, git

from memhooks.lines import BlameError, owners, previous_owners
from memhooks.lines import cache as blame_cache

PATH = "retryx/retry.py"
#: ``def __init__`` and ``self.attempts = attempts``: the lines "perf: simplify retry"
#: put back in place of the cap.
SIMPLIFIED = (9, 10)


def by_hash(answer: object) -> dict[str, list[tuple[int, int]]]:
    return {o.hash: o.lines for o in answer.owners}  # type: ignore[attr-defined]


def test_the_misleading_commit_owns_the_lines_it_simplified(
    repo: Path, hashes: dict[str, str], state: str
) -> None:
    answer = owners(str(repo), PATH, [(8, 11)], state_dir=state)
    assert by_hash(answer) == {
        hashes["regression"]: [SIMPLIFIED],
        hashes["add"]: [(8, 8), (11, 11)],
    }
    regression = answer.owners[0]
    assert regression.summary == "perf: simplify retry"
    assert regression.previous == (hashes["unrelated"], PATH)  # the version before it
    assert answer.complete and answer.uncommitted == 0 and not answer.cached


def test_the_decision_is_the_previous_owner_of_what_the_simplification_replaced(
    repo: Path, hashes: dict[str, str], state: str
) -> None:
    answer = owners(str(repo), PATH, [SIMPLIFIED], state_dir=state)
    before = previous_owners(str(repo), answer.owners[0], answer)
    assert [(b.hash, b.summary) for b in before] == [
        (hashes["decision"], "fix: cap Retrier at the measured attempt budget")
    ]
    assert before[0].count == 3  # the signature, the comment and the cap it replaced


def test_lines_only_added_have_no_previous_owner(
    repo: Path, hashes: dict[str, str], state: str
) -> None:
    answer = owners(str(repo), PATH, [(5, 5)], state_dir=state)
    assert answer.owners[0].hash == hashes["decision"]
    assert previous_owners(str(repo), answer.owners[0], answer) == []


def test_the_next_call_answers_from_the_cache_without_git(
    repo: Path, hashes: dict[str, str], state: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    owners(str(repo), PATH, state_dir=state)
    monkeypatch.setenv("PATH", "")  # no git to be found
    answer = owners(str(repo), PATH, [SIMPLIFIED], state_dir=state)
    assert answer.cached and by_hash(answer) == {hashes["regression"]: [SIMPLIFIED]}


def test_uncommitted_lines_own_nothing_and_an_edit_keeps_the_other_lines_owners(
    repo: Path, hashes: dict[str, str], state: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    owners(str(repo), PATH, state_dir=state)
    file = repo / PATH
    text = file.read_text(encoding="utf-8").replace("attempts=8", "attempts=3")
    file.write_text("# header\n" + text, encoding="utf-8")
    monkeypatch.setenv("PATH", "")  # the edit is followed without blaming again
    answer = owners(str(repo), PATH, [(10, 11)], state_dir=state)
    assert answer.cached and answer.uncommitted == 1
    assert by_hash(answer) == {hashes["regression"]: [(11, 11)]}
    assert owners(str(repo), PATH, [(1, 1)], state_dir=state).owners == []


def test_an_edit_agrees_with_git_blame_of_the_working_tree(
    repo: Path, hashes: dict[str, str], state: str, tmp_path: Path
) -> None:
    owners(str(repo), PATH, state_dir=state)
    file = repo / PATH
    lines = file.read_text(encoding="utf-8").splitlines(keepends=True)
    del lines[4]  # MAX_ATTEMPTS
    lines.insert(12, "        # retried calls are idempotent\n")
    file.write_text("".join(lines), encoding="utf-8")
    followed = owners(str(repo), PATH, state_dir=state)
    fresh = owners(str(repo), PATH, state_dir=str(tmp_path / "fresh"))
    assert followed.cached and not fresh.cached
    assert by_hash(followed) == by_hash(fresh)
    assert followed.uncommitted == fresh.uncommitted == 1


def test_an_edit_undone_gets_the_owners_back_without_blaming_again(
    repo: Path, hashes: dict[str, str], state: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    owners(str(repo), PATH, state_dir=state)
    file = repo / PATH
    committed = file.read_text(encoding="utf-8")
    lines = committed.splitlines(keepends=True)
    lines[8:10] = ["    def __init__(self, attempts=2):\n", "        self.attempts = 2\n"]
    file.write_text("".join(lines), encoding="utf-8")
    monkeypatch.setenv("PATH", "")  # edits followed from the cache alone
    edited = owners(str(repo), PATH, [SIMPLIFIED], state_dir=state)
    assert edited.cached and edited.uncommitted == 2 and edited.owners == []
    lines[9] = "        self.attempts = attempts\n"  # half of it undone: the text blame saw
    file.write_text("".join(lines), encoding="utf-8")
    half = owners(str(repo), PATH, [SIMPLIFIED], state_dir=state)
    assert half.uncommitted == 1 and by_hash(half) == {hashes["regression"]: [(10, 10)]}
    file.write_text(committed, encoding="utf-8")  # git checkout -- the file
    undone = owners(str(repo), PATH, [SIMPLIFIED], state_dir=state)
    assert undone.cached and undone.uncommitted == 0
    assert by_hash(undone) == {hashes["regression"]: [SIMPLIFIED]}


def test_a_file_first_blamed_while_edited_gets_its_owners_back_when_undone(
    repo: Path, hashes: dict[str, str], state: str, tmp_path: Path
) -> None:
    file = repo / PATH
    committed = file.read_text(encoding="utf-8")
    lines = committed.splitlines(keepends=True)
    del lines[9]  # a line deleted: blame of this version shows nothing uncommitted
    lines[8] = "    def __init__(self, attempts=2):\n"
    file.write_text("".join(lines), encoding="utf-8")
    assert owners(str(repo), PATH, [(9, 9)], state_dir=state).uncommitted == 1
    file.write_text(committed, encoding="utf-8")
    undone = owners(str(repo), PATH, state_dir=state)
    fresh = owners(str(repo), PATH, state_dir=str(tmp_path / "fresh"))
    assert undone.uncommitted == fresh.uncommitted == 0
    assert by_hash(undone) == by_hash(fresh)
    assert by_hash(undone)[hashes["regression"]] == [SIMPLIFIED]


def test_a_commit_elsewhere_keeps_the_entry_and_a_commit_of_the_file_replaces_it(
    repo: Path, hashes: dict[str, str], state: str
) -> None:
    owners(str(repo), PATH, state_dir=state)
    commit_files(repo, {"NOTES.md": "notes\n"}, "docs: notes", int(time.time()))
    assert owners(str(repo), PATH, [SIMPLIFIED], state_dir=state).cached
    file = repo / PATH
    file.write_text(file.read_text(encoding="utf-8").replace("attempts=8", "attempts=3"))
    newest = commit_files(repo, {PATH: file.read_text()}, "tune: three attempts", int(time.time()))
    answer = owners(str(repo), PATH, [SIMPLIFIED], state_dir=state)
    assert not answer.cached
    assert by_hash(answer) == {newest: [(9, 9)], hashes["regression"]: [(10, 10)]}


def test_a_deadline_already_past_answers_with_what_is_ready(
    repo: Path, hashes: dict[str, str], state: str
) -> None:
    owners(str(repo), PATH, [SIMPLIFIED], state_dir=state)
    answer = owners(str(repo), PATH, [(1, 12)], state_dir=state, deadline=time.monotonic() - 1)
    assert not answer.complete and answer.unknown == 10
    assert by_hash(answer) == {hashes["regression"]: [SIMPLIFIED]}
    assert owners(str(repo), PATH, [(1, 12)], state_dir=state).complete  # the next call fills in


def test_a_history_window_leaves_older_lines_to_a_boundary_commit(
    repo: Path, hashes: dict[str, str], state: str
) -> None:
    answer = owners(str(repo), PATH, [(1, 12)], state_dir=state, since="2026-02-15")
    old = [o for o in answer.owners if o.boundary]
    assert old and all(o.hash != hashes["regression"] for o in old)
    assert [o.hash for o in answer.owners if not o.boundary] == [hashes["regression"]]


def test_an_untracked_or_missing_file_owns_nothing_and_leaves_nothing_in_state(
    repo: Path, state: str
) -> None:
    # newcomer 13:50: a Read of an untracked or ignored file copied its whole text into
    # blame/<key>.text (a secret verbatim; a 130 MB file, 130 MB): no commit owns a line
    # of it, and nothing of it is the state's to keep (`why` still says its lines are
    # not committed: it compares with HEAD itself)
    (repo / "scratch.py").write_text('KEY = "SECRET-3333"\n', encoding="utf-8")
    untracked = owners(str(repo), "scratch.py", state_dir=state)
    assert untracked.owners == [] and untracked.size is None and untracked.entry is None
    assert owners(str(repo), "gone.py", state_dir=state).lines == 0
    kept = [p for p in Path(state).rglob("*") if p.is_file()]
    assert not any(b"SECRET-3333" in p.read_bytes() for p in kept)


def test_no_git_at_all_is_an_error(repo: Path, state: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "")
    with pytest.raises(BlameError, match="git could not be run"):
        owners(str(repo), PATH, state_dir=state)


def test_a_damaged_cache_file_is_a_miss(repo: Path, hashes: dict[str, str], state: str) -> None:
    owners(str(repo), PATH, state_dir=state)
    Path(blame_cache.path_of(state, str(repo), PATH)).write_text("{not json", encoding="utf-8")
    answer = owners(str(repo), PATH, [SIMPLIFIED], state_dir=state)
    assert not answer.cached and by_hash(answer) == {hashes["regression"]: [SIMPLIFIED]}


def test_paths_git_quotes_are_read_back(repo: Path, state: str) -> None:
    name = "naïve\tname.py"
    commit_files(repo, {name: "a = 1\n"}, "add a file with a tab in its name", int(time.time()))
    answer = owners(str(repo), name, state_dir=state)
    assert [o.path for o in answer.owners] == [name]
    assert git(repo, "status", "--porcelain") == ""  # nothing written into the repository


def test_a_repository_without_a_commit_owns_nothing_and_runs_no_blame(
    tmp_path: Path, state: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memhooks.lines import blame as blame_module

    fresh = tmp_path / "fresh"
    fresh.mkdir()
    subprocess.run(["git", "init", "-q", str(fresh)], check=True)
    (fresh / "a.py").write_text("x = 1\n", encoding="utf-8")

    def no_blame(*args: object, **kwargs: object) -> object:
        raise AssertionError("git blame ran for a repository without a commit")

    monkeypatch.setattr(blame_module, "blame", no_blame)
    answer = owners(str(fresh.resolve()), "a.py", state_dir=state)
    assert answer.owners == [] and answer.lines == 0


def test_a_file_larger_than_the_read_limit_is_not_read_whole(
    repo: Path, state: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a tracked file past memhooks.limits.MAX_READ_BYTES (16 MiB) is not read whole on a
    # hook's path nor kept (newcomer 13:50: 130 MB -> 2.6 s, 857 MB RSS, 130 MB of state)
    from memhooks import limits

    monkeypatch.setattr(limits, "MAX_READ_BYTES", (repo / PATH).stat().st_size - 1)
    assert owners(str(repo), PATH, state_dir=state).owners == []
    assert not [p for p in Path(state).rglob("*") if p.is_file()]
