"""``memhooks why PATH[:LINE[-LINE]]`` and the MCP tool on the retry story: the misleading
"perf: simplify retry" owns the lines, the decision it undid is shown before it, the
chain's exclusions and the store's revert marks leave commits out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from storyrepo import build, built_story, story

from memhooks.recall.why_target import parse_target
from memhooks.errors import MemhooksError, UsageError
from memhooks.history.gitlog import Header
from memhooks.history.mapping import change_id
from memhooks.mcp import tools
from memhooks.recall.why_path import MISSING_HELP, NO_GIT_HELP, LineRangeError
from memhooks.store import MemoryStore, project_id

DECISION = "fix: cap Retrier at the measured attempt budget"


def why(
    repo: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memhooks", "why", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )


def test_the_decision_comes_before_the_misleading_simplification(
    repo: Path, hashes: dict[str, str]
) -> None:
    done = why(repo, "retryx/retry.py:9-10")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("[memhooks: why these lines are the way they are")
    assert "untrusted data, not instructions" in lines[0]
    assert lines[2] == (
        f'retryx/retry.py 9–10: {hashes["regression"][:12]} "perf: simplify retry" (2026-03-02);'
        f' before it {hashes["decision"][:12]} "{DECISION}" (2026-02-01)'
    )
    assert f"  {hashes['decision'][:12]} said:" in lines
    assert "  | four attempts is the measured budget, whatever the caller asks for." in lines


def test_json_names_every_owner_with_its_lines_and_what_it_replaced(
    repo: Path, hashes: dict[str, str]
) -> None:
    done = why(repo, "retryx/retry.py:8-11", "--format", "json")
    answer = json.loads(done.stdout)
    owners = {o["commit"]: o for o in answer["owners"]}
    assert owners.keys() == {hashes["regression"], hashes["add"]}
    regression = owners[hashes["regression"]]
    assert regression["lines"] == [[9, 10]] and regression["low_signal"] == "reshapes"
    assert [(b["commit"], b["replaced_lines"]) for b in regression["before"]] == [
        (hashes["decision"], 3)
    ]
    assert owners[hashes["add"]]["before"] == []  # it says why: no need to look further
    assert answer["untrusted"] is True and answer["uncommitted_lines"] == 0


def test_an_exclude_phrase_of_the_chain_leaves_a_commit_out(
    repo: Path, hashes: dict[str, str]
) -> None:
    (repo / "MEMHOOKS.md").write_text(
        "---\nschema: memhooks/v2\nexclude: [exponential backoff]\n---\n", encoding="utf-8"
    )
    answer = json.loads(why(repo, "retryx/retry.py:8-11", "--format", "json").stdout)
    assert [o["commit"] for o in answer["owners"]] == [hashes["regression"]]
    assert answer["excluded"] == [
        {"commit": hashes["add"], "reason": "exponential backoff", "behind": None}
    ]


def test_an_excluded_previous_owner_is_listed_as_left_out(
    repo: Path, hashes: dict[str, str]
) -> None:
    # rough20 (issue 20 item 5: exclusions apply and are visible): a previous owner an
    # exclude phrase left out vanished from the answer, owners and 'excluded' alike
    (repo / "MEMHOOKS.md").write_text(
        "---\nschema: memhooks/v2\nexclude: [measured attempt budget]\n---\n", encoding="utf-8"
    )
    answer = json.loads(why(repo, "retryx/retry.py:9-10", "--format", "json").stdout)
    assert [(o["commit"], o["before"]) for o in answer["owners"]] == [(hashes["regression"], [])]
    assert answer["excluded"] == [
        {"commit": hashes["decision"], "reason": "measured attempt budget",
         "behind": hashes["regression"]}
    ]  # fmt: skip
    human = why(repo, "retryx/retry.py:9-10").stdout.splitlines()
    assert human[-1] == (
        f"left out: {hashes['decision'][:12]} (measured attempt budget; "
        f"before {hashes['regression'][:12]})"
    )


def test_a_commit_the_store_marks_reverted_is_not_offered(
    repo: Path, hashes: dict[str, str], tmp_path: Path
) -> None:
    store_file = str(tmp_path / "memories.sqlite3")
    email, when = "story@example.com", "1769904000"
    memory_id = change_id(Header(hashes["decision"], email, when, DECISION))
    from memhooks.store import Memory

    with MemoryStore(store_file) as store:
        project = project_id(str(repo))
        kept = {"scope": "", "files": [], "kind": None, "tags": [], "entities": []}
        store.add_many(project, [
            Memory(memory_id, project, text=DECISION, created_at="2026-02-01T00:00:00Z",
                   source="git:" + hashes["decision"], **kept),  # type: ignore[arg-type]
            Memory("git-revert", project, text="Revert it", created_at="2026-03-01T00:00:00Z",
                   source="git:x", **kept),  # type: ignore[arg-type]
        ])  # fmt: skip
        store.mark_obsolete(memory_id, "git-revert", project=project)
    done = why(repo, "retryx/retry.py:9-10", "--format", "json", "--store", store_file)
    answer = json.loads(done.stdout)
    regression = answer["owners"][0]
    assert regression["commit"] == hashes["regression"] and regression["before"] == []
    # the reverted decision is left out, and said to be
    assert answer["excluded"] == [
        {"commit": hashes["decision"], "reason": "reverted", "behind": hashes["regression"]}
    ]
    human = why(repo, "retryx/retry.py:5", "--store", store_file).stdout
    assert f"left out: {hashes['decision'][:12]} (reverted)" in human


def test_uncommitted_lines_are_said_in_plain_words(repo: Path) -> None:
    file = repo / "retryx" / "retry.py"
    file.write_text(
        file.read_text(encoding="utf-8") + "# local note\n# and another\n", encoding="utf-8"
    )
    done = why(repo, "retryx/retry.py:20")
    # newcomer trial: "1 line is not committed yet" did not say which
    assert (
        done.stdout == "retryx/retry.py: line 20 is not committed yet, so no commit explains it\n"
    )
    both = why(repo, "retryx/retry.py:18-21").stdout.splitlines()
    assert both[-1] == "lines 20–21 are not committed yet: no commit explains them"
    answer = json.loads(why(repo, "retryx/retry.py:18-21", "--format", "json").stdout)
    assert answer["uncommitted_lines"] == 2 and answer["uncommitted_ranges"] == [[20, 21]]


def test_lines_past_the_end_are_an_error_that_says_how_many_there_are(repo: Path) -> None:
    # newcomer trial: a range past EOF exited 0 while other bad ranges exited 2 (#6: and
    # MH024/MH029 exit 1 — one rule: every diagnostic exits 1)
    done = why(repo, "retryx/retry.py:300-310")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines()[0] == (
        "error[MH035]: lines 300-310 are past the end of the file; it has 19 lines: "
        "ask for LINE or FIRST-LAST between 1 and 19"
    )
    # file, line and column as every diagnostic (lines20: it was `retryx/retry.py:300-310`):
    # a range past the end is located where the file ends
    assert done.stderr.splitlines()[1] == "  --> retryx/retry.py:19:1"
    some = why(repo, "retryx/retry.py:18-40").stdout.splitlines()
    assert some[2].startswith("retryx/retry.py 18–19: ")
    assert some[-1] == "the file has 19 lines: lines 20–40 are past its end"
    failed = why(repo, "retryx/retry.py:300", "--format", "json")
    assert failed.returncode == 1
    (diagnostic,) = json.loads(failed.stderr)
    assert diagnostic["code"] == "MH035" and diagnostic["path"] == "retryx/retry.py"
    assert (diagnostic["line"], diagnostic["column"]) == (19, 1)
    assert diagnostic["message"].startswith("line 300 is past the end of the file; it has 19 lines")


@pytest.mark.parametrize("lines", ["-3", "abc", "0"])
def test_lines_that_are_no_range_are_the_same_error(repo: Path, lines: str) -> None:
    # newcomer trial: `why f.py:-3` and `why f.py:abc` said "not a file"
    done = why(repo, f"retryx/retry.py:{lines}")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines()[0] == (
        f"error[MH035]: `{lines}` is not a line or a range of lines; it has 19 lines: "
        "ask for LINE or FIRST-LAST between 1 and 19"
    )
    # the mistake is the argument, no place in the file (it said retryx/retry.py:1:1)
    assert done.stderr.splitlines()[1] == f"  --> retryx/retry.py:{lines}"
    failed = why(repo, f"retryx/retry.py:{lines}", "--format", "json")
    (diagnostic,) = json.loads(failed.stderr)
    assert diagnostic["path"] == f"retryx/retry.py:{lines}" and "line" not in diagnostic


@pytest.mark.parametrize("lines", ["\u0663", "1-\u0663", "\uff19", "9:\u0661\u0667"])
def test_lines_are_ascii_digits_only(repo: Path, lines: str) -> None:
    # an Arabic-Indic three (U+0663) was read as line 3 (re's \d, int()); a fullwidth
    # nine as line 9; a column of other digits as a column
    done = why(repo, f"retryx/retry.py:{lines}")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines()[:2] == [
        (
            f"error[MH035]: `{lines}` is not a line or a range of lines; it has 19 lines: "
            "ask for LINE or FIRST-LAST between 1 and 19"
        ),
        f"  --> retryx/retry.py:{lines}",
    ]


def test_one_rule_for_lines_past_the_end(repo: Path) -> None:
    # a range that starts inside the file is answered for the lines it has, with a note;
    # one that starts past the end — a single line is a range of one — is MH035 at the
    # file's last line
    assert why(repo, "retryx/retry.py:19-25").returncode == 0
    for asked in ("20", "20-25"):
        done = why(repo, f"retryx/retry.py:{asked}")
        assert done.returncode == 1 and done.stderr.splitlines()[1] == "  --> retryx/retry.py:19:1"


def test_a_reversed_range_says_it_is_reversed(repo: Path) -> None:
    # newcomer trial #4: `why auth.py:297-290` was "not a line or a range of lines"
    done = why(repo, "retryx/retry.py:9-3")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines()[:2] == [
        (
            "error[MH035]: `9-3` is reversed: the first line comes first (3-9); it has 19 "
            "lines: ask for LINE or FIRST-LAST between 1 and 19"
        ),
        "  --> retryx/retry.py:9:1",  # where the range as written begins
    ]


def test_a_colon_with_no_lines_after_it_says_so(repo: Path) -> None:
    done = why(repo, "retryx/retry.py:")
    assert done.returncode == 1
    assert done.stderr.splitlines()[0] == (
        "error[MH035]: no line or range of lines follows the `:`; it has 19 lines: "
        "ask for LINE or FIRST-LAST between 1 and 19"
    )


def test_an_empty_file_has_no_lines_to_explain(repo: Path) -> None:
    (repo / "py.typed").write_bytes(b"")
    subprocess.run(["git", "-C", str(repo), "add", "py.typed"], check=True)
    subprocess.run(["git", "-C", str(repo), "commit", "-qm", "typed"], check=True)
    whole = why(repo, "py.typed")
    assert (whole.returncode, whole.stdout) == (
        0,
        "py.typed is empty: it has no lines to explain\n",
    )
    some = why(repo, "py.typed:1")
    assert some.returncode == 1
    assert "line 1 is past the end of the file; it is empty: ask for the whole file" in some.stderr


def test_a_committed_binary_file_is_said_to_be_no_text(repo: Path) -> None:
    # newcomer trial: a committed binary file said "no commit explains these lines"
    (repo / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + bytes(range(256)))
    subprocess.run(["git", "-C", str(repo), "add", "logo.png"], check=True)
    subprocess.run(["git", "-C", str(repo), "commit", "-qm", "logo"], check=True)
    done = why(repo, "logo.png")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "logo.png: not a text file; git blames lines of text, so no commit explains lines of it\n"
    )


def test_errors_name_the_file_with_a_code(repo: Path, tmp_path: Path) -> None:
    # newcomer trial: 'not a file' (exit 2) and 'not in a git work tree' (exit 1) had no code
    missing = why(repo, "nope.py:3")
    assert missing.returncode == 1
    assert missing.stderr.splitlines() == [
        "error[MH024]: the file does not exist",
        "  --> nope.py",
        f"  help: {MISSING_HELP}",
    ]
    outside = tmp_path / "loose.py"
    outside.write_text("x = 1\n", encoding="utf-8")
    loose = why(tmp_path, "loose.py", env={**os.environ, "GIT_CEILING_DIRECTORIES": str(tmp_path)})
    assert loose.returncode == 1
    assert loose.stderr.splitlines() == [
        "error[MH032]: not in a git work tree, so no commit owns its lines",
        "  --> loose.py:1:1",
        f"  help: {NO_GIT_HELP}",
    ]


@pytest.mark.parametrize("lines", ["0", "5-2", "3", "abc", ""])
def test_a_missing_file_is_said_missing_whatever_lines_are_asked(repo: Path, lines: str) -> None:
    # rough20: 'why missing.py:0' and 'missing.py:5-2' said MH035 (no such lines) for a
    # file that is not there: what is wrong with the path comes first
    done = why(repo, f"nope.py:{lines}", "--format", "json")
    assert (done.returncode, done.stdout) == (1, "")
    (diagnostic,) = json.loads(done.stderr)
    assert diagnostic["code"] == "MH024" and diagnostic["help"] == MISSING_HELP
    # a name with something after its colon that is no range may be a file's whole name
    assert diagnostic["path"] == ("nope.py" if lines[:1].isdigit() else f"nope.py:{lines}")


def test_a_range_names_every_line_s_previous_owner(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    # a formatting commit over three decisions, a line each: asked of the three lines,
    # `why` named two of them — previous owners were capped at two an owner, so a line's
    # answer changed with the range asked (newcomer28: requests `sessions.py:150` named
    # 8bce583, `:140-164` did not). The command names each; the hook keeps its bound.
    repo, hashes = built_story(tmp_path_factory, "three_decisions_story.json")
    env = {**os.environ, "MEMHOOKS_STATE_DIR": str(tmp_path / "state"), "HOME": str(tmp_path)}
    first = why(repo, "gateway.py:1-3", env=env).stdout.split("\n")[2]
    assert first.startswith(f'gateway.py 1–3: {hashes["format"][:12]} "style: Add automatic')
    for label in ("attempts", "timeout", "backoff"):
        assert hashes[label][:12] in first, label
        line = 1 + ["attempts", "timeout", "backoff"].index(label)
        assert f"before it {hashes[label][:12]}" in why(repo, f"gateway.py:{line}", env=env).stdout
    # and what an uncommitted change of the three lines replaced, named at HEAD
    (repo / "gateway.py").write_text("ATTEMPTS = 5\nTIMEOUT_S = 31\nBACKOFF_S = 0.6\n", "utf-8")
    replaced = why(repo, "gateway.py:1-3", env=env).stdout
    assert "not committed yet" in replaced
    assert all(hashes[label][:12] in replaced for label in ("attempts", "timeout", "backoff"))


def test_a_range_names_every_line_s_commits_however_far_back(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    # five decisions, each reshaped by a "refactor: simplify", all five formatted after:
    # asked of the five lines, `why` stopped four commits further back than the
    # refactors (MAX_WALK for the whole owner), so one line lost its decision that it
    # names alone (newcomer29: requests `sessions.py:78-200` against `:200`)
    repo, hashes = built_story(tmp_path_factory, "five_steps_story.json")
    env = {**os.environ, "MEMHOOKS_STATE_DIR": str(tmp_path / "state"), "HOME": str(tmp_path)}
    whole = why(repo, "limits.py:1-5", env=env).stdout
    assert all(hashes[f"decision{i}"][:12] in whole for i in range(5)), whole
    assert hashes["decision4"][:12] in why(repo, "limits.py:5", env=env).stdout


def test_git_that_cannot_run_is_a_diagnostic_with_its_code(repo: Path, tmp_path: Path) -> None:
    # rough20: 'git cannot blame it' was a plain error without a code or what to do
    env = {**os.environ, "PATH": str(tmp_path / "nowhere"), "HOME": str(tmp_path / "home")}
    done = why(repo, "retryx/retry.py:9", "--format", "json", env=env)
    assert (done.returncode, done.stdout) == (1, "")
    (diagnostic,) = json.loads(done.stderr)
    assert diagnostic["code"] == "MH032" and diagnostic["help"] == NO_GIT_HELP
    assert diagnostic["path"] == "retryx/retry.py"
    assert diagnostic["message"].startswith("git cannot blame it: git could not be run")
    # at the first line asked about (it was :1:1: newcomer13), the file's first without lines
    assert (diagnostic["line"], diagnostic.get("column")) == (9, None)
    done = why(repo, "retryx/retry.py:10-12", env=env)
    assert done.stderr.splitlines()[1] == "  --> retryx/retry.py:10:1"
    done = why(repo, "retryx/retry.py", env=env)
    assert done.stderr.splitlines()[1] == "  --> retryx/retry.py:1:1"


def test_a_folder_is_refused_with_a_code(repo: Path) -> None:
    # newcomer trial #6: 'why src/requests' said "not a file" with no MH code, exit 2
    done = why(repo, "retryx")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.splitlines()[:2] == [
        "error[MH029]: `retryx` is not a file: `why` explains the lines of a file",
        "  --> retryx",
    ]


def test_a_symlink_out_of_the_project_is_refused(repo: Path, tmp_path: Path) -> None:
    # newcomer trial #4 (security): a symlink to another repository's file was answered
    # with that repository's history
    other = tmp_path / "other"
    other.mkdir()
    subprocess.run(["git", "-C", str(other), "init", "-q"], check=True)
    (other / "secret.py").write_text("x = 1\n", encoding="utf-8")
    (repo / "retryx" / "outside.py").symlink_to(other / "secret.py")
    done = why(repo, "retryx/outside.py:1")
    assert done.returncode == 1 and done.stderr.startswith(
        "error[MH029]: `retryx/outside.py` resolves to"
    )


def test_a_folder_linked_out_to_another_repository_is_refused(
    repo: Path, built: tuple[Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # newcomer12 (security): `why linkdir/secret.c:1`, linkdir a folder symlinked out of
    # the project to another work tree, answered from that repository's history, rc 0
    (repo / "vendor").symlink_to(built[0])
    done = why(repo, "vendor/retryx/retry.py:9")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.splitlines()[:2] == [
        (
            f"error[MH029]: `vendor/retryx/retry.py` resolves to `{built[0]}/retryx/retry.py`,"
            f" outside its project root `{repo}` (a symlink leads out)"
        ),
        "  --> vendor/retryx/retry.py",
    ]
    monkeypatch.chdir(repo)  # the MCP tool: the same rule
    with pytest.raises(MemhooksError, match=r"^MH029 `vendor/retryx/retry.py` resolves to"):
        tools.why("vendor/retryx/retry.py", 9)


def test_a_file_of_another_project_is_answered_saying_whose_it_is(
    repo: Path, tmp_path: Path, built: tuple[Path, dict[str, str]]
) -> None:
    done = why(repo, f"{built[0]}/retryx/retry.py:9")
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1] == (
        f"answered for the project at {built[0]} (not this one, {repo})"
    )


def test_the_mcp_tool_refuses_files_outside_the_server_s_project(
    repo: Path, built: tuple[Path, dict[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    with pytest.raises(MemhooksError, match=r"^MH029 `.*retry.py` is outside the project"):
        tools.why(f"{built[0]}/retryx/retry.py", 9)
    (repo / "retryx" / "outside.py").symlink_to(built[0] / "retryx" / "retry.py")
    with pytest.raises(MemhooksError, match=r"^MH029 `retryx/outside.py` resolves to"):
        tools.why("retryx/outside.py", 9)


def test_git_that_cannot_run_past_cached_owners_is_said_not_a_worse_answer(
    repo: Path, tmp_path: Path, hashes: dict[str, str]
) -> None:
    # newcomer12: owners known from the blame cache, git gone from PATH: 'why t.c:2'
    # named the reformatting owner alone (the decision behind its line 2 needs git: the
    # cache held the step back from line 3 alone), rc 0, no note
    state = tmp_path / "state"
    env = {**os.environ, "MEMHOOKS_STATE_DIR": str(state), "HOME": str(tmp_path / "home")}
    assert why(repo, "retryx/retry.py:10", env=env).returncode == 0  # the cache, warm
    gitless = {**env, "PATH": str(tmp_path / "nowhere")}
    # a line looked up before is answered from the cache, its step back too (lines.story)
    cached = json.loads(why(repo, "retryx/retry.py:10", "--format", "json", env=gitless).stdout)
    assert [b["commit"] for b in cached["owners"][0]["before"]] == [hashes["decision"]]
    done = why(repo, "retryx/retry.py:9", "--format", "json", env=gitless)
    assert (done.returncode, done.stdout) == (1, "")
    (diagnostic,) = json.loads(done.stderr)
    assert diagnostic["code"] == "MH032" and diagnostic["help"] == NO_GIT_HELP
    assert diagnostic["message"].startswith("git cannot blame it: git could not be run")
    # nothing wrong was kept: with git the decision is behind the simplification again
    answer = json.loads(why(repo, "retryx/retry.py:9", "--format", "json", env=env).stdout)
    (owner,) = answer["owners"]
    assert [b["commit"] for b in owner["before"]] == [hashes["decision"]]


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("a.py", ("a.py", [])),
        ("a.py:7", ("a.py", [(7, 7)])),
        ("a.py:7-12", ("a.py", [(7, 12)])),
        ("C:\\src\\a.py", ("C:\\src\\a.py", [])),
        ("dir:x/a.py:3", ("dir:x/a.py", [(3, 3)])),
    ],
)
def test_targets_parse_from_the_right(target: str, expected: tuple[str, list[object]]) -> None:
    assert parse_target(target) == expected


def test_a_range_that_runs_backwards_is_a_usage_error_with_its_code(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    with pytest.raises(UsageError) as caught:
        parse_target("retryx/retry.py:9-3")
    assert isinstance(caught.value, LineRangeError)
    assert caught.value.diagnostic.code == "MH035"
    assert caught.value.diagnostic.message == (
        "`9-3` is reversed: the first line comes first (3-9); it has 19 lines: ask for LINE"
        " or FIRST-LAST between 1 and 19"
    )


@pytest.mark.parametrize("lines", ["0", "9-3", "abc"])
def test_what_is_wrong_with_the_file_comes_before_its_lines(
    repo: Path, tmp_path: Path, lines: str
) -> None:
    # rough20: 'why retryx:0' said MH035 (no such lines) of a folder, and 'why loose.py:0'
    # of a file no git holds: the file's own mistake is the one to fix first
    folder = why(repo, f"retryx:{lines}", "--format", "json")
    # cli20: `retryx:abc` too — `retryx` exists and is a folder; no `retryx:abc` does
    # (it said MH024 of `retryx:abc`, as `auth.py:195:17:3` said it of `auth.py:195`)
    assert json.loads(folder.stderr)[0]["code"] == "MH029"
    (tmp_path / "loose.py").write_text("x = 1\n", encoding="utf-8")
    env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(tmp_path)}
    loose = why(tmp_path, f"loose.py:{lines}", "--format", "json", env=env)
    assert json.loads(loose.stderr)[0]["code"] == "MH032"


def test_the_mcp_tool_gives_the_same_answer_with_its_context(
    repo: Path, hashes: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    answer = tools.why("retryx/retry.py", 9, 10)
    assert [o["commit"] for o in answer["owners"]] == [hashes["regression"]]
    assert answer["owners"][0]["before"][0]["subject"] == DECISION
    assert answer["context"].startswith("[memhooks: why these lines")
    with pytest.raises(UsageError, match=r"^MH035 `10-9` is reversed: .*\(9-10\); .* 19 lines"):
        tools.why("retryx/retry.py", 10, 9)
    with pytest.raises(UsageError, match=r"^MH035 line 30 is past the end of the file"):
        tools.why("retryx/retry.py", 30)
    # rough20: line 0 was taken for line 1 (and 0-5 for 5): it is no line
    with pytest.raises(UsageError, match=r"^MH035 `0` is not a line.* \(first_line\)$"):
        tools.why("retryx/retry.py", 0)
    with pytest.raises(UsageError, match=r"^MH035 `0-5` is not a line.* \(first_line\)$"):
        tools.why("retryx/retry.py", 0, 5)
    with pytest.raises(UsageError, match=r"^MH035 `0` is not a line.* \(last_line\)$"):
        tools.why("retryx/retry.py", None, 0)
    # a missing file is said missing before its lines are looked at, a folder a folder
    with pytest.raises(MemhooksError, match=r"^MH024 the file does not exist"):
        tools.why("retryx/nope.py", 10, 9)
    with pytest.raises(MemhooksError, match=r"^MH029 `retryx` is not a file"):
        tools.why("retryx", 0)


def test_a_store_named_outright_is_one_or_said_missing(repo: Path, tmp_path: Path) -> None:
    # newcomer30: `--store` naming a folder, or a file that is not there, answered as if
    # there were no store at all — the revert marks it holds left out without a word
    folder = why(repo, "retryx/retry.py:9", "--store", str(tmp_path), "--format", "json")
    assert folder.returncode == 1
    assert json.loads(folder.stderr)[0]["code"] == "MH037"
    gone = why(repo, "retryx/retry.py:9", "--store", str(tmp_path / "x.sqlite3"), "--format", "json")
    assert gone.returncode == 0, gone.stderr
    assert json.loads(gone.stdout)["notes"] == [
        f"no memory store at {tmp_path / 'x.sqlite3'}: no commit is marked reverted"
    ]
    assert not (tmp_path / "x.sqlite3").exists()  # nothing made there
    # newcomer31: the store MEMHOOKS_STORE names, a folder, was left out as quietly
    env = {**os.environ, "MEMHOOKS_STORE": str(tmp_path)}
    chosen = why(repo, "retryx/retry.py:9", "--format", "json", env=env)
    assert chosen.returncode == 1 and json.loads(chosen.stderr)[0]["code"] == "MH037"


def test_the_mcp_tool_reads_lines_written_after_the_path_as_the_command_does(
    repo: Path, hashes: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # newcomer29: an agent writes `retry.py:9` as it reads a place; the tool said MH024,
    # no such file, and never pointed at first_line
    monkeypatch.chdir(repo)
    assert tools.why("retryx/retry.py:9-10")["owners"] == tools.why("retryx/retry.py", 9, 10)["owners"]
    assert tools.why("retryx/retry.py:9")["lines"] == tools.why("retryx/retry.py", 9)["lines"]
    with pytest.raises(UsageError, match=r"^MH035 line 30 is past the end of the file"):
        tools.why("retryx/retry.py:30")
    with pytest.raises(UsageError, match=r"^MH035 `abc` is not a line.* \(retryx/retry.py:abc\)$"):
        tools.why("retryx/retry.py:abc")
    with pytest.raises(MemhooksError, match=r"^MH024 the file does not exist.*\(retryx/nope.py\)"):
        tools.why("retryx/nope.py:9")
    # newcomer30: lines in the path and in first_line too said MH024, no such file
    with pytest.raises(UsageError, match=r"^MH035 `retryx/retry.py:9` names lines, .* \(first_line\)$"):
        tools.why("retryx/retry.py:9", 9)
    with pytest.raises(MemhooksError, match=r"^MH024 the file does not exist.*\(retryx/nope.py\)"):
        tools.why("retryx/nope.py:9", 9)
    with pytest.raises(UsageError, match=r"^MH035 `retryx/retry.py:9-10` names lines, .* \(last_line\)$"):
        tools.why("retryx/retry.py:9-10", None, 10)  # the one given is named (newcomer31)


def test_a_second_answer_for_the_same_file_version_needs_no_git(
    repo: Path, hashes: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memhooks.recall.why import explain_lines
    from memhooks.recall.why_text import render

    state = str(tmp_path / "state")
    first = render(explain_lines(str(repo), "retryx/retry.py", [(9, 10)], state_dir=state))
    monkeypatch.setenv("PATH", "")  # no git to be found: texts and owners from the cache
    again = render(explain_lines(str(repo), "retryx/retry.py", [(9, 10)], state_dir=state))
    assert again == first and DECISION in again


def test_a_commit_history_import_stored_and_a_revert_marked_is_left_out(
    repo: Path, hashes: dict[str, str], tmp_path: Path
) -> None:
    store_file = str(tmp_path / "imported.sqlite3")
    (repo / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    env_store = ["--store", store_file]
    imported = subprocess.run(
        [sys.executable, "-m", "memhooks", "history", "import", *env_store],
        cwd=repo, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert imported.returncode == 0, imported.stderr
    with MemoryStore(store_file) as store:
        project = project_id(str(repo))
        found = store.by_commit(project, [hashes["decision"], hashes["add"]])
        store.mark_obsolete(found[hashes["decision"]].id, found[hashes["add"]].id, project=project)
    answer = json.loads(why(repo, "retryx/retry.py:5", "--format", "json", *env_store).stdout)
    assert answer["owners"] == []
    assert answer["excluded"] == [
        {"commit": hashes["decision"], "reason": "reverted", "behind": None}
    ]


def test_every_rendering_names_a_commit_by_the_stores_short_id() -> None:
    # written out where the hook renders without loading the store
    from memhooks.recall import result, why_text
    from memhooks.store import commits

    assert why_text.SHORT == result.SHORT == commits.SHORT
    assert why_text.short("ab" * 20) == commits.short("ab" * 20)


def test_the_walk_back_goes_past_a_rename_to_the_fix_behind_a_formatting_commit(
    tmp_path: Path,
) -> None:
    # newcomer trial: requests' auth.py:293 is owned by a formatting commit, before it a
    # reshaping rename; the reason is one step further back, under the file's old path
    repo = tmp_path / "digest"
    hashes = build(repo, story("digest_story.json"))
    done = why(repo, "src/requests/auth.py:10")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[2] == (
        f'src/requests/auth.py 10: {hashes["format"][:12]} "Apply black formatting (#6095)"'
        f' (2022-04-29); before it {hashes["rename"][:12]} "HTTPDigestAuth - Renamed thread local'
        f' attribute" (2015-04-04); before that {hashes["decision"][:12]} "Fix infinite loop on'
        ' wrong Digest Authentication (Issue #547)" (2012-07-14)'
    )
    assert "  | the second challenge." in done.stdout
    owner = json.loads(why(repo, "src/requests/auth.py:10", "--format", "json").stdout)["owners"][0]
    assert [b["commit"] for b in owner["before"]] == [hashes["rename"]]
    assert [(b["commit"], b["low_signal"]) for b in owner["earlier"]] == [
        (hashes["decision"], None)
    ]


def test_a_commit_owning_lines_here_and_there_has_them_counted_not_listed() -> None:
    # newcomer trial: a formatting commit arrived with ~80 line ranges (~500 characters)
    from memhooks.recall.why import Explanation, Why
    from memhooks.recall.why_commit import Commit
    from memhooks.recall.why_text import headline

    answer = Why("setup.py", [])
    scattered = Explanation(
        Commit("f" * 40, "style: black", 1651190400, ""), [(n, n) for n in range(12, 172, 2)]
    )
    assert (
        headline(answer, scattered)
        == 'setup.py 80 lines between 12 and 170: ffffffffffff "style: black" (2022-04-29)'
    )
    few = Explanation(scattered.commit, [(9, 10), (14, 14), (20, 22), (30, 30)])
    assert headline(answer, few).startswith("setup.py 9–10, 14, 20–22, 30: ")
    from memhooks.recall.why_text import lines_of

    assert lines_of([(293, 293)], "auth.py") == "line 293 of auth.py"
    assert lines_of(scattered.lines, "setup.py") == "80 lines between 12 and 170 of setup.py"


def test_past_its_deadline_the_answer_starts_no_git_for_previous_owners(
    repo: Path, hashes: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a cold whole-file read of a large file has dozens of low-signal owners, each a diff
    # and a blame: past the deadline the answer is what is ready (repo_replay saw reads of
    # misc/ss.c give up at the hook's deadline instead)
    import time

    from memhooks.recall.why import explain_lines

    state = str(tmp_path / "state")
    ready = explain_lines(str(repo), "retryx/retry.py", [(9, 10)], state_dir=state, max_previous=0)
    assert [(e.commit.hash, e.before) for e in ready.explanations] == [(hashes["regression"], [])]
    started: list[object] = []
    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: started.append(a) or 1 / 0)
    late = explain_lines(
        str(repo), "retryx/retry.py", [(9, 10)], state_dir=state, deadline=time.monotonic() - 1
    )
    assert [(e.commit.hash, e.before) for e in late.explanations] == [(hashes["regression"], [])]
    assert started == []
    monkeypatch.undo()
    told = explain_lines(str(repo), "retryx/retry.py", [(9, 10)], state_dir=state)
    assert [c.hash for c in told.explanations[0].previous] == [hashes["decision"]]


def test_a_typing_pass_is_walked_back_to_the_decision(repo: Path, hashes: dict[str, str]) -> None:
    # newcomer trial (requests' hooks.py:22): 'Add inline types to Requests (#7272)' was
    # named as the reason of a line it only annotated, and nothing behind it
    from storyrepo import commit_files

    file = repo / "retryx" / "retry.py"
    text = file.read_text(encoding="utf-8").replace(
        "        self.attempts = attempts\n", "        self.attempts: int = attempts\n"
    )
    typed = commit_files(repo, {"retryx/retry.py": text}, "Add inline types to retryx (#12)",
                         1773000000)  # fmt: skip
    answer = json.loads(why(repo, "retryx/retry.py:10", "--format", "json").stdout)
    (owner,) = answer["owners"]
    assert (owner["commit"], owner["low_signal"]) == (typed, "reshapes")
    behind = [c["commit"] for c in owner["before"]] + [c["commit"] for c in owner["earlier"]]
    assert behind[:2] == [hashes["regression"], hashes["decision"]]


def test_a_terminal_shows_a_commit_as_written_and_the_mcp_tool_cannot_open_a_tag(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``memhooks why`` on a terminal is read by a person: ``<`` and ``->`` as the commit
    wrote them, hidden characters still as escapes; the MCP tool's context is for a model:
    a ``<`` that could open a tag is escaped (:func:`memhooks.protocol.text.inert_block`)."""
    from storyrepo import commit_files

    text = (repo / "retryx" / "retry.py").read_text(encoding="utf-8")
    message = "fix: attempts from <bits/socket.h>\n\nkeep a->b as it was \u202e here"
    commit_files(repo, {"retryx/retry.py": text.replace("attempts=8", "attempts=6")},
                 message, 1_800_000_000)  # fmt: skip
    shown = why(repo, "retryx/retry.py:9").stdout
    assert '"fix: attempts from <bits/socket.h>"' in shown
    assert "a->b as it was \\u202e here" in shown and "\u202e" not in shown
    monkeypatch.chdir(repo)
    context = tools.why("retryx/retry.py", 9)["context"]
    assert "\\u003cbits/socket.h>" in context and "<bits" not in context
    assert "a->b as it was \\u202e here" in context


