"""A chain's ``exclude`` phrases apply to line-level recall (issue 20 item 5) and are kept
between hook calls while its hook files stand (issue 20 item 7: resolving the chain again
was ~3 % of a warm edit that tells): a hook file edited, added or removed, or a work tree
made between the root and the folder, resolves it again."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest
from test_hook_lines import DECISION, context, hook

from memhooks.hook import exclusions as kept
from memhooks.protocol import cache as hook_cache

HOOK = "---\nschema: memhooks/v2\n{more}---\n"


class Call:
    """What :func:`memhooks.hook.exclusions.exclusions` reads of a hook call."""

    def __init__(self, state: Path) -> None:
        self.state_dir = str(state)
        self.roles: list[str] = []


def write_hook(folder: Path, exclude: list[str]) -> None:
    more = "".join(
        f"exclude:\n  - {p}\n" if i == 0 else f"  - {p}\n" for i, p in enumerate(exclude)
    )
    hook = folder / "MEMHOOKS.md"
    hook.write_text(HOOK.format(more=more), encoding="utf-8")
    past = time.time() - 60  # older than the racy window: its key is trusted
    os.utime(hook, (past, past))


def test_the_phrases_are_kept_while_the_chain_stands(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    call = Call(tmp_path / "state")
    write_hook(repo, ["measured attempt budget"])
    assert kept.exclusions(call, str(repo), "retryx/retry.py") == ["measured attempt budget"]  # type: ignore[arg-type]
    resolved: list[str] = []
    real = kept._resolved
    monkeypatch.setattr(kept, "_resolved", lambda *a: resolved.append("x") or real(*a))
    assert kept.exclusions(call, str(repo), "retryx/retry.py") == ["measured attempt budget"]  # type: ignore[arg-type]
    assert resolved == []  # kept: the chain is not resolved again
    write_hook(repo / "retryx", ["gateway"])  # a hook of the folder's own
    assert kept.exclusions(call, str(repo), "retryx/retry.py") == [  # type: ignore[arg-type]
        "measured attempt budget", "gateway"]  # fmt: skip
    write_hook(repo, [])  # the root's phrase removed
    assert kept.exclusions(call, str(repo), "retryx/retry.py") == ["gateway"]  # type: ignore[arg-type]
    (repo / "retryx" / "MEMHOOKS.md").unlink()
    assert kept.exclusions(call, str(repo), "retryx/retry.py") == []  # type: ignore[arg-type]
    assert len(resolved) == 3
    subprocess.run(
        ["git", "init", "-q", str(repo / "retryx")], check=True
    )  # a work tree of its own
    write_hook(repo / "retryx", [])
    write_hook(repo, ["measured attempt budget"])
    assert kept.exclusions(call, str(repo), "retryx/retry.py") == []  # type: ignore[arg-type]


def test_a_hook_changed_within_the_racy_window_is_not_kept(repo: Path, tmp_path: Path) -> None:
    call = Call(tmp_path / "state")
    (repo / "MEMHOOKS.md").write_text(HOOK.format(more="exclude:\n  - gateway\n"), "utf-8")
    assert kept.exclusions(call, str(repo), "retryx/retry.py") == ["gateway"]  # type: ignore[arg-type]
    assert not (tmp_path / "state" / kept.FOLDER).exists()


def test_an_edit_is_not_told_an_excluded_decision_until_the_phrase_goes(
    project: dict[str, object], hashes: dict[str, str]
) -> None:
    root = Path(str(project["root"]))
    write_hook(root, ["measured attempt budget"])
    told = context(hook(project, "claude-code", "claude-pre-edit", session="a"))
    assert hashes["decision"][:12] not in told
    assert context(hook(project, "claude-code", "claude-pre-edit", session="b")) == told  # kept
    write_hook(root, [])
    told = context(hook(project, "claude-code", "claude-pre-edit", session="c"))
    assert f'before it {hashes["decision"][:12]} "{DECISION}"' in told


def test_the_kept_phrases_follow_the_hook_parser() -> None:
    # When what parsing a hook yields changes (memhooks.protocol.cache.FORMAT moves), bump
    # memhooks.hook.exclusions.FORMAT and record the pair here.
    assert (hook_cache.FORMAT, kept.FORMAT) == (7, 2)


def test_a_relative_memhooks_root_keys_the_root_it_names_from_each_folder(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # review: MEMHOOKS_ROOT=. (docs/quickstart.md exports a relative one) names the folder
    # the hook runs in; the phrases kept for one root must not answer for another
    call = Call(tmp_path / "state")
    write_hook(repo, ["measured attempt budget"])
    write_hook(repo / "retryx", [])
    past = time.time() - 60
    for hook_file in (repo / "MEMHOOKS.md", repo / "retryx" / "MEMHOOKS.md"):
        os.utime(hook_file, ns=(int(past * 1e9), int(past * 1e9)))
    monkeypatch.setenv("MEMHOOKS_ROOT", ".")
    monkeypatch.chdir(repo / "retryx")  # the root is retryx: the root hook is not in its chain
    assert kept.exclusions(call, str(repo), "retryx/retry.py") == []  # type: ignore[arg-type]
    monkeypatch.chdir(repo)  # the root is the repository: its phrase applies
    assert kept.exclusions(call, str(repo), "retryx/retry.py") == ["measured attempt budget"]  # type: ignore[arg-type]
    monkeypatch.chdir(repo / "retryx")
    assert kept.exclusions(call, str(repo), "retryx/retry.py") == []  # type: ignore[arg-type]


def test_a_work_tree_made_inside_the_root_resolves_again_without_a_hook_of_its_own(
    repo: Path, tmp_path: Path
) -> None:
    # last review: the kept root's is_top check could go with every test green — a
    # nested repository with no MEMHOOKS.md changes no hook key, only the root
    call = Call(tmp_path / "state")
    write_hook(repo, ["measured attempt budget"])
    assert kept.exclusions(call, str(repo), "retryx/retry.py") == ["measured attempt budget"]  # type: ignore[arg-type]
    subprocess.run(["git", "init", "-q", str(repo / "retryx")], check=True)
    assert kept.exclusions(call, str(repo), "retryx/retry.py") == []  # type: ignore[arg-type]


def test_a_root_found_as_the_highest_hook_is_not_kept(tmp_path: Path) -> None:
    # outside git the root is the highest hook file: one written above it later must
    # take effect, and its path is not among the kept keys — so nothing is kept
    call = Call(tmp_path / "state")
    project = tmp_path / "plain" / "p"
    project.mkdir(parents=True)
    (project / "x.py").write_text("x = 1\n", encoding="utf-8")
    write_hook(project, ["gateway"])
    assert kept.exclusions(call, str(project), "x.py") == ["gateway"]  # type: ignore[arg-type]
    assert not (tmp_path / "state" / kept.FOLDER).exists()


def test_a_hook_rewritten_with_the_same_mtime_is_read_again(repo: Path, tmp_path: Path) -> None:
    # issue 21 (one file-state key for every cache): a rewrite within one mtime tick —
    # or one that sets the time back, as `cp -p` and a checkout do — keeps the mtime;
    # its size and ctime still say it changed (memhooks.filestate)
    call = Call(tmp_path / "state")
    write_hook(repo, ["gateway"])
    hook = repo / "MEMHOOKS.md"
    assert kept.exclusions(call, str(repo), "retryx/retry.py") == ["gateway"]  # type: ignore[arg-type]
    before = hook.stat()
    write_hook(repo, ["gateway", "measured attempt budget"])
    os.utime(hook, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert hook.stat().st_mtime_ns == before.st_mtime_ns
    assert kept.exclusions(call, str(repo), "retryx/retry.py") == [  # type: ignore[arg-type]
        "gateway", "measured attempt budget"]  # fmt: skip
