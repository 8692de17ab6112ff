"""``memhooks why`` answers what it can and says what it could not use: a hook file of
the chain that does not parse is skipped and named (as the hook skips it), and without
a HOME the answer comes from git alone — in the text, the JSON and the MCP tool."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from test_hook_lines import context, hook
from test_why import why

from memhooks.hook.told import all_told
from memhooks.lines.tools import changes
from memhooks.mcp import tools
from memhooks.recall.line_recall import EDIT, READ, line_recall

BROKEN = '---\nschema: memhooks/v2\nrecall:\n  queries: ["unclosed\n---\n'
# the hook's own line for a hook file it skips (recall.result.skipped_line), and what that
# leaves out of this answer
SKIPPED = (
    "retryx/MEMHOOKS.md:4:13 MH000 invalid YAML frontmatter: found unexpected end of stream"
    " (a quoted scalar that starts here is not closed): skipped; `memhooks validate"
    " retryx/MEMHOOKS.md` says how to fix it — its exclusions are not applied"
)


def test_a_broken_hook_file_on_the_path_is_skipped_and_named(
    repo: Path, hashes: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # newcomer trial: an unclosed quote in a MEMHOOKS.md made `why` fail outright
    (repo / "MEMHOOKS.md").write_text(
        "---\nschema: memhooks/v2\nexclude: [exponential backoff]\n---\n", encoding="utf-8"
    )
    (repo / "retryx" / "MEMHOOKS.md").write_text(BROKEN, encoding="utf-8")
    done = why(repo, "retryx/retry.py:8-11")
    assert done.returncode == 0, done.stderr
    assert hashes["regression"][:12] in done.stdout
    assert done.stdout.splitlines()[-2:] == [
        SKIPPED,
        f"left out: {hashes['add'][:12]} (exponential backoff)",
    ]
    answer = json.loads(why(repo, "retryx/retry.py:8-11", "--format", "json").stdout)
    assert answer["notes"][0] == SKIPPED  # the root's exclusion still applies
    assert answer["excluded"] == [
        {"commit": hashes["add"], "reason": "exponential backoff", "behind": None}
    ]
    monkeypatch.chdir(repo)
    assert tools.why("retryx/retry.py", 8, 11)["notes"][0] == SKIPPED


def test_without_home_the_answer_comes_from_git_alone_and_says_so(
    repo: Path, hashes: dict[str, str]
) -> None:
    # newcomer trial: `why` with HOME unset failed; it needs no store to answer
    env = {k: v for k, v in os.environ.items() if k != "HOME" and not k.startswith("XDG_")}
    done = why(repo, "retryx/retry.py:9-10", env=env)
    assert done.returncode == 0, done.stderr
    assert f'before it {hashes["decision"][:12]} "fix: cap Retrier' in done.stdout
    assert done.stdout.splitlines()[-1] == (
        "HOME is not set: no blame cache and no memory store, so this answer is from git "
        "alone (no revert marks of imported history applied)"
    )
    answer = json.loads(why(repo, "retryx/retry.py:9-10", "--format", "json", env=env).stdout)
    assert answer["notes"] == [done.stdout.splitlines()[-1]]
    assert answer["owners"][0]["commit"] == hashes["regression"]


def shallow_clone(repo: Path, tmp_path: Path, depth: int = 2) -> Path:
    """A shallow clone of the story: its edge is the unrelated README commit, which git
    (blame --root) would name as the owner of every older line of retry.py."""
    clone = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", f"--depth={depth}", f"file://{repo}", str(clone)], check=True
    )
    return clone


def test_a_shallow_clone_s_edge_is_where_history_stops_not_an_owner(
    repo: Path, hashes: dict[str, str], tmp_path: Path
) -> None:
    # newcomer trial: in a shallow clone `why` named the clone's edge commit as the owner
    clone = shallow_clone(repo, tmp_path)
    edge = hashes["unrelated"]
    answer = json.loads(why(clone, "retryx/retry.py", "--format", "json").stdout)
    assert [o["commit"] for o in answer["owners"]] == [hashes["regression"]]
    assert answer["owners"][0]["before"] == []  # what it replaced is past the edge too
    assert answer["history_cut"] == [{"commit": edge, "lines": [[1, 8], [11, 19]]}]
    assert answer["notes"] == [
        (
            f"history before {edge[:12]} is not in this clone (a shallow clone): lines 1–8, "
            "11–19 are older — `git fetch --unshallow` to explain them"
        )
    ]
    one = why(clone, "retryx/retry.py:3")
    assert one.stdout == (
        "retryx/retry.py: no commit in this clone explains these lines\n\n"
        f"history before {edge[:12]} is not in this clone (a shallow clone): line 3 is "
        "older — `git fetch --unshallow` to explain it\n"
    )
    # what the cache learnt while shallow does not outlive the edge
    subprocess.run(["git", "-C", str(clone), "fetch", "-q", "--unshallow"], check=True)
    after = json.loads(why(clone, "retryx/retry.py:3", "--format", "json").stdout)
    assert after["history_cut"] == [] and [o["commit"] for o in after["owners"]] == [hashes["add"]]


def test_a_root_commit_owns_its_lines_it_is_no_edge(repo: Path, hashes: dict[str, str]) -> None:
    # blame marks a root commit 'boundary' too (without --root): only the shallow list cuts
    answer = json.loads(why(repo, "retryx/retry.py:3", "--format", "json").stdout)
    assert [o["commit"] for o in answer["owners"]] == [hashes["add"]]
    assert answer["history_cut"] == []


def test_the_hook_never_tells_a_shallow_clone_s_edge_as_an_owner(
    repo: Path, hashes: dict[str, str], tmp_path: Path
) -> None:
    clone = shallow_clone(repo, tmp_path)
    (clone / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    project = {
        "root": clone,
        "env": {
            **os.environ,
            "MEMHOOKS_STATE_DIR": str(tmp_path / "state"),
            "MEMHOOKS_STORE": str(tmp_path / "store.sqlite3"),
            "MEMHOOKS_HOOK_TIMEOUT_MS": "30000",
        },
    }
    read = context(hook(project, "claude-code", "claude-read"))  # lines 5-12
    edit = context(hook(project, "claude-code", "claude-pre-edit", session="s2"))
    for told in (read, edit):
        assert hashes["unrelated"][:12] not in told and "docs: say what retryx" not in told
    assert f'retryx/retry.py 9–10: {hashes["regression"][:12]} "perf: simplify retry"' in edit


def test_an_edit_of_lines_only_a_shallow_edge_owns_settles_with_nothing_told(
    repo: Path, tmp_path: Path
) -> None:
    clone = shallow_clone(repo, tmp_path)
    state = str(tmp_path / "state")
    line_recall(str(clone), "retryx/retry.py", [(1, 19)], kind=READ, state_dir=state)
    found = changes("Edit", {"file_path": "retryx/retry.py", "old_string": "import time\n",
                             "new_string": "x\n"})  # fmt: skip
    assert all_told(found, lambda p: str(clone / p), str(clone), state, set())


def test_an_edit_of_a_bump_owned_line_settles_with_nothing_told(repo: Path, tmp_path: Path) -> None:
    # review B: the whole way tells a bump nothing (not walked back, alone it says
    # nothing), but the shortcut waited for it to be told: such an edit never settled
    from storyrepo import commit_files

    for n, when in ((0, 1700300000), (1, 1700400000)):
        commit_files(repo, {"retryx/version.py": f'"""The version."""\nVERSION = "1.0.{n}"\n'},
                     f"v1.0.{n}\n", when)  # fmt: skip
    state = str(tmp_path / "state")
    read = line_recall(str(repo), "retryx/version.py", [(1, 2)], kind=READ, state_dir=state)
    found = changes("Edit", {"file_path": "retryx/version.py", "old_string": 'VERSION = "1.0.1"',
                             "new_string": 'VERSION = "1.0.2"'})  # fmt: skip
    assert all_told(found, lambda p: str(repo / p), str(repo), state, set(read.commits))
    edit = line_recall(str(repo), "retryx/version.py", [(2, 2)], kind=EDIT, state_dir=state,
                       focus=[(2, 2)], delivered=set(read.commits))  # fmt: skip
    assert edit.text == ""  # the whole way agrees
