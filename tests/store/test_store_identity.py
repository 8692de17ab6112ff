"""A project keeps its memories whatever happens to its remotes and checkouts (issue 13
item 1): ids come from the root commit, stores written under the older ids move over."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from memhooks.cli import main
from memhooks.store import MemoryStore, gitrepo, identify, project_id

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git executable")
ROOT_HOOK = "---\nschema: memhooks/v2\nrecall_queries: [deploys]\n---\n"


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=cwd, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return done.stdout.strip()


def new_repo(path: Path, *, commit: bool = True) -> Path:
    (path / "src").mkdir(parents=True)
    (path / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    git(path, "init", "-q", "-b", "main")
    if commit:
        git(path, "add", ".")
        git(path, "commit", "-q", "-m", "start")
    return path.resolve()


def listed(root: Path, store: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    capsys.readouterr()
    argv = ["memories", "list", "--cwd", str(root), "--store", str(store), "--format", "json"]
    assert main(argv) == 0
    return [m["text"] for m in json.loads(capsys.readouterr().out)]


def test_adding_changing_and_removing_a_remote_keeps_the_memories(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, store = new_repo(tmp_path / "app"), tmp_path / "s.sqlite3"
    first = git(root, "rev-list", "--max-parents=0", "HEAD")
    assert main(["remember", "deploys wait for migrations", "--cwd", str(root / "src"),
                 "--store", str(store)]) == 0  # fmt: skip
    assert project_id(str(root)) == f"git:{first}"
    git(root, "remote", "add", "origin", "https://github.com/psf/requests.git")
    assert listed(root, store, capsys) == ["deploys wait for migrations"]
    capsys.readouterr()
    assert main(["recall", str(root / "src"), "--store", str(store)]) == 0
    assert capsys.readouterr().out.startswith("memhooks recall: recalled 1 memory\n")
    git(root, "remote", "set-url", "origin", "git@github.com:someone/fork.git")
    assert listed(root, store, capsys) == ["deploys wait for migrations"]
    git(root, "remote", "remove", "origin")
    assert listed(root, store, capsys) == ["deploys wait for migrations"]


def test_a_reclone_a_moved_checkout_and_a_worktree_are_the_same_project(
    tmp_path: Path,
) -> None:
    root = new_repo(tmp_path / "app")
    expected = project_id(str(root))
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(root), str(clone))
    git(root, "worktree", "add", "-q", str(tmp_path / "wt"))
    moved = tmp_path / "elsewhere" / "app"
    moved.parent.mkdir()
    root.rename(moved)
    git(moved, "worktree", "repair", str(tmp_path / "wt"))
    assert {project_id(str(p)) for p in (clone, moved, tmp_path / "wt")} == {expected}
    assert expected.startswith("git:") and len(expected) == 44


def test_without_a_commit_the_path_is_the_id_until_the_first_commit_adopts_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, store = new_repo(tmp_path / "app", commit=False), tmp_path / "s.sqlite3"
    assert identify(str(root)).id == str(root)
    assert main(["remember", "before any commit", "--cwd", str(root), "--store", str(store)]) == 0
    git(root, "remote", "add", "origin", "https://github.com/acme/app.git")
    # no root commit yet: the remote's id, as before this round, taking the path's memories
    assert (identify(str(root)).id, identify(str(root)).aliases) == ("github.com/acme/app", (str(root),))
    assert listed(root, store, capsys) == ["before any commit"]
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "first")
    after = identify(str(root))
    assert after.id.startswith("git:") and after.aliases == ("github.com/acme/app", str(root))
    assert listed(root, store, capsys) == ["before any commit"]
    with MemoryStore(store) as opened:
        assert opened.count(str(root)) == 0 and opened.count(after.id) == 1


def test_merging_an_unrelated_history_keeps_the_id(tmp_path: Path) -> None:
    root = new_repo(tmp_path / "app")
    before = project_id(str(root))
    (root / ".git" / gitrepo.CACHE).unlink()  # decided afresh from the merged history
    git(root, "checkout", "-q", "--orphan", "other")
    git(root, "commit", "-q", "--allow-empty", "-m", "another root")
    git(root, "checkout", "-q", "main")
    git(root, "merge", "-q", "--allow-unrelated-histories", "other", "-m", "merge")
    assert len(git(root, "rev-list", "--max-parents=0", "HEAD").split()) == 2
    assert project_id(str(root)) == before  # the root of the first-parent chain


def test_a_sub_project_keeps_its_folder_in_the_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = new_repo(tmp_path / "mono")
    (root / "examples" / "shop").mkdir(parents=True)
    git(root, "remote", "add", "origin", "https://github.com/acme/mono")
    first = git(root, "rev-list", "--max-parents=0", "HEAD")
    shop = identify(str(root / "examples" / "shop"))
    assert shop.id == f"git:{first}//examples/shop"
    assert shop.aliases == ("github.com/acme/mono//examples/shop", str(root / "examples" / "shop"))


def test_outside_git_the_id_is_the_path_and_a_shallow_clone_keeps_its_remotes(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert (identify(str(plain)).id, identify(str(plain)).aliases) == (str(plain.resolve()), ())
    root = new_repo(tmp_path / "app")
    (root / "more").write_text("x")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "second")
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{root}", str(shallow))
    found = identify(str(shallow))  # no root commit to be had: its remote's id, as before
    assert found.id == str(root) and found.aliases == (str(shallow.resolve()),)
    assert not (shallow / ".git" / gitrepo.CACHE).exists()


def test_git_runs_once_per_repository_then_never_on_the_hot_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = new_repo(tmp_path / "app")
    cache = root / ".git" / gitrepo.CACHE
    if cache.exists():
        cache.unlink()
    expected = project_id(str(root))
    assert cache.read_text() == expected[len("git:") :] + "\n"

    def no_process(*args: object, **kwargs: object) -> None:
        raise AssertionError("git was run although the root commit is known")

    monkeypatch.setattr(subprocess, "run", no_process)
    assert project_id(str(root)) == expected
    cache.write_text("not a commit\n")  # damaged: asked again, not believed
    monkeypatch.undo()
    assert project_id(str(root)) == expected


def test_no_git_program_falls_back_to_the_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = new_repo(tmp_path / "app")
    (root / ".git" / gitrepo.CACHE).unlink(missing_ok=True)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert identify(str(root)).id == str(root)


def _old_store(path: Path, rows: list[tuple[str, str, str]]) -> None:
    """A store as memhooks wrote it before root-commit ids: ``(project, id, text)`` rows,
    and capture state under the same projects."""
    with MemoryStore(path) as store:
        for project, memory_id, text in rows:
            store.add(project, text, id=memory_id, created_at="2025-01-01T00:00:00Z")
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE capture_marks (project TEXT NOT NULL, scope TEXT, memory TEXT)")
    conn.executemany("INSERT INTO capture_marks VALUES (?, '', ?)", [(p, i) for p, i, _ in rows])
    conn.commit()
    conn.close()


def test_a_store_written_under_the_remote_and_the_path_moves_to_the_root_commit_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, store = new_repo(tmp_path / "app"), tmp_path / "s.sqlite3"
    git(root, "remote", "add", "origin", "git@github.com:acme/app.git")
    _old_store(store, [
        (str(root), "m-path", "written before the remote was added"),
        ("github.com/acme/app", "m-url", "written after"),
        ("github.com/acme/app", "same", "one memory, in both"),
        (str(root), "same", "one memory, in both"),
        ("github.com/acme/app", "clash", "two memories, one id"),
        (str(root), "clash", "the other one"),
        ("github.com/other/project", "m-other", "another project's"),
    ])  # fmt: skip
    new = project_id(str(root))
    assert sorted(listed(root, store, capsys)) == sorted([
        "written before the remote was added", "written after", "one memory, in both",
        "two memories, one id", "the other one",
    ])  # fmt: skip
    with MemoryStore(store) as opened:
        ids = {m.text: m.id for m in opened.list(new)}
        assert ids["two memories, one id"] == "clash" and ids["the other one"] != "clash"
        assert [m.text for m in opened.list("github.com/other/project")] == ["another project's"]
        assert opened.search(new, "remote added")[0][0].id == "m-path"  # the index moved too
    conn = sqlite3.connect(store)
    marks = dict(conn.execute("SELECT project, count(*) FROM capture_marks GROUP BY project"))
    conn.close()
    assert marks == {new: 6, "github.com/other/project": 1}


def test_recall_moves_the_memories_as_the_hook_would(tmp_path: Path) -> None:
    from memhooks.recall import recall

    root, store = new_repo(tmp_path / "app"), tmp_path / "s.sqlite3"
    _old_store(store, [(str(root), "m-1", "deploys wait for migrations")])
    result = recall(str(root / "src"), store_path=str(store))
    assert result["status"] == "ok" and [m["id"] for m in result["memories"]] == ["m-1"]
    assert result["project"] == project_id(str(root))


def test_adopting_with_nothing_to_move_writes_nothing(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite3"
    _old_store(store, [("git:abc", "m-1", "x")])
    with MemoryStore(store) as opened:
        state = opened._conn.execute("SELECT generation FROM store_state").fetchone()
        assert opened.adopt("git:abc", ["/nowhere", "git:abc"]) == 0
        assert opened._conn.execute("SELECT generation FROM store_state").fetchone() == state
        assert opened.adopt("git:new", ["git:abc"]) == 1
    assert os.path.getsize(store) > 0


def test_a_capture_setting_saved_under_the_remote_id_still_decides(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from memhooks.capture import settings

    root = new_repo(tmp_path / "app")
    git(root, "remote", "add", "origin", "https://github.com/acme/app")
    settings.switch(True, settings.USER)
    settings.switch(False, settings.PROJECT, "github.com/acme/app")  # as memhooks saved it
    capsys.readouterr()
    assert main(["capture", "status", "--cwd", str(root), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["capture"], report["decided_by"]) == ("off", "project")


def test_a_shallow_clone_leaves_the_remotes_memories_to_the_full_clones(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A shallow clone has no root commit: it keeps the remote's id and adopts nothing
    # from it, so a full clone of the same remote still finds what was kept under it.
    full = new_repo(tmp_path / "full")
    git(full, "remote", "add", "origin", "https://github.com/acme/app.git")
    store = tmp_path / "s.sqlite3"
    with MemoryStore(store) as opened:
        opened.add("github.com/acme/app", "kept under the remote's id", id="m-url")
    shallow = new_repo(tmp_path / "shallow")
    git(shallow, "remote", "add", "origin", "https://github.com/acme/app.git")
    (shallow / ".git" / "shallow").write_text("0" * 40 + "\n")
    (shallow / ".git" / gitrepo.CACHE).unlink(missing_ok=True)
    assert identify(str(shallow)).id == "github.com/acme/app"
    assert listed(shallow, store, capsys) == ["kept under the remote's id"]
    assert listed(full, store, capsys) == ["kept under the remote's id"]  # adopted by the full clone


def test_a_failed_root_commit_lookup_is_not_retried_while_head_stays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = new_repo(tmp_path / "app")
    calls: list[object] = []
    monkeypatch.setattr(gitrepo, "_rev_list", lambda repo, timeout: calls.append(repo) or None)
    assert identify(str(root)).id == str(root.resolve())
    assert identify(str(root)).id == str(root.resolve())
    assert len(calls) == 1  # the failure is remembered
    git(root, "checkout", "-q", "-b", "other")  # HEAD moved: ask again
    identify(str(root))
    assert len(calls) == 2