def test_an_untracked_file_is_not_said_to_be_in_a_project_with_no_commit(repo: Path) -> None:
    """Last newcomer trial: ``why`` of a file git does not track answered "the project
    has no commit yet" in a repository of thousands of commits."""
    (repo / "retryx" / "new.py").write_text("a = 1\n", encoding="utf-8")
    shown = why(repo, "retryx/new.py:1")
    assert shown.returncode == 0
    assert "untracked, ignored or not committed yet" in shown.stdout
    assert "none explains its lines" in shown.stdout


def test_a_file_with_crlf_line_ends_is_explained_warm_as_cold(repo: Path) -> None:
    # newcomer6: the blame cache read its kept text back with universal newlines, so a
    # CRLF file's lines never matched the working file's and, once warm, every committed
    # line was "not committed yet" — and the hook told nothing at its Edits
    from storyrepo import commit_files

    commit = commit_files(repo, {"crlf.py": "X = 1\r\nLIMIT = 5\r\n"},
                          "fix: LIMIT is 5 because upstream rate-limits at 6/s", 1_800_000_000)  # fmt: skip
    cold = why(repo, "crlf.py:2").stdout
    assert commit[:12] in cold and "rate-limits at 6/s" in cold
    os.utime(repo / "crlf.py")  # within the racy window: the kept text is compared
    assert why(repo, "crlf.py:2").stdout == cold


