"""``memhooks history import`` on a real repository built from the recorded history."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest
from gitrepo import git, recorded

from memhooks.cli import main
from memhooks.history import import_history, open_checkout
from memhooks.store import MemoryStore, project_id

COMMITS = {commit["label"]: commit for commit in recorded()}


def memory_id(label: str) -> str:
    """The documented change id: author e-mail, author time and subject."""
    commit = COMMITS[label]
    subject = commit["message"].split("\n\n")[0].replace("\n", " ").strip()
    key = f"{commit['author_email']}\0{commit['author_time']}\0{subject}"
    return "git-" + hashlib.sha256(key.encode()).hexdigest()[:16]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def imported(
    capsys: pytest.CaptureFixture[str], repo: Path, store: str, *extra: str
) -> dict[str, Any]:
    code, out, err = run(
        capsys, "history", "import", str(repo), "--store", store, "--format", "json", *extra
    )
    assert (code, err) == (0, "")
    return json.loads(out)


def stored(store: str, project: str) -> dict[str, dict[str, Any]]:
    with MemoryStore(store, create=False) as opened:
        return {m.id: m.to_json() for m in opened.list(project, limit=None, include_obsolete=True)}


def generation(store: str) -> int:
    with sqlite3.connect(store) as conn:
        return conn.execute("SELECT generation FROM store_state").fetchone()[0]


def test_one_memory_per_commit_with_the_counts_a_user_reads(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str
) -> None:
    report = imported(capsys, repo, store_path)
    assert {k: v for k, v in report.items() if k not in ("seconds", "store")} == {
        "project": project_id(str(repo)),
        "root": str(repo),
        "commits": 77,  # 78 recorded, one of them a merge
        "merges": 1,
        "added": 75,
        "updated": 0,
        "present": 0,
        "duplicates": 1,  # the cherry-pick of the auth change
        "empty": 1,  # a message that is nothing but a trailer
        "low_signal": 23,
        "obsoleted": 4,
        "unresolved": 0,
        "boundary": 0,
        "dry_run": False,
    }
    assert report["commits"] == sum(
        report[k] for k in ("added", "updated", "present", "duplicates", "empty")
    )
    memories = stored(store_path, project_id(str(repo)))
    assert len(memories) == 75
    assert "Merge branch" not in json.dumps(list(memories.values()))


def test_text_drops_trailers_and_scrubs_emails_and_secrets(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str, hashes: dict[str, str]
) -> None:
    imported(capsys, repo, store_path)
    memories = stored(store_path, project_id(str(repo)))
    auth = memories[memory_id("auth")]
    assert auth == {
        "id": memory_id("auth"),
        "project": project_id(str(repo)),
        "scope": "",
        # the package moved to src/ later: the memory answers for both paths
        "files": ["requests/auth.py", "src/requests/auth.py", "tests/test_auth.py"],
        "text": "feat(auth)!: rotate refresh tokens in two stages\n\n"
        "The old token stays valid for 30 seconds so that parallel tabs do not log\n"
        "each other out. Ask <email> before shortening the window.\n\n"
        "BREAKING CHANGE: clients must accept a new refresh token on every call.",
        "kind": "feat",
        "tags": ["auth", "breaking"],
        "entities": [],
        "created_at": "2011-12-29T10:26:23Z",
        "source": f"git:{hashes['auth']}",
        "obsolete": False,
        "superseded_by": None,
    }
    secret = memories[memory_id("secret")]["text"]
    assert "hunter2" not in secret and "sk-proj-" not in secret
    assert "[REDACTED:" in secret
    assert "Reviewed-by" not in secret and "Change-Id" not in secret
    assert not any("@example.com" in m["text"] for m in memories.values())


def test_a_huge_commit_keeps_100_files_and_says_how_many(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str
) -> None:
    imported(capsys, repo, store_path)
    vendor = stored(store_path, project_id(str(repo)))[memory_id("vendor")]
    assert len(vendor["files"]) == 100
    assert vendor["scope"] == "requests/packages/chardet"
    assert vendor["text"].endswith("[120 files changed; the first 100 are listed]")


def test_reverts_mark_what_they_revert_obsolete(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str
) -> None:
    imported(capsys, repo, store_path)
    memories = stored(store_path, project_id(str(repo)))
    marks = {
        label: (memories[memory_id(label)]["obsolete"], memories[memory_id(label)]["superseded_by"])
        for label in ("perf", "undo-perf", "r1074", "r1075", "r1076")
    }
    assert marks == {
        # a Conventional Commits revert names its commit in `Refs:`
        "perf": (True, memory_id("undo-perf")),
        "undo-perf": (False, None),
        # r1075 names a hash git does not know (rebased before it landed): its
        # `Revert "<subject>"` subject finds r1074
        "r1074": (True, memory_id("r1075")),
        # the revert of the revert makes the first revert obsolete
        "r1075": (True, memory_id("r1076")),
        "r1076": (False, None),
    }


def test_recall_leaves_the_reverted_approach_out(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str
) -> None:
    imported(capsys, repo, store_path)
    code, out, _ = run(
        capsys, "recall", str(repo / "requests"), "--store", store_path, "--format", "json",
        "--prompt", "reuse the pooled connection for redirects",
    )  # fmt: skip
    assert code == 0
    ids = [m["id"] for m in json.loads(out)["memories"]]
    assert memory_id("undo-perf") in ids
    assert memory_id("perf") not in ids
    code, out, _ = run(capsys, "memories", "search", "pooled connection", "--cwd", str(repo), "--store", store_path, "--all", "--format", "json")  # fmt: skip
    assert memory_id("perf") in out  # still there when asked for obsolete memories


def test_a_rerun_adds_nothing_and_changes_nothing(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str
) -> None:
    imported(capsys, repo, store_path)
    before, state = stored(store_path, project_id(str(repo))), generation(store_path)
    again = imported(capsys, repo, store_path)
    assert (again["added"], again["updated"], again["present"], again["obsoleted"]) == (0, 0, 75, 0)
    assert stored(store_path, project_id(str(repo))) == before
    assert generation(store_path) == state  # not one row was written


def test_a_reimport_rewrites_what_an_older_mapping_wrote(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str
) -> None:
    # A store written before blank-spelled trailers ("Co-Authored By:") were dropped: its
    # commit rows carry mapping format 1 and the text kept the names.
    imported(capsys, repo, store_path)
    right = stored(store_path, project_id(str(repo)))
    with sqlite3.connect(store_path) as conn:
        conn.execute(
            "UPDATE memories SET text = text || ? WHERE id = ?",
            ("\n\nCo-Authored By: Ann Example", memory_id("auth")),
        )
        conn.execute("UPDATE commits SET format = 1")
    again = imported(capsys, repo, store_path)
    assert (again["added"], again["updated"], again["present"]) == (0, 75, 0)
    assert stored(store_path, project_id(str(repo))) == right


def test_a_reimport_after_the_low_signal_rule_changed_gives_each_commit_its_verdict(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str
) -> None:
    # review6: the rule changed (a version-control tool's bookkeeping says nothing,
    # 8c39834) but the mapping's format did not, so a store imported before kept a
    # "(Logical change 1.3)" commit as one that explains its lines through any re-import
    imported(capsys, repo, store_path)
    with sqlite3.connect(store_path) as conn:
        right = conn.execute("SELECT hash, low_signal FROM commits ORDER BY hash").fetchall()
        assert any(reason for _, reason in right)  # the story has low-signal commits
        conn.execute("UPDATE commits SET low_signal = NULL, format = 3")  # the rule before
    again = imported(capsys, repo, store_path)
    assert (again["added"], again["present"]) == (0, 0)
    with sqlite3.connect(store_path) as conn:
        assert conn.execute("SELECT hash, low_signal FROM commits ORDER BY hash").fetchall() == right


def test_importing_in_steps_gives_what_one_import_gives(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str, tmp_path: Path
) -> None:
    whole = str(tmp_path / "whole.sqlite3")
    imported(capsys, repo, whole)
    # The newest ten first: the Conventional revert comes before the commit it reverts
    # (unresolved); the reverted and re-landed change is all inside.
    first = imported(capsys, repo, store_path, "--max", "10")
    assert (first["commits"], first["added"], first["obsoleted"], first["unresolved"]) == (
        10,
        10,
        1,
        1,
    )
    rest = imported(capsys, repo, store_path)
    assert (rest["added"], rest["obsoleted"]) == (65, 3)
    assert stored(store_path, project_id(str(repo))) == stored(whole, project_id(str(repo)))


def test_a_rebased_history_does_not_duplicate_memories(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str
) -> None:
    imported(capsys, repo, store_path)
    before = stored(store_path, project_id(str(repo)))
    old_head = git(repo, "rev-parse", "HEAD").strip()
    later = {"GIT_COMMITTER_DATE": "2030-01-01T00:00:00Z"}
    git(repo, "rebase", "-q", "--force-rebase", "HEAD~3", env=later)
    assert git(repo, "rev-parse", "HEAD").strip() != old_head  # new hashes
    again = imported(capsys, repo, store_path)
    # the three rebased memories now name the commits that are in the history
    assert (again["added"], again["updated"], again["present"]) == (0, 3, 72)
    after = stored(store_path, project_id(str(repo)))
    moved = {k for k in after if after[k]["source"] != before[k]["source"]}
    assert len(moved) == 3
    new_hashes = set(git(repo, "log", "--format=git:%H", "-3").split())
    assert {after[k]["source"] for k in moved} == new_hashes
    assert {k: {**m, "source": ""} for k, m in after.items()} == {
        k: {**m, "source": ""} for k, m in before.items()
    }


def test_since_and_rev_narrow_the_range(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str, hashes: dict[str, str]
) -> None:
    dry = imported(capsys, repo, store_path, "--since", "2011-12-29T00:00:00Z", "--dry-run")
    assert (dry["commits"], dry["added"], dry["duplicates"], dry["empty"], dry["dry_run"]) == (
        16,
        14,
        1,
        1,
        True,
    )
    assert not os.path.exists(store_path)  # a dry run writes nothing, not even a store
    ranged = imported(capsys, repo, store_path, "--rev", f"{hashes['r1098']}..{hashes['secret']}")
    assert (ranged["commits"], ranged["added"]) == (4, 4)


def test_a_shallow_clone_imports_its_edge_without_files(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str, tmp_path: Path
) -> None:
    shallow = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "4", f"file://{repo}", str(shallow)], check=True
    )
    (shallow / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    report = imported(capsys, shallow.resolve(), store_path)
    assert report["boundary"] >= 1
    memories = stored(store_path, project_id(str(shallow)))
    assert sum(1 for m in memories.values() if not m["files"]) == report["boundary"]
    assert memories[memory_id("long")]["files"] == ["src/requests/auth.py", "tests/test_auth.py"]


def test_a_root_below_the_work_tree_reads_only_its_history(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMHOOKS_ROOT", str(repo / "docs"))
    (repo / "docs" / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    report = imported(capsys, repo / "docs", store_path)
    memories = stored(store_path, project_id(str(repo / "docs")))
    assert report["added"] == len(memories) > 0
    in_docs = {
        p[len("docs/") :] for c in COMMITS.values() for p in c["files"] if p.startswith("docs/")
    }
    assert {path for m in memories.values() for path in m["files"]} == in_docs


def test_the_project_is_the_one_remember_uses(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str
) -> None:
    git(repo, "remote", "add", "origin", "git@github.com:psf/requests.git")
    assert run(capsys, "remember", "x", "--cwd", str(repo / "docs"), "--store", store_path)[0] == 0
    report = imported(capsys, repo / "requests", store_path)
    assert report["project"] == project_id(str(repo)).split("//")[0]  # the root commit's id
    assert len(stored(store_path, report["project"])) == 76


def test_no_files_are_written_into_the_repository(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str
) -> None:
    before = git(repo, "status", "--porcelain", "--ignored")
    assert before == "?? MEMHOOKS.md\n"  # the root hook `memhooks init` writes
    imported(capsys, repo, store_path)
    assert git(repo, "status", "--porcelain", "--ignored") == before
    assert list(repo.rglob("MEMHOOKS.md")) == [repo / "MEMHOOKS.md"]


def test_the_human_summary_and_no_progress_without_a_terminal(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str
) -> None:
    code, out, err = run(capsys, "history", "import", str(repo), "--store", store_path)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    project = project_id(str(repo))
    assert lines[0].startswith(f"Imported the git history of {repo} into project {project} (")
    assert lines[1:] == [
        (
            "  77 commits read: 75 added, 0 already imported, 1 repeated changes (cherry-picks) "
            "skipped, 1 with an empty message skipped; 1 merge commit skipped (their changes are "
            "their parents')"
        ),
        (
            "  23 low-signal (merges, bots, version and dependency bumps, formatting, one-line "
            "chores): searchable, never delivered at tool time"
        ),
        (
            "  reverts: 4 earlier memories marked obsolete; 0 reverted commits not in the store "
            "(merges, or outside the imported range)"
        ),
    ]


def test_progress_reaches_the_callback(repo: Path, store_path: str) -> None:
    calls: list[tuple[str, int, int | None]] = []
    with MemoryStore(store_path) as store:
        import_history(
            store, "p", open_checkout(str(repo), str(repo)), progress=lambda *a: calls.append(a)
        )
    assert calls[0] == ("scan", 77, None)
    assert calls[1] == ("import", 0, 77)
    assert calls[-1] == ("import", 77, 77)


def test_only_an_enabled_project_gets_memories_but_a_dry_run_reads_anywhere(
    capsys: pytest.CaptureFixture[str], repo: Path, store_path: str
) -> None:
    (repo / "MEMHOOKS.md").unlink()
    code, out, err = run(capsys, "history", "import", str(repo), "--store", store_path)
    assert (code, out) == (1, "")
    assert err.startswith(f"error[MH013]: MemHooks is not enabled at the project root `{repo}`")
    assert not os.path.exists(store_path)
    assert imported(capsys, repo, store_path, "--dry-run")["added"] == 75


def test_an_empty_repository_imports_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, store_path: str
) -> None:
    empty = tmp_path / "empty"
    subprocess.run(["git", "init", "-q", str(empty)], check=True)
    (empty / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    code, out, _ = run(capsys, "history", "import", str(empty), "--store", store_path)
    assert code == 0
    assert out.splitlines()[-1] == (
        "  the range holds no commits (an empty branch, or --since/--rev leave none)"
    )


def test_a_file_name_the_store_cannot_hold_is_left_out_not_fatal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, store_path: str
) -> None:
    odd = tmp_path / "odd"
    subprocess.run(["git", "init", "-q", str(odd)], check=True)
    (odd / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    (odd / "ok.py").write_text("x\n", encoding="utf-8")
    (odd / "bad\x01name.py").write_text("x\n", encoding="utf-8")
    git(odd, "add", "ok.py", "bad\x01name.py")
    git(
        odd, "-c", "user.name=a", "-c", "user.email=a@example.com", "commit", "-q", "-m", "Add both"
    )
    assert imported(capsys, odd, store_path)["added"] == 1
    (memory,) = stored(store_path, project_id(str(odd))).values()
    assert memory["files"] == ["ok.py"]
