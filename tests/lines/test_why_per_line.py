"""A range gets the answer its lines get (issue 20 items 3 and 9; lane verdict24): in
``data/per_line_story.json`` one commit, "tune fetch defaults", re-spaced lines 5–6
(the same tokens) and changed a value on line 8; "fetch: log which url is fetched" owns
line 7 between them. Asked alone, lines 5–6 are formatting under "tune": walked back to
"fix: cap retries at the measured budget". Asked as 5–8 — by ``memhooks why``, the MCP
tool, the hook's pre-tool Edit or a ranged Read — the verdict was made over all of
tune's lines (a whitespace line and a value line: neither rule), so "tune" was told
alone and the fix, which explains lines 5–6, was lost."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from storyrepo import built_story

from memhooks.mcp import tools

PATH = "fetchx/fetch.py"
FIX = "fix: cap retries at the measured budget"


@pytest.fixture(scope="module")
def story(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    return built_story(tmp_path_factory, "per_line_story.json")


def why(repo: Path, state: Path, target: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "memhooks", "why", target], cwd=repo, capture_output=True,
        text=True, check=False, env={**os.environ, "MEMHOOKS_STATE_DIR": str(state)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def _line_5_alone_walks_back(repo: Path, tmp_path: Path, tune: str, fix: str) -> str:
    """``why`` of line 5 alone names "tune" as its owner and the fix behind it (the
    story's re-spaced line); the words that say "behind it" in every answer."""
    behind = f'before it {fix} "{FIX}" (2026-01-02)'
    alone = why(repo, tmp_path / "one", f"{PATH}:5")
    assert f'{PATH} 5: {tune} "tune fetch defaults" (2026-01-04); {behind}' in alone
    return behind


def test_why_of_a_range_walks_back_where_its_lines_alone_do(
    story: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    repo, hashes = story
    tune, fix, log = (hashes[k][:12] for k in ("tune", "fix", "log"))
    behind = _line_5_alone_walks_back(repo, tmp_path, tune, fix)
    ranged = why(repo, tmp_path / "range", f"{PATH}:5-8").splitlines()
    # each commit's line says exactly which lines it explains: tune its value on line 8,
    # the fix (behind tune's re-spacing) lines 5-6, the log commit line 7
    assert f'{PATH} 8: {tune} "tune fetch defaults" (2026-01-04)' in ranged
    assert f"{PATH} 5–6: {tune} (named above); {behind}" in ranged
    assert f'{PATH} 7: {log} "fetch: log which url is fetched" (2026-01-03)' in ranged
    assert (
        "  | The gateway's measured budget is five attempts; asking for more timed it out."
        in ranged
    )


def test_the_mcp_tool_gives_the_range_its_lines_answers(
    story: tuple[Path, dict[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, hashes = story
    monkeypatch.chdir(repo)
    monkeypatch.setenv("MEMHOOKS_STATE_DIR", str(tmp_path / "state"))
    answer = tools.why(PATH, 5, 8)
    tune = [o for o in answer["owners"] if o["commit"] == hashes["tune"]]
    assert [(o["lines"], o["low_signal"]) for o in tune] == [
        ([[8, 8]], None),
        ([[5, 6]], "formatting"),
    ]
    assert [b["commit"] for b in tune[0]["before"]] == []
    assert [b["commit"] for b in tune[1]["before"]] == [hashes["fix"]]


def hook(repo: Path, tmp_path: Path, payload: dict[str, object]) -> str:
    (repo / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    env = {**os.environ, "MEMHOOKS_STATE_DIR": str(tmp_path / "state"),
           "MEMHOOKS_STORE": str(tmp_path / "store.sqlite3"), "MEMHOOKS_HOOK_TIMEOUT_MS": "30000"}  # fmt: skip
    raw = {"session_id": "s1", "cwd": str(repo), **payload}
    done = subprocess.run(
        [sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
        input=json.dumps(raw), capture_output=True, text=True, check=False, env=env, cwd=repo,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return str(json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"])


def hook_reply(repo: Path, tmp_path: Path, payload: dict[str, object]) -> str:
    """What :func:`hook` adds, ``""`` for the host's no-op (an empty reply)."""
    try:
        return hook(repo, tmp_path, payload)
    except json.JSONDecodeError:
        return ""


@pytest.fixture
def clone(story: tuple[Path, dict[str, str]], tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    subprocess.run(["git", "clone", "-q", str(story[0]), str(copy)], check=True)
    return copy.resolve()


def test_an_edit_of_a_re_spaced_line_and_a_changed_one_is_told_what_each_replaced(
    story: tuple[Path, dict[str, str]], clone: Path, tmp_path: Path
) -> None:
    _, hashes = story
    old = '    backoff = BACKOFF*retries\n    log("fetch", url)\n    timeout = 45\n'
    new = '    backoff = BACKOFF * retries * 2\n    log("fetch", url, timeout)\n    timeout = 60\n'
    told = hook(clone, tmp_path, {
        "hook_event_name": "PreToolUse", "tool_name": "Edit",
        "tool_input": {"file_path": str(clone / PATH), "old_string": old, "new_string": new},
    })  # fmt: skip
    tune, fix = hashes["tune"][:12], hashes["fix"][:12]
    assert f'{PATH} 6: {tune} (named above); before it {fix} "{FIX}"' in told, told
    assert f'{PATH} 5, 8: {tune} "tune fetch defaults"' in told


def test_a_ranged_read_is_told_the_fix_behind_the_re_spaced_lines(
    story: tuple[Path, dict[str, str]], clone: Path, tmp_path: Path
) -> None:
    _, hashes = story
    told = hook(clone, tmp_path, {
        "hook_event_name": "PostToolUse", "tool_name": "Read", "tool_response": {},
        "tool_input": {"file_path": str(clone / PATH), "offset": 5, "limit": 4},
    })  # fmt: skip
    tune, fix = hashes["tune"][:12], hashes["fix"][:12]
    assert (
        f'{PATH} 5–6: {tune} "tune fetch defaults" (2026-01-04); before it {fix} "{FIX}"' in told
    ), told


def test_a_line_re_spaced_beside_a_changed_one_is_walked_back_alone_and_in_the_range(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    # the lead's repro: "tune" re-spaced line 5 and changed a value on line 6 — one diff
    # hunk, judged whole (neither whitespace-only nor words added): line 5 was not walked
    # back even asked alone
    repo, hashes = built_story(tmp_path_factory, "per_line_hunk_story.json")
    tune, fix = hashes["tune"][:12], hashes["fix"][:12]
    behind = _line_5_alone_walks_back(repo, tmp_path, tune, fix)
    ranged = why(repo, tmp_path / "range", f"{PATH}:5-6").splitlines()
    assert f'{PATH} 6: {tune} "tune fetch defaults" (2026-01-04)' in ranged
    assert f"{PATH} 5: {tune} (named above); {behind}" in ranged
    assert why(repo, tmp_path / "six", f"{PATH}:6").count("before it") == 0


def test_a_pre_tool_edit_is_not_settled_past_the_commit_behind_a_told_re_spacing(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    """``data/respaced_told_story.json``: a Read of lines 12–16 tells "settings: raise
    KAPPA…" (values of its own on lines 14–15); an Edit of line 10, which that commit
    only re-spaced, must tell the decision behind it before the edit. The pre-tool
    shortcut (:mod:`memhooks.hook.told`) settled it: the commit was told, and its subject
    is no low-signal one."""
    story_repo, hashes = built_story(tmp_path_factory, "respaced_told_story.json")
    repo = tmp_path / "repo"
    subprocess.run(["git", "clone", "-q", str(story_repo), str(repo)], check=True)
    repo = repo.resolve()
    settings = "fetchx/settings.py"
    read = hook(repo, tmp_path, {
        "hook_event_name": "PostToolUse", "tool_name": "Read", "tool_response": {},
        "tool_input": {"file_path": str(repo / settings), "offset": 12, "limit": 5},
    })  # fmt: skip
    tune, decide = hashes["tune"][:12], hashes["decide"][:12]
    assert f'{tune} "settings: raise KAPPA for the larger batches"' in read, read
    assert decide not in read, read
    before = hook_reply(repo, tmp_path, {
        "hook_event_name": "PreToolUse", "tool_name": "Edit",
        "tool_input": {"file_path": str(repo / settings), "old_string": "LIMIT  =  5\n",
                       "new_string": "LIMIT = 50\n"},
    })  # fmt: skip
    assert f"before it {decide} \"fix: cap LIMIT at the gateway's measured budget\"" in before
    assert "Asking for more than five attempts timed the gateway out." in before