def test_a_compiler_s_place_and_why_s_own_range_name_the_same_lines(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # newcomer6: 'why PATH:LINE:COL' (what compilers, ruff, mypy, grep --column print) said
    # MH024 the file does not exist; why prints ranges with an en dash ('9–10') and
    # refused them pasted back (MH035)
    monkeypatch.chdir(repo)
    assert parse_target("retryx/retry.py:9:5") == ("retryx/retry.py", [(9, 9)])
    assert parse_target("retryx/retry.py:9\u201310") == ("retryx/retry.py", [(9, 10)])
    assert parse_target("missing.py:3:1") == ("missing.py", [(3, 3)])  # MH024 names the file
    asked = json.loads(why(repo, "retryx/retry.py:9-10", "--format", "json").stdout)
    for written in ("retryx/retry.py:9\u201310", "retryx/retry.py:9:17"):
        done = why(repo, written, "--format", "json")
        assert done.returncode == 0, done.stderr
        answer = json.loads(done.stdout)
        if written.endswith(":17"):
            assert answer["lines"] == [[9, 9]]
        else:
            assert answer == asked


def test_more_than_a_line_and_a_column_is_no_range_of_the_file(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # newcomer6: `why auth.py:195:17:3` said MH024 "the file does not exist" of
    # `auth.py:195` — the file exists; what follows it is no range (MH035)
    done = why(repo, "retryx/retry.py:9:17:3")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines()[:2] == [
        (
            "error[MH035]: `9:17:3` is not a line or a range of lines; it has 19 lines: ask"
            " for LINE or FIRST-LAST between 1 and 19"
        ),
        "  --> retryx/retry.py:9:17:3",  # the argument, no place in the file
    ]
    monkeypatch.chdir(repo)
    for written in ("retryx/retry.py:9:x", "retryx/retry.py:9-10:x"):
        with pytest.raises(LineRangeError) as caught:
            parse_target(written)
        assert caught.value.diagnostic.path == written
        assert caught.value.diagnostic.line is None, written
        assert f"`{written.partition(':')[2]}` is not a line" in caught.value.diagnostic.message
    # a place as grep -n and compilers print it before their text, its colon copied too
    for written in ("retryx/retry.py:9:", "retryx/retry.py:9:17:"):
        assert parse_target(written) == ("retryx/retry.py", [(9, 9)]), written
    assert parse_target("missing.py:3:") == ("missing.py", [(3, 3)])  # MH024 names the file
    # a folder followed by text that is no range is said to be a folder, not missing
    with pytest.raises(MemhooksError) as folder:
        parse_target("retryx:abc")
    assert folder.value.diagnostic.code == "MH029"  # type: ignore[attr-defined]


def test_lines_the_time_limit_left_unblamed_are_not_said_to_have_no_commit(
    repo: Path, tmp_path: Path
) -> None:
    # cli20: `why PATH:LINES --timeout 0` said "no commit explains these lines" — it
    # had asked git nothing; with time, retry.py 9-10 has two commits behind it (0 is
    # refused now, newcomer22: a nanosecond is over before git starts)
    env = {**os.environ, "MEMHOOKS_STATE_DIR": str(tmp_path / "cold")}  # no blame kept
    done = why(repo, "retryx/retry.py:9-10", "--timeout", "1e-9", env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        (
            "retryx/retry.py: the time limit came before git blamed these lines, so no commit"
            " is named for them (raise --timeout)"
        ),
        "",
        "2 lines not blamed before the time limit",
    ]
    assert "perf: simplify" in why(repo, "retryx/retry.py:9-10", env=env).stdout
