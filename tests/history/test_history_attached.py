"""History memories that stay attached to the code (issue 20 item 1): renames followed,
the commit named to the model, low-signal commits kept out of tool-time deliveries, long
messages cut rather than dropped, re-lands live, and older stores migrated."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from gitrepo import git
from test_history_import import COMMITS, imported, memory_id, run, stored

from memhooks.recall import Recalled
from memhooks.recall.result import LABEL, dumps, injected_memory
from memhooks.store import MemoryStore, project_id

DATA = Path(__file__).parent / "data"


def tool_time(
    capsys: pytest.CaptureFixture[str], repo: Path, store: str, path: str, *extra: str
) -> dict[str, Any]:
    """What the agent hook's tool-time recall hands the model after a tool read the file
    ``path`` (the injected JSON, label removed), or {} when it hands nothing."""
    folder = (repo / path).parent
    code, out, err = run(
        capsys, "recall", str(folder), "--file", str(repo / path), "--tool-time", "--store",
        store, "--format", "context", *extra,
    )  # fmt: skip
    assert (code, err) == (0, "")
    if not out.strip():
        return {}
    return dict(json.loads(out.split("\n", 2)[2]))


def test_a_memory_answers_for_the_path_its_file_has_now(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str
) -> None:
    imported(capsys, repo, store_path)
    project = project_id(str(repo))
    before_move = {
        label
        for label, commit in COMMITS.items()
        if "requests/auth.py" in commit["files"] and memory_id(label) in stored(store_path, project)
    }
    with MemoryStore(store_path) as store:
        now = {m.id for m in store.candidates_by_scope(project, [], ["src/requests/auth.py"])}
    # every commit that touched the file before it moved, and those after
    assert {memory_id(label) for label in before_move} <= now
    assert {memory_id("after-move"), memory_id("long"), memory_id("move")} <= now
    # git log --follow agrees
    follow = git(
        repo, "log", "--follow", "--no-merges", "--format=%H", "--", "src/requests/auth.py"
    )
    with MemoryStore(store_path) as store:
        assert {m.id for m in store.by_commit(project, follow.split()).values()} == now


def test_the_store_keeps_each_commit_with_its_author_and_date(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str, hashes: dict[str, str]
) -> None:
    imported(capsys, repo, store_path)
    project = project_id(str(repo))
    with MemoryStore(store_path) as store:
        found = store.by_commit(project, [hashes["auth"], hashes["pick"], hashes["long"][:7]])
    # the cherry-pick is another commit of the same memory
    assert {name: m.id for name, m in found.items()} == {
        hashes["auth"]: memory_id("auth"),
        hashes["pick"]: memory_id("auth"),
        hashes["long"][:7]: memory_id("long"),
    }
    with sqlite3.connect(store_path) as conn:
        row = conn.execute(
            "SELECT author, authored_at, low_signal FROM commits WHERE hash = ?", (hashes["bot"],)
        ).fetchone()
    assert row == ("49699333+dependabot[bot]", "2023-08-20T02:53:20Z", "bot")


def test_the_model_is_told_the_commit_and_its_files(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str, hashes: dict[str, str]
) -> None:
    imported(capsys, repo, store_path)
    given = tool_time(capsys, repo, store_path, "src/requests/auth.py", "--budget", "4000")
    fix = next(m for m in given["memories"] if m["id"] == memory_id("after-move"))
    assert fix["commit"] == hashes["after-move"][:12]
    assert fix["files"] == "src/requests/auth.py"
    old = next(m for m in given["memories"] if m["id"] == memory_id("followup"))
    assert old["files"] == "requests/auth.py, src/requests/auth.py"
    assert list(fix)[:4] == ["id", "commit", "files", "text"]


def test_low_signal_commits_stay_searchable_but_never_fill_a_tool_time_delivery(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str
) -> None:
    imported(capsys, repo, store_path)
    # the bot's bump is the only memory of its file: nothing is better than noise
    assert tool_time(capsys, repo, store_path, ".github/workflows/run-tests.yml") == {}
    authors = tool_time(capsys, repo, store_path, "AUTHORS.rst")
    subjects = [m["text"].split("\n")[0] for m in authors["memories"]]
    assert "Update AUTHORS.rst" not in subjects
    assert subjects[:2] == ["AUTHORS += 'Ori Livneh'", "added @chrisguitarguy to authors."]
    code, out, _ = run(
        capsys, "memories", "search", "checkout", "--cwd", str(repo), "--store", store_path,
        "--format", "json",
    )  # fmt: skip
    assert code == 0 and memory_id("bot") in out


def test_a_long_message_arrives_cut_with_the_commit_to_read_the_rest(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str, hashes: dict[str, str]
) -> None:
    imported(capsys, repo, store_path)
    long = stored(store_path, project_id(str(repo)))[memory_id("long")]
    whole = Recalled.from_dict({**long, "commit": hashes["long"], "recalled_by": [{"query": "x"}]})
    assert len(LABEL) + len(dumps(injected_memory(whole))) > 2000  # more than a whole reply
    given = tool_time(
        capsys, repo, store_path, "src/requests/auth.py", "--prompt", "digest auth stale nonce"
    )
    assert len(LABEL) + len(dumps(given)) <= 2000
    first = given["memories"][0]
    assert first["id"] == memory_id("long") and first["commit"] == hashes["long"][:12]
    assert first["text"].startswith(
        "fix(auth): rebuild the digest response on a stale nonce instead of failing\n\n"
        "Digest auth answered a 401"
    )
    assert first["text"].endswith(
        f"…\n[cut: `git show {hashes['long'][:12]}` has the whole message]"
    )


def test_a_re_land_is_live_and_the_reverted_landing_stays_obsolete(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str, hashes: dict[str, str]
) -> None:
    imported(capsys, repo, store_path)
    project = project_id(str(repo))
    memories = stored(store_path, project)
    assert memories[memory_id("land")]["obsolete"] is True
    assert memories[memory_id("land")]["superseded_by"] == memory_id("unland")
    with MemoryStore(store_path) as store:
        reland = store.by_commit(project, [hashes["reland"]])[hashes["reland"]]
    assert reland.id != memory_id("land") and not reland.obsolete
    assert "keyed by the file's modification time" in reland.text
    given = tool_time(capsys, repo, store_path, "requests/sessions.py")
    ids = [m["id"] for m in given["memories"]]
    assert reland.id in ids and memory_id("land") not in ids


def test_a_store_imported_before_keeps_every_memory_and_gains_the_rest(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str
) -> None:
    # What the import wrote before the store kept commits (schema 5): no commit rows,
    # files as touched, the old fixture's 68 memories, its revert marks.
    project = project_id(str(repo))
    lines = (DATA / "imported_before_v6.jsonl").read_text(encoding="utf-8").splitlines()
    old = [json.loads(line) for line in lines]
    code, _, err = run(
        capsys, "memories", "import", str(DATA / "imported_before_v6.jsonl"), "--cwd",
        str(repo), "--store", store_path,
    )  # fmt: skip
    assert (code, err) == (0, "")
    report = imported(capsys, repo, store_path)
    assert (report["added"], report["updated"], report["present"]) == (7, 68, 0)
    now = stored(store_path, project)
    for memory in old:
        kept = now[memory["id"]]
        assert (kept["obsolete"], kept["superseded_by"]) == (
            memory["obsolete"],
            memory["superseded_by"],
        )
        assert kept["created_at"] == memory["created_at"]
        assert set(memory["files"]) <= set(kept["files"])
        assert kept["text"] == memory["text"]
    assert now[memory_id("followup")]["files"] == ["requests/auth.py", "src/requests/auth.py"]
    # the same store as a fresh import, and a second run changes nothing
    fresh = str(Path(store_path).with_name("fresh.sqlite3"))
    imported(capsys, repo, fresh)
    assert now == stored(fresh, project)
    again = imported(capsys, repo, store_path)
    assert (again["added"], again["updated"], again["present"]) == (0, 0, 75)


def test_a_commit_the_project_tells_blame_to_ignore_is_formatting(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, store_path: str
) -> None:
    repo = tmp_path / "styled"
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    (repo / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    who = ("-c", "user.name=A", "-c", "user.email=a@example.com")
    for subject in ("Parse the retry budget from the config", "Apply the house style everywhere"):
        (repo / "retry.py").write_text(subject + "\n", encoding="utf-8")
        git(repo, "add", "retry.py")
        git(repo, *who, "commit", "-q", "-m", subject)
    styled = git(repo, "rev-parse", "HEAD").strip()
    (repo / ".git-blame-ignore-revs").write_text(f"# the house style\n{styled}\n", encoding="utf-8")
    imported(capsys, repo, store_path)
    with sqlite3.connect(store_path) as conn:
        reasons = dict(conn.execute("SELECT hash, low_signal FROM commits").fetchall())
    assert reasons[styled] == "formatting"
    assert list(reasons.values()).count(None) == 1


def test_a_rename_pulled_later_moves_the_memories_imported_before_it(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str, hashes: dict[str, str]
) -> None:
    project = project_id(str(repo))
    imported(capsys, repo, store_path, "--rev", hashes["utf8"])
    assert stored(store_path, project)[memory_id("followup")]["files"] == ["requests/auth.py"]
    later = imported(capsys, repo, store_path)
    memories = stored(store_path, project)
    assert memories[memory_id("followup")]["files"] == ["requests/auth.py", "src/requests/auth.py"]
    assert memories[memory_id("followup")]["scope"] == "src/requests"
    # every memory of a commit that touched the two moved files, and nothing else
    moved = {
        memory_id(label)
        for label, commit in COMMITS.items()
        if {"requests/auth.py", "requests/models.py"} & set(commit["files"])
        and memory_id(label) in memories
        and label not in ("move", "after-move", "long", "land", "unland", "reland", "bot")
    }
    assert later["updated"] == len(moved)
    fresh = str(Path(store_path).with_name("fresh.sqlite3"))
    imported(capsys, repo, fresh)
    assert memories == stored(fresh, project)


def test_the_marks_a_hook_keeps_say_what_by_commit_says_of_each_commit_and_read_one_project(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str, tmp_path: Path
) -> None:
    # what session.marks keeps lets a warm edit skip the store: it must be what by_commit
    # would say of every commit (a revert's, a cherry-pick's), and reading it must not
    # scan the commits of every project the user's store holds (review: 22-42 ms)
    from memhooks.store import commits

    imported(capsys, repo, store_path)
    project = project_id(str(repo))
    every = git(repo, "log", "--all", "--format=%H").split()
    with MemoryStore(store_path) as store:
        obsolete, elsewhere = store.commit_marks(project)
        found = store.by_commit(project, every)
    assert set(obsolete) == {h for h, m in found.items() if m.obsolete} != set()
    assert set(elsewhere) == {h for h, m in found.items() if m.source != "git:" + h} != set()
    other = tmp_path / "other"  # another project in the same store
    other.mkdir()
    git(other, "init", "-q", "-b", "main")
    (other / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    for n in range(3):
        (other / "a.txt").write_text(f"{n}\n", encoding="utf-8")
        git(other, "add", "a.txt")
        git(other, "-c", "user.name=O", "-c", "user.email=o@example.com", "commit", "-q",
            "-m", f"other {n}")  # fmt: skip
    git(other, "-c", "user.name=O", "-c", "user.email=o@example.com", "revert", "--no-edit", "HEAD")
    imported(capsys, other, store_path)
    with MemoryStore(store_path) as store:
        assert store.commit_marks(project) == (obsolete, elsewhere)
    with sqlite3.connect(store_path) as conn:
        for sql, args in ((commits.OBSOLETE, (project, project)),
                          (commits.ELSEWHERE, (project, commits.SOURCE_PREFIX))):  # fmt: skip
            plan = [row[-1] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, args)]
            assert not any(step.startswith("SCAN c") for step in plan), plan
