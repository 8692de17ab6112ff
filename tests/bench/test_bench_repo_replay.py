"""The real-repository session benchmark (``bench/repo_replay.py``) on a tiny history built
here: its edits are the commit's own hunks on the parent's real file contents, the store
holds nothing from after the split, what the model got is scored against the cited
commit, and a run resumes where it stopped without mixing settings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import claude_host
import repo_hook
import repo_replay
import repo_report
import repo_session

CALC = "".join(f"int step_{n}(void) {{ return {n}; }}\n" for n in range(1, 13))
DECISION = "calc: cap retries at the measured attempt budget\n\nThe backend drops after 4 tries."


def git(repo: Path, *args: str, when: int = 0) -> str:
    stamp = f"{1_600_000_000 + when * 3600} +0000"
    env = dict(os.environ, GIT_AUTHOR_NAME="A", GIT_AUTHOR_EMAIL="a@example.org",
               GIT_COMMITTER_NAME="A", GIT_COMMITTER_EMAIL="a@example.org",
               GIT_AUTHOR_DATE=stamp, GIT_COMMITTER_DATE=stamp)  # fmt: skip
    done = subprocess.run(["git", "-C", str(repo), *args], env=env, check=True,
                          capture_output=True, text=True)  # fmt: skip
    return done.stdout.strip()


def commit(repo: Path, files: dict[str, str], message: str, when: int) -> str:
    for name, body in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(body)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message, when=when)
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, str]]:
    """A repository (decision, unrelated commit = the split, two later fixes citing the
    decision) and its task set in shared/tools/mine_history.py's format."""
    top = tmp_path_factory.mktemp("history")
    repo = top / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    shas = {"base": commit(repo, {"calc/calc.c": CALC, "notes.txt": "a\nb"}, "start", 0)}
    retry = CALC.replace("return 3; }", "return 4; /* tries */ }")
    shas["decision"] = commit(repo, {"calc/calc.c": retry}, DECISION, 1)
    shas["split"] = commit(repo, {"README": "calc\n"}, "docs: say what calc is", 2)
    simplified = retry.replace("return 4; /* tries */", "return 5;").replace(
        "return 12;", "return 0;"
    )
    shas["fix"] = commit(repo, {"calc/calc.c": simplified, "notes.txt": "a\nc", "calc/new.c": "int n;\n"},
                         f"calc: allow one more attempt\n\nFixes: {shas['decision'][:12]}", 3)  # fmt: skip
    shas["fix2"] = commit(repo, {"calc/calc.c": retry}, f"calc: restore the budget\n\nFixes: {shas['decision'][:12]}", 4)  # fmt: skip
    tasks = top / "tasks"
    tasks.mkdir()
    (tasks / "README.md").write_text(f"| split commit (`tree.txt`) | `{shas['split']}` (x) |\n")
    with (tasks / "tasks.jsonl").open("w") as fp:
        for key, prompt in (("fix", "cap retries attempt budget"), ("fix2", "restore it")):
            fp.write(json.dumps({"id": shas[key][:12], "prompt": prompt, "cwd": "calc",
                                 "active_files": ["calc/calc.c"], "relevant": [shas["decision"][:12]]}) + "\n")  # fmt: skip
    return repo, tasks, shas


def test_each_hunk_is_an_edit_of_the_parents_real_lines_that_rebuilds_the_commit(
    history, tmp_path
) -> None:
    repo, _tasks, shas = history
    work = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(repo), str(work)], check=True)
    git(work, "checkout", "-q", shas["split"])
    files = repo_session.plan(str(work), shas["split"], shas["fix"])
    assert [(f.path, f.exists) for f in files] == [
        ("calc/calc.c", True),
        ("notes.txt", True),
        ("calc/new.c", False),
    ]
    calc = files[0]
    parent = (work / "calc/calc.c").read_text().splitlines(keepends=True)
    # 8 unchanged lines apart: two hunks, each with up to 3 lines of context
    assert [h.old_string() for h in calc.hunks] == ["".join(parent[0:6]), "".join(parent[8:12])]
    assert "return 4; /* tries */" in calc.hunks[0].old_string()
    for plan in files[:2]:
        delta = 0
        for hunk in plan.hunks:
            applied, delta = repo_session.apply(str(work / plan.path), hunk, delta)
            assert applied
        want = subprocess.run(["git", "-C", str(work), "show", f"{shas['fix']}:{plan.path}"],
                              capture_output=True, check=True).stdout  # fmt: skip
        assert (work / plan.path).read_bytes() == want  # "\ No newline at end of file" kept
    assert files[1].hunks[0].old_string() == "a\nb"


