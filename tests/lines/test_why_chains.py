"""Every line's chain (issue 20 item 9), on requests' ``auth.py`` 290–297 scaled down
(``data/chains_story.json``): a formatting commit owns a guard alone in one hunk and two
lines of two commits in another; behind it a rename reshaped the guard, whose reason is
the loop fix. Asking about the guard alone, or about the block around it, the fix is
named — by ``memhooks why`` (human and JSON), the MCP tool and the hook's Edit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from storyrepo import build, story

from memhooks.mcp import tools

FIX = "Fix infinite loop on wrong Digest Authentication (Issue #547)"
PATH = "src/requests/auth.py"


@pytest.fixture
def chains(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    repo = tmp_path / "requests"
    return repo, build(repo, story("chains_story.json"))


def why(repo: Path, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "memhooks", "why", *args], cwd=repo,
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def named(hashes: dict[str, str], label: str, subject: str, day: str) -> str:
    return f'{hashes[label][:12]} "{subject}" ({day})'


def test_the_fix_behind_the_rename_is_named_for_the_guard_alone_and_for_the_block(
    chains: tuple[Path, dict[str, str]],
) -> None:
    repo, hashes = chains
    fix = named(hashes, "decision", FIX, "2012-07-14")
    rename = named(hashes, "rename", "HTTPDigestAuth - Renamed thread local attribute",
                   "2015-04-04")  # fmt: skip
    formatting = named(hashes, "format", "Apply black formatting (#6095)", "2022-04-29")
    alone = why(repo, f"{PATH}:11").splitlines()[2]
    assert alone == f"{PATH} 11: {formatting}; before it {rename}; before that {fix}"
    block = why(repo, f"{PATH}:10-16").splitlines()[2]
    # the rename's lines came from two commits: both chains are followed, the fix's too
    state = named(hashes, "state", "Digest auth: replace only the first 'digest ' of the "
                  "challenge", "2013-03-25")  # fmt: skip
    # the lines it owns itself in brackets: "…, which owns 12, <hash>" read a hash as a line
    assert block.startswith(f"{PATH} 11, 13–14: {formatting}; before it {rename} (which owns 12)")
    assert block.endswith(f"; before {hashes['rename'][:12]}: {state}, {fix}")
    # the whole file: the rename is named once, behind the formatting commit, with the
    # lines it owns itself (its own line would name nothing more)
    whole = why(repo, PATH)
    assert f"{rename} (which owns 7, 12)" in whole and f"{PATH} 7, 12:" not in whole


def test_json_and_the_mcp_tool_name_the_commit_each_earlier_one_goes_behind(
    chains: tuple[Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, hashes = chains
    owner = json.loads(why(repo, f"{PATH}:10-16", "--format", "json"))["owners"][0]
    expected = [(hashes["state"], hashes["rename"]), (hashes["decision"], hashes["rename"])]
    assert owner["commit"] == hashes["format"]
    assert [(e["commit"], e["replaced_by"]) for e in owner["earlier"]] == expected
    monkeypatch.chdir(repo)
    answer = tools.why(PATH, 10, 16)
    assert [(e["commit"], e["replaced_by"]) for e in answer["owners"][0]["earlier"]] == expected
    assert FIX in answer["context"]


def test_an_edit_of_the_block_is_told_the_fix_before_it_is_applied(
    chains: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    repo, hashes = chains
    (repo / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    lines = (repo / PATH).read_text(encoding="utf-8").splitlines(keepends=True)
    old = "".join(lines[10:14])  # 11-14: the guard and the lines after it
    payload = {
        "session_id": "s1", "cwd": str(repo), "hook_event_name": "PreToolUse",
        "tool_name": "Edit", "tool_input": {"file_path": str(repo / PATH), "old_string": old,
                                            "new_string": old.replace(" < 2", " < 3")},
    }  # fmt: skip
    env = {**os.environ, "MEMHOOKS_STATE_DIR": str(tmp_path / "state"),
           "MEMHOOKS_STORE": str(tmp_path / "store.sqlite3"),
           "MEMHOOKS_HOOK_TIMEOUT_MS": "30000"}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
        input=json.dumps(payload), capture_output=True, text=True, check=False, env=env,
        cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    told = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert f'{hashes["decision"][:12]} "{FIX}"' in told
    assert "stop after\n  | the second challenge." in told


def test_a_commit_owning_only_a_blank_line_of_the_range_is_not_named(
    chains: tuple[Path, dict[str, str]],
) -> None:
    # newcomer trial #4: auth.py 292/297 named "Digest authentication support!" for two
    # blank lines of the block
    repo, hashes = chains
    done = why(repo, f"{PATH}:10-12")
    assert not any(line.startswith(f"{PATH} 10: ") for line in done.splitlines())
    assert (
        "line 10 holds no word or number (blank or punctuation only): no commit is named for it"
        in done
    )
    answer = json.loads(why(repo, f"{PATH}:10-12", "--format", "json"))
    assert answer["wordless_ranges"] == [[10, 10]]
    assert [o["commit"] for o in answer["owners"]] == [hashes["format"], hashes["rename"]]


def test_a_version_bump_is_not_walked_back_to_the_bump_before_it(tmp_path: Path) -> None:
    from storyrepo import commit_files, git

    from memhooks.history import reasons
    from memhooks.lines import said

    assert said.BUMPS <= set(reasons.REASONS)
    repo = tmp_path / "bumps"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    for key, value in (("user.name", "Story"), ("user.email", "story@example.com")):
        git(repo, "config", key, value)
    for n, when in ((1, 1700000000), (2, 1700100000), (3, 1700200000)):
        last = commit_files(
            repo, {"version.py": f'__version__ = "2.3{n}.0"\n'}, f"v2.3{n}.0\n", when
        )
    said = why(repo, "version.py:1").splitlines()[2]
    assert said == f'version.py 1: {last[:12]} "v2.33.0" (2023-11-17)'


def test_previous_owners_kept_with_the_file_version_are_not_asked_again(
    chains: tuple[Path, dict[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # each edit of a file version must not run git again for what a commit replaced
    from memhooks.lines import blame as blame_module
    from memhooks.recall.why import explain_lines

    repo, hashes = chains
    real = blame_module.blame
    asked: list[str] = []

    def counted(*args: object, **kwargs: object) -> blame_module.Run:
        if kwargs.get("rev"):
            asked.append(str(kwargs["rev"]))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(blame_module, "blame", counted)
    state = str(tmp_path / "state")
    for _ in range(2):
        answer = explain_lines(str(repo), PATH, [(13, 14)], state_dir=state, focus=[(13, 14)])
        (owner,) = [e for e in answer.explanations if e.commit.hash == hashes["format"]]
        # followed by their text: the rename (13) and the first commit (14)
        assert {c.hash for c, _ in owner.before} == {hashes["rename"], hashes["add"]}
    # the version before the formatting commit (the rename), and further back: once each
    assert hashes["rename"] in asked and len(asked) == len(set(asked))


@pytest.mark.parametrize(
    "failure",
    [
        {"ran": False},  # git could not start: EAGAIN under parallel hooks
        {},  # git said no
    ],
)
def test_a_git_failure_is_not_remembered_as_no_previous_owner(
    chains: tuple[Path, dict[str, str]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    failure: dict[str, bool],
) -> None:
    # review B: a git that failed to start was cached, and the wrong answer stayed until
    # HEAD moved
    from memhooks.lines import blame as blame_module
    from memhooks.recall.why import explain_lines

    repo, hashes = chains
    real = blame_module.blame
    asked: list[str] = []

    def flaky(*args: object, **kwargs: object) -> blame_module.Run:
        if kwargs.get("rev"):
            asked.append(str(kwargs["rev"]))
            if len(asked) == 1:
                raise blame_module.BlameError("git could not be run", **failure)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    def before(state: str) -> set[str]:
        answer = explain_lines(str(repo), PATH, [(13, 14)], state_dir=state, focus=[(13, 14)])
        (owner,) = [e for e in answer.explanations if e.commit.hash == hashes["format"]]
        return {c.hash for c, _ in owner.before}

    followed = before(str(tmp_path / "fresh"))
    monkeypatch.setattr(blame_module, "blame", flaky)
    state = str(tmp_path / "state")
    assert before(state) == set()
    # git is fine now: asked again (and kept), not answered by the failure
    assert before(state) == followed
    again = len(asked)
    assert before(state) == followed
    assert asked[:2] == [hashes["rename"]] * 2 and len(asked) == again


def test_git_killed_by_a_signal_is_not_a_refusal(
    chains: tuple[Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from memhooks.lines import blame as blame_module

    monkeypatch.setattr(blame_module.git, "command", lambda top, *a: ["sh", "-c", "kill -9 $$"])
    with pytest.raises(blame_module.BlameError, match="killed") as raised:
        blame_module.blame(str(chains[0]), PATH)
    assert raised.value.ran


def test_a_commit_the_session_was_given_is_named_by_its_id_alone_at_an_edit(
    chains: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    # newcomer trial #4: the prompt gave the fix as a history memory, and the edit of the
    # guard named it again with its subject
    from memhooks.recall.line_recall import EDIT, line_recall

    repo, hashes = chains
    told = line_recall(str(repo), PATH, [(11, 11)], kind=EDIT, state_dir=str(tmp_path / "s"),
                       focus=[(11, 11)], delivered={hashes["decision"]})  # fmt: skip
    assert f"before that {hashes['decision'][:12]} (told before)" in told.text
    assert FIX not in told.text and hashes["decision"] not in told.commits


def test_an_uncommitted_line_names_the_owner_of_what_it_replaced(
    chains: tuple[Path, dict[str, str]],
) -> None:
    # newcomer trial #4: `why` of an edited line said only that it was not committed
    repo, hashes = chains
    text = (repo / PATH).read_text(encoding="utf-8").replace(" < 2:", " < 3:")
    (repo / PATH).write_text(text, encoding="utf-8")
    done = why(repo, f"{PATH}:11")
    # rough20: the owner at HEAD only reformatted the line, and the walk back that names
    # the fix for a committed line stopped there for an uncommitted one: the same rule
    assert done.splitlines()[-1] == (
        "what the uncommitted change replaced is owned at HEAD by "
        + named(hashes, "format", "Apply black formatting (#6095)", "2022-04-29")
        + "; before it "
        + named(hashes, "rename", "HTTPDigestAuth - Renamed thread local attribute", "2015-04-04")
        + "; before that "
        + named(hashes, "decision", FIX, "2012-07-14")
    )
    answer = json.loads(why(repo, f"{PATH}:11", "--format", "json"))
    (replaced,) = answer["uncommitted_replaced"]
    assert (replaced["commit"], replaced["lines"]) == (hashes["format"], [[11, 11]])
    assert [b["commit"] for b in replaced["before"]] == [hashes["rename"]]
    assert [(e["commit"], e["replaced_by"]) for e in replaced["earlier"]] == [
        (hashes["decision"], hashes["rename"])
    ]
    # asked again, the answer comes from the entry kept under HEAD's own key, the same
    assert why(repo, f"{PATH}:11") == done


def test_an_owner_named_with_its_chain_behind_another_gets_no_line_of_its_own(
    chains: tuple[Path, dict[str, str]],
) -> None:
    # reviewer: why auth.py:290-297 named the rename and the commit before it twice — behind
    # the formatting commit ("which owns 294"), then in a line of its own
    repo, hashes = chains
    heads = [line for line in why(repo, f"{PATH}:10-16").splitlines() if line.startswith(PATH)]
    assert len(heads) == 1
    assert f'{hashes["rename"][:12]} "HTTPDigestAuth - Renamed thread local attribute"' in heads[0]
    assert heads[0].count(hashes["rename"][:12]) == 2  # named, then what went before it
    assert hashes["decision"][:12] in heads[0]