def test_a_run_replays_through_the_installed_hook_scores_and_resumes(history, tmp_path) -> None:
    repo, tasks, shas = history
    work, out = tmp_path / "work", tmp_path / "run.json"
    args = ["--repo", str(repo), "--tasks", str(tasks), "--work", str(work), "--label", "t"]
    assert repo_replay.main([*args, "--limit", "1"]) == 0
    results = work / "repo" / "runs" / "t" / "results.jsonl"
    first = results.read_text()
    assert repo_replay.main([*args, "--json", str(out), "--analyze"]) == 0
    assert results.read_text().startswith(first) and len(results.read_text().splitlines()) == 2
    report = json.loads(out.read_text())

    assert report["import"]["future_commits"] == 0
    assert report["import"]["commits"] == 3  # up to the split: not the fixes
    row = json.loads(first)
    assert [c["step"] for c in row["calls"]] == [
        "prompt", "read", "read", "pre-edit", "post-edit", "pre-edit", "post-edit",
        "pre-edit", "post-edit", "pre-write", "post-write"]  # fmt: skip
    assert row["counts"]["not_applied"] == 0
    # git status after the session: the agent's edits, and hook files memhooks keeps
    changed = {line[3:] for line in row["status_after"] if not line[3:].startswith(".claude/")}
    assert changed - {"calc/calc.c", "notes.txt", "calc/new.c"} <= {
        "MEMHOOKS.md",
        "calc/MEMHOOKS.md",
    }
    # The prompt names the decision's words: the hook's own stdout delivered it first.
    assert report["per_task"][0]["cited"] == {shas["decision"][:12]: "prompt"}
    assert report["session"]["tasks_hit"] >= 1
    assert report["edits"]["cited"] >= report["session"]["cited"]
    assert report["edits"]["precision"] is not None
    assert "cited commits delivered (share)" in repo_replay.repo_report.table(report, report)
    # git alone: the decision owns the lines the first fix edits, and is their previous
    # owner when the second fix edits them (the first fix owns them then)
    decision = shas["decision"][:12]
    assert [t["where"] for t in report["per_task"]] == [
        {decision: "edited lines"}, {decision: "previous owner of edited lines"}]  # fmt: skip
    clone = work / "repo" / "clone"
    assert git(clone, "status", "--porcelain", "--untracked-files=no") == ""

    # scored again without replaying: the same answer
    again = tmp_path / "again.json"
    assert repo_replay.main([*args, "--report", "--json", str(again)]) == 0
    assert json.loads(again.read_text())["edits"] == report["edits"]

    with pytest.raises(SystemExit, match="other env"):
        repo_replay.main([*args, "--env", "MEMHOOKS_X=1"])


def test_a_hunk_below_what_a_read_shows_gets_a_ranged_read_of_its_own(tmp_path) -> None:
    near, far, farther = (repo_session.Hunk(n, n, [b"x\n"] * 7) for n in (10, 2500, 2510))
    # Claude Code's Read shows 2,000 lines; the agent reads the far hunks once, around them
    assert repo_session.ranges([near, far, farther], 2000) == [(2480, 47)]
    big = tmp_path / "big.c"
    big.write_text("".join(f"{n}\n" for n in range(1, 2601)))
    session = claude_host.Session(str(tmp_path))
    whole = json.loads(session.read(str(big)))
    ranged = json.loads(session.read(str(big), 2480, 47))
    assert whole["tool_input"] == {"file_path": str(big)}
    assert (
        whole["tool_response"]["file"]["numLines"],
        whole["tool_response"]["file"]["totalLines"],
    ) == (2000, 2600)
    assert ranged["tool_input"] == {"file_path": str(big), "offset": 2480, "limit": 47}
    shown = ranged["tool_response"]["file"]
    assert (shown["startLine"], shown["numLines"], shown["content"].split()[0]) == (
        2480,
        47,
        "2480",
    )


def test_a_replayed_session_sends_the_same_bytes_every_time() -> None:
    def session() -> list[bytes]:
        s = claude_host.Session("/r", "s-1", seeded=True)
        return [s.prompt("p"), *s.edit("/r/a.c", "x\n", "y\n", "x\n", [])]

    assert session() == session()
    pre, post = session()[1:]
    assert json.loads(pre)["hook_event_name"] == "PreToolUse"
    assert json.loads(post)["tool_response"]["oldString"] == "x\n"
    assert json.loads(pre)["tool_use_id"] == json.loads(post)["tool_use_id"]


def test_a_cited_commit_counts_once_whether_named_by_its_memory_or_its_hash() -> None:
    cited = {"abcdef1234567890" * 2 + "abcdefab": ["git-1"], "1234567" + "0" * 33: ["git-2"]}
    calls = [{"step": "prompt", "wired": True, "ids": ["git-9", "git-1"], "commits": ["", ""], "chars": 10},
             {"step": "pre-edit", "wired": True, "ids": ["line-x", "git-1"], "commits": ["1234567", ""], "chars": 5},
             {"step": "post-edit", "wired": False, "ids": ["git-2"], "commits": [""], "chars": 7}]  # fmt: skip
    whole = repo_report.score({"calls": calls}, cited, repo_report.STEPS)
    assert whole["got"] == {
        "abcdef1234567890" * 2 + "abcdefab": "prompt",
        "1234567" + "0" * 33: "pre-edit",
    }
    assert (whole["commits"], whole["relevant_delivered"], whole["chars"], whole["mrr"]) == (
        3,
        2,
        15,
        0.5,
    )
    session = repo_report.score({"calls": calls}, cited, ("prompt", "read"))
    assert (session["cited"], session["commits"]) == (0.5, 2)


def test_the_commits_a_line_level_delivery_names_are_read_as_the_model_reads_them() -> None:
    text = (
        "[memhooks: why these lines are the way they are — what each commit said (untrusted)]\n"
        'retryx/retry.py 9–10: 627d3bd9aa01 "perf: simplify retry" (2026-03-02); before it '
        'cf77203bb002 "fix: cap Retrier at the measured attempt budget" (2026-02-01)\n'
        '  627d3bd9aa01 said:\n  | perf: simplify retry\n  | Fixes: 0123456789ab "x"\n\n'
        'retryx/io.py 3: 627d3bd9aa01 "perf: simplify retry" (2026-03-02)\n'
        '{"schema":"memhooks/memories-v1","memories":[{"id":"git-1","commit":"aaaaaaa11111"}]}'
    )
    assert claude_host.line_commits(text) == ["627d3bd9aa01", "cf77203bb002"]
    assert claude_host.memory_ids(text) == ["git-1"]
    assert claude_host.line_commits('{"schema":"memhooks/memories-v1"} 627d3bd9aa01 "x"') == []


def test_a_step_goes_to_the_hook_only_where_the_install_wired_it() -> None:
    handlers = [{"event": "PostToolUse", "matcher": "Read|Edit", "command": "x", "timeout": 1},
                {"event": "UserPromptSubmit", "matcher": "", "command": "x", "timeout": 1}]  # fmt: skip
    assert repo_hook.matches(handlers[0], "PostToolUse", "Edit")
    assert not repo_hook.matches(handlers[0], "PostToolUse", "EditX")
    assert not repo_hook.matches(handlers[0], "PreToolUse", "Edit")
    assert repo_hook.matches(handlers[1], "UserPromptSubmit", None)
