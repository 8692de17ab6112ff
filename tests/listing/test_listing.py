"""The hook listing cache (``memhooks.listing.cache``): ``validate --all`` reuses what
git or the walker listed while nothing that decides the listing changed, and lists
afresh — exactly what :func:`memhooks.listing.discover.list_hooks` says — when anything
did (issue 14 item 3)."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest
from listing_support import (  # noqa: F401  (_short_racy_window: an autouse fixture)
    GOOD,
    OLD,
    TICK,
    _short_racy_window,
    listed_after_each,
)

from memhooks import dirs, filestate
from memhooks.listing import cache as listing
from memhooks.listing import discover, record
from memhooks.protocol import cache
from memhooks.validation import collect


@pytest.fixture
def git_calls(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Every git command line run in this process (through subprocess or
    ``posix_spawn``), and ``["fork"]`` for each fork (the candidates' walk, which
    becomes git)."""
    calls: list[list[str]] = []
    real = subprocess.Popen
    spawns = {name: getattr(os, name) for name in ("posix_spawn", "posix_spawnp")}
    fork = os.fork

    def popen(argv, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(list(argv))
        return real(argv, *args, **kwargs)

    def spawner(name: str):  # type: ignore[no-untyped-def]
        def spawned(path, argv, *args, **kwargs):  # type: ignore[no-untyped-def]
            calls.append(list(argv))
            return spawns[name](path, argv, *args, **kwargs)

        return spawned

    def forked() -> int:
        calls.append(["fork"])
        return fork()

    monkeypatch.setattr(subprocess, "Popen", popen)
    for name in spawns:
        monkeypatch.setattr(os, name, spawner(name))
    monkeypatch.setattr(os, "fork", forked)
    return calls


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _tree(root: Path, files: dict[str, str], *, git: bool = True) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    if git:
        subprocess.run(["git", "init", "-q", str(root)], check=True)
    for rel, text in files.items():
        _write(root / rel, text)
    time.sleep(TICK)
    return root.resolve()


def _listed(root: Path) -> list[str]:
    """What validate --all reports, as root-relative paths of MH001 diagnostics."""
    cache.clear_memory()  # each call stands for a fresh process
    diagnostics, _ = collect(str(root), all_hooks=True)
    return sorted(os.path.relpath(d.path, root) for d in diagnostics if d.code == "MH001")


def _fresh(root: Path, *, git: bool = True) -> list[str]:
    return discover.list_hooks(str(root), use_git=git)


def _cache_files() -> list[Path]:
    folder = Path(dirs.cache_dir()) / "listings"
    return sorted(folder.glob("*.listing")) if folder.is_dir() else []


def test_a_second_validate_asks_git_nothing_and_reports_the_same(tmp_path, git_calls) -> None:
    root = _tree(
        tmp_path / "p", {"MEMHOOKS.md": GOOD, "a/MEMHOOKS.md": OLD, "a/b/c/MEMHOOKS.md": OLD}
    )
    first = _listed(root)
    assert first == ["a/MEMHOOKS.md", "a/b/c/MEMHOOKS.md"]
    assert git_calls and len(_cache_files()) == 1
    git_calls.clear()
    assert _listed(root) == first
    assert git_calls == []


def test_a_hook_added_to_a_listed_folder_is_found(tmp_path) -> None:
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": GOOD, "a/b/keep.txt": "x"})
    assert _listed(root) == []
    _write(root / "a" / "b" / "MEMHOOKS.md", OLD)
    assert _listed(root) == ["a/b/MEMHOOKS.md"]


def test_a_hook_in_a_new_empty_looking_folder_is_found(tmp_path) -> None:
    # git shows nothing of an empty folder; the listing must still notice it fill up
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": GOOD})
    (root / "empty" / "deeper").mkdir(parents=True)
    time.sleep(TICK)
    assert _listed(root) == []
    time.sleep(TICK)
    _write(root / "empty" / "deeper" / "MEMHOOKS.md", OLD)
    assert _listed(root) == ["empty/deeper/MEMHOOKS.md"]


def test_a_removed_hook_is_no_longer_listed(tmp_path) -> None:
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": GOOD, "a/MEMHOOKS.md": OLD})
    assert _listed(root) == ["a/MEMHOOKS.md"]
    (root / "a" / "MEMHOOKS.md").unlink()
    assert _listed(root) == []


def test_a_gitignore_edited_in_place_with_the_same_size_is_honoured(tmp_path) -> None:
    root = _tree(
        tmp_path / "p",
        {
            ".gitignore": "vendor/\n",
            "MEMHOOKS.md": GOOD,
            "vendor/MEMHOOKS.md": OLD,
            "lib/MEMHOOKS.md": OLD,
        },
    )
    assert _listed(root) == ["lib/MEMHOOKS.md"]
    before = os.stat(root / ".gitignore")
    with open(root / ".gitignore", "r+", encoding="utf-8") as fp:  # same inode, same size
        fp.write("lib/   \n")
    assert os.stat(root / ".gitignore").st_size == before.st_size
    assert (
        _listed(root)
        == ["vendor/MEMHOOKS.md"]
        == [
            os.path.relpath(p, root)
            for p in _fresh(root)
            if "MEMHOOKS.md" in p and p != str(root / "MEMHOOKS.md")
        ]
    )


def test_info_exclude_and_the_global_excludes_file_are_honoured(tmp_path) -> None:
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": GOOD, "a/MEMHOOKS.md": OLD, "b/MEMHOOKS.md": OLD})
    assert _listed(root) == ["a/MEMHOOKS.md", "b/MEMHOOKS.md"]
    with open(root / ".git" / "info" / "exclude", "a", encoding="utf-8") as fp:
        fp.write("a/\n")
    assert _listed(root) == ["b/MEMHOOKS.md"]
    global_ignore = Path(os.environ["XDG_CONFIG_HOME"]) / "git" / "ignore"  # git's default place
    _write(global_ignore, "b/\n")
    assert _listed(root) == []


def test_ignore_rules_above_a_memhooks_root_inside_git_are_watched(tmp_path, monkeypatch) -> None:
    root = _tree(
        tmp_path / "repo",
        {".gitignore": "sub/gen/\n", "sub/MEMHOOKS.md": GOOD, "sub/gen/MEMHOOKS.md": OLD},
    )
    monkeypatch.setenv("MEMHOOKS_ROOT", str(root / "sub"))
    assert _listed(root / "sub") == []
    (root / ".gitignore").write_text("sub/gem/\n", encoding="utf-8")  # same size
    assert _listed(root / "sub") == ["gen/MEMHOOKS.md"]


def test_a_newly_tracked_ignored_hook_is_listed_and_its_deletion_seen(tmp_path) -> None:
    root = _tree(
        tmp_path / "p",
        {".gitignore": "vendor/\n", "MEMHOOKS.md": GOOD, "vendor/x/MEMHOOKS.md": OLD},
    )
    assert _listed(root) == []
    subprocess.run(["git", "-C", str(root), "add", "-f", "vendor/x/MEMHOOKS.md"], check=True)
    time.sleep(TICK)
    assert _listed(root) == ["vendor/x/MEMHOOKS.md"]  # the index changed: listed afresh
    time.sleep(TICK)
    (root / "vendor" / "x" / "MEMHOOKS.md").unlink()  # in an ignored folder, still watched
    assert _listed(root) == [] == [p for p in _fresh(root) if "vendor" in p]


def test_a_fifo_named_like_a_hook_is_reported_after_the_listing_was_cached(tmp_path) -> None:
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": GOOD, "web/a.js": "x"})
    assert collect(str(root), all_hooks=True)[0] == []
    os.mkfifo(root / "web" / "MEMHOOKS.md")
    cache.clear_memory()
    diagnostics = collect(str(root), all_hooks=True)[0]
    assert [(d.code, d.path) for d in diagnostics] == [("MH029", str(root / "web" / "MEMHOOKS.md"))]


def test_a_nested_repository_that_appears_is_left_out(tmp_path) -> None:
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": GOOD, "vendor/lib/MEMHOOKS.md": OLD})
    assert _listed(root) == ["vendor/lib/MEMHOOKS.md"]
    subprocess.run(["git", "init", "-q", str(root / "vendor" / "lib")], check=True)
    assert _listed(root) == [] == [p for p in _fresh(root) if "vendor" in p]


def test_outside_git_the_walker_listing_is_reused_and_refreshed(tmp_path, git_calls) -> None:
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": GOOD, ".hidden/MEMHOOKS.md": OLD}, git=False)
    os.symlink(root, root / "loop")
    time.sleep(TICK)
    assert _listed(root) == [".hidden/MEMHOOKS.md"]
    assert _listed(root) == [".hidden/MEMHOOKS.md"]
    _write(root / ".hidden" / "x" / "MEMHOOKS.md", OLD)
    assert _listed(root) == [".hidden/MEMHOOKS.md", ".hidden/x/MEMHOOKS.md"]
    assert git_calls == []


def test_a_folder_changed_during_the_walk_window_is_not_cached(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(filestate, "RACY_NS", 3_600 * 10**9)  # everything is "just changed"
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": GOOD, "a/MEMHOOKS.md": OLD})
    assert _listed(root) == ["a/MEMHOOKS.md"]
    assert _cache_files() == []


def _header(data: bytes) -> dict:
    return json.loads(data[: data.index(b"\n")])


def _with_header(data: bytes, **fields: object) -> bytes:
    body = data[data.index(b"\n") :]
    return json.dumps({**_header(data), **fields}).encode() + body


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # truncated
        lambda data: b"not json at all",
        lambda data: data[:-1] + bytes([data[-1] ^ 1]),  # a stat's bit flipped
        lambda data: _with_header(data, sizes=7),
        lambda data: _with_header(data, owners=[10**6]),
        # a listing whose hooks were altered but whose stats still hold: not trusted
        lambda data: data.replace(b"/MEMHOOKS.md", b"/MEMHOOKS.mX", 1),
        lambda data: data.replace(b"\n", b"\n/etc/x/MEMHOOKS.md\0", 1),
    ],
)
def test_a_corrupt_or_altered_listing_is_ignored_not_trusted(tmp_path, damage) -> None:
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": GOOD, "a/MEMHOOKS.md": OLD})
    first = [d.to_json() for d in collect(str(root), all_hooks=True)[0]]
    assert [d["code"] for d in first] == ["MH001"]
    (file,) = _cache_files()
    file.write_bytes(damage(file.read_bytes()))
    cache.clear_memory()
    assert [d.to_json() for d in collect(str(root), all_hooks=True)[0]] == first


def test_a_listing_naming_a_hook_outside_the_directory_is_not_trusted(tmp_path) -> None:
    # even with a matching digest (recomputed by whoever altered the file)
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": GOOD, "a/MEMHOOKS.md": OLD})
    outside = _tree(tmp_path / "elsewhere", {"MEMHOOKS.md": OLD}, git=False)
    assert _listed(root) == ["a/MEMHOOKS.md"]
    key = record.key(str(root), True)
    made = record.load(record.file_for(str(root), True), key, str(root))
    assert made is not None
    made.hooks = [*made.hooks, str(outside / "MEMHOOKS.md")]
    record.save(record.file_for(str(root), True), key, made)
    assert listing.find_hooks(str(root), use_git=True) == _fresh(root)
    assert str(outside / "MEMHOOKS.md") not in listing.find_hooks(str(root), use_git=True)


def test_memhooks_cache_0_writes_no_listing(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("MEMHOOKS_CACHE", "0")
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": GOOD, "a/MEMHOOKS.md": OLD})
    assert _listed(root) == _listed(root) == ["a/MEMHOOKS.md"]
    assert _cache_files() == []


def test_a_hook_rewritten_with_the_same_size_and_mtime_is_read_again(tmp_path, monkeypatch) -> None:
    # A coarse-timestamp file system gives a second write in the same tick the same
    # mtime; with the same size the parsed-hook key is unchanged. The racy rule (its
    # real 2 s window here) keeps such a just-written hook out of the cache, so validate
    # reads the new bytes.
    monkeypatch.setattr(filestate, "RACY_NS", 2_000_000_000)
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": GOOD})
    hook = root / "MEMHOOKS.md"
    _write(hook, OLD)
    first = os.stat(hook)
    cache.clear_memory()
    assert [d.code for d in collect(str(root), all_hooks=True)[0]] == ["MH001"]
    _write(hook, OLD.replace("v1", "v2"))
    os.utime(hook, ns=(first.st_atime_ns, first.st_mtime_ns))
    after = os.stat(hook)
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (
        first.st_ino,
        first.st_size,
        first.st_mtime_ns,
    )
    cache.clear_memory()
    assert collect(str(root), all_hooks=True)[0] == []


def test_the_cached_listing_equals_a_fresh_one_across_changes(tmp_path) -> None:
    root = _tree(
        tmp_path / "p",
        {
            ".gitignore": "build/\n*.tmp/\n",
            "MEMHOOKS.md": GOOD,
            "src/MEMHOOKS.md": OLD,
            "src/deep/er/MEMHOOKS.md": OLD,
            "build/MEMHOOKS.md": OLD,
            "x.tmp/MEMHOOKS.md": OLD,
            "docs/readme.txt": "x",
        },
    )
    steps = [
        lambda: _write(root / "docs" / "MEMHOOKS.md", OLD),
        lambda: (root / "src" / "deep" / "er" / "MEMHOOKS.md").unlink(),
        lambda: _write(root / "src" / ".gitignore", "MEMHOOKS.md\n"),
        lambda: os.rename(root / "docs", root / "documents"),
        lambda: (root / "src" / ".gitignore").unlink(),
        lambda: (root / "new" / "MEMHOOKS.md").mkdir(parents=True),
    ]
    listed_after_each(root, steps, _fresh)


@pytest.mark.parametrize("git", [True, False])
def test_folders_made_after_a_listing_are_watched_by_the_next_one(tmp_path, git) -> None:
    # the walk after a change reads only the folders that changed; the new ones must
    # be recorded, or a hook put in them later would go unseen
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": GOOD, "a/keep.txt": "x"}, git=git)
    assert _listed(root) == []
    (root / "a" / "new" / "sub").mkdir(parents=True)
    time.sleep(TICK)
    assert _listed(root) == []
    time.sleep(TICK)
    _write(root / "a" / "new" / "sub" / "MEMHOOKS.md", OLD)
    assert _listed(root) == ["a/new/sub/MEMHOOKS.md"]


def test_a_listing_right_after_a_change_is_made_as_without_the_cache(tmp_path, monkeypatch) -> None:
    # within the racy window a new listing could not be trusted, so none is recorded
    # (no second walk); the next validate after the window records it again
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": GOOD, "a/MEMHOOKS.md": OLD})
    assert _listed(root) == ["a/MEMHOOKS.md"]
    (file,) = _cache_files()
    saved = file.read_bytes()
    monkeypatch.setattr(filestate, "RACY_NS", 600 * 10**9)  # "just now", however slow the machine
    _write(root / "b" / "MEMHOOKS.md", OLD)
    assert _listed(root) == ["a/MEMHOOKS.md", "b/MEMHOOKS.md"]
    assert file.read_bytes() == saved
    monkeypatch.setattr(filestate, "RACY_NS", 20_000_000)
    time.sleep(TICK)
    assert _listed(root) == ["a/MEMHOOKS.md", "b/MEMHOOKS.md"]
    assert file.read_bytes() != saved


def test_a_memhooks_root_outside_git_is_walked_and_not_recorded(tmp_path, monkeypatch) -> None:
    # git is asked (MEMHOOKS_ROOT may lie inside a work tree) and cannot answer: the
    # walker's listing is the answer, and is not saved as git's
    root = _tree(
        tmp_path / "p",
        {
            ".gitignore": "ignored/\n",
            "MEMHOOKS.md": GOOD,
            "ignored/MEMHOOKS.md": OLD,
            "a/b/MEMHOOKS.md": OLD,
        },
        git=False,
    )
    monkeypatch.setenv("MEMHOOKS_ROOT", str(root))
    expected = ["a/b/MEMHOOKS.md", "ignored/MEMHOOKS.md"]
    assert _listed(root) == _listed(root) == expected
    assert (
        listing.find_hooks(str(root), use_git=True)
        == _fresh(root, git=True)
        == _fresh(root, git=False)
    )
    assert _cache_files() == []


@pytest.mark.parametrize("git", [True, False])
def test_a_tree_with_too_many_folders_is_listed_without_recording_it(
    tmp_path, monkeypatch, git
) -> None:
    # past the folder limit no listing is kept, and later runs do not walk again to
    # find that out, until the top folder changes
    from memhooks.listing import folders

    monkeypatch.setattr(folders, "UNPRUNED_FOLDERS", 2)
    monkeypatch.setattr(folders, "MAX_FOLDERS", 3)
    walks: list[str] = []
    real = folders.walk
    monkeypatch.setattr(folders, "walk", lambda *a: walks.append(a[0]) or real(*a))
    files = {
        "MEMHOOKS.md": GOOD,
        "a/MEMHOOKS.md": OLD,
        "b/MEMHOOKS.md": OLD,
        "c/d/MEMHOOKS.md": OLD,
    }
    root = _tree(tmp_path / "p", files, git=git)
    expected = ["a/MEMHOOKS.md", "b/MEMHOOKS.md", "c/d/MEMHOOKS.md"]
    assert _listed(root) == expected
    assert walks
    walks.clear()
    assert _listed(root) == expected
    assert walks == []  # the marker said so
    _write(root / "e" / "MEMHOOKS.md", OLD)  # a new folder at the top
    time.sleep(TICK)
    assert _listed(root) == [*expected, "e/MEMHOOKS.md"]
    assert walks


def test_no_environment_value_is_written_to_the_cache(tmp_path, monkeypatch) -> None:
    # GIT_* variables can carry tokens; the listing keys on them by digest only.
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", "Authorization: Bearer s3cr3t-token-4711")
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": GOOD, "a/MEMHOOKS.md": OLD})
    assert _listed(root) == ["a/MEMHOOKS.md"]
    [saved] = _cache_files()
    assert b"s3cr3t-token-4711" not in saved.read_bytes()
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", "Authorization: Bearer other")
    assert _listed(root) == ["a/MEMHOOKS.md"]
    assert len(_cache_files()) == 1  # same file, a new key: listed afresh


def test_when_git_cannot_answer_the_listing_is_the_uncached_one(tmp_path, monkeypatch) -> None:
    root = _tree(
        tmp_path / "p",
        {
            "MEMHOOKS.md": GOOD,
            ".gitignore": "build/\n",
            "build/MEMHOOKS.md": OLD,
            "a/MEMHOOKS.md": OLD,
        },
    )
    assert _listed(root) == ["a/MEMHOOKS.md"]  # git: build/ is ignored
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "git").write_text("#!/bin/sh\nexit 128\n")
    (fake / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}:{os.environ['PATH']}")
    (root / "a" / "MEMHOOKS.md").write_text(OLD + "\n")  # a change: the listing is redone
    time.sleep(TICK)
    assert _listed(root) == [
        "a/MEMHOOKS.md",
        "build/MEMHOOKS.md",
    ]  # what the walk without git finds


def test_a_hook_memhooks_keeps_local_is_listed_and_kept_in_the_cached_listing(
    tmp_path, monkeypatch
) -> None:
    # git leaves out the hook files memhooks made and keeps local (its block of
    # info/exclude); validate takes them in — from the cached listing, while it holds,
    # without reading the exclude file again — and sees the block change
    from memhooks import local_hooks
    from memhooks.maintain.local import keep_local, share

    root = _tree(tmp_path / "p", {"MEMHOOKS.md": GOOD, "a/MEMHOOKS.md": OLD})
    made = _made_local(root, "b/MEMHOOKS.md")
    assert _listed(root) == ["a/MEMHOOKS.md", "b/MEMHOOKS.md"]
    assert "b/MEMHOOKS.md" not in _fresh(root)  # git's own listing leaves it out
    real = local_hooks.kept
    reads: list[str] = []
    monkeypatch.setattr(local_hooks, "kept", lambda *a: reads.append("kept") or real(*a))
    assert _listed(root) == ["a/MEMHOOKS.md", "b/MEMHOOKS.md"]
    assert reads == []  # the listing held
    assert share(str(root), [str(made)]) == [str(made)]  # now git shows it
    time.sleep(TICK)
    assert _listed(root) == ["a/MEMHOOKS.md", "b/MEMHOOKS.md"]
    assert reads == ["kept"]  # the exclude file changed: listed afresh
    keep_local(str(root), [str(made)])  # local again, then removed
    made.unlink()
    time.sleep(TICK)
    assert _listed(root) == ["a/MEMHOOKS.md"]


def _pruned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git tree past a folder limit of 3, so its walk skips what git ignores (gen/)."""
    from memhooks.listing import folders

    monkeypatch.setattr(folders, "UNPRUNED_FOLDERS", 3)
    files = {"MEMHOOKS.md": GOOD, ".gitignore": "gen/\n", "a/MEMHOOKS.md": OLD}
    files.update({f"d{n}/x.py": "" for n in range(4)})
    return _tree(tmp_path / "p", files)


def _made_local(root: Path, rel: str) -> Path:
    """A hook file at ``rel`` made as memhooks makes one: listed in its block first."""
    from memhooks.maintain.local import keep_local

    made = root / rel
    keep_local(str(root), [str(made)])
    _write(made, OLD)
    time.sleep(TICK)
    return made


def test_a_local_hook_made_again_in_an_ignored_folder_is_listed_past_the_folder_limit(
    tmp_path, monkeypatch
) -> None:
    # past UNPRUNED_FOLDERS the walk skips what git ignores; the folder of each hook file
    # memhooks' block names is watched all the same, there or not (newcomer helper-134:
    # deleted, then made again, the hook stayed out of the cached listing)
    root = _pruned(tmp_path, monkeypatch)
    made = _made_local(root, "gen/MEMHOOKS.md")
    assert _listed(root) == ["a/MEMHOOKS.md", "gen/MEMHOOKS.md"]
    made.unlink()
    time.sleep(TICK)
    assert _listed(root) == ["a/MEMHOOKS.md"]
    _write(made, OLD)  # made again: its line is in the block already
    time.sleep(TICK)
    assert _listed(root) == ["a/MEMHOOKS.md", "gen/MEMHOOKS.md"]


def test_a_local_hook_whose_parent_folder_was_moved_and_linked_back_leaves_the_listing(
    tmp_path, monkeypatch
) -> None:
    # past UNPRUNED_FOLDERS, gen/ (ignored) is not walked: moving gen/x out and linking
    # it back left gen/x/sub/MEMHOOKS.md — now outside the project — in the cached
    # listing, and a cached `prune --all` rewrote it (newcomer helper-135)
    root = _pruned(tmp_path, monkeypatch)
    _made_local(root, "gen/x/sub/MEMHOOKS.md")
    assert _listed(root) == ["a/MEMHOOKS.md", "gen/x/sub/MEMHOOKS.md"]
    (root / "gen" / "x").rename(tmp_path / "outside")
    (root / "gen" / "x").symlink_to(tmp_path / "outside")
    time.sleep(TICK)
    assert _listed(root) == ["a/MEMHOOKS.md"]


def test_a_local_hook_behind_a_symlinked_folder_is_not_listed(tmp_path) -> None:
    # the block names vend/MEMHOOKS.md; vend was moved out and linked back: that file is
    # outside the project, and the hook never loads it (newcomer helper-134)
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": GOOD, "a/MEMHOOKS.md": OLD})
    _made_local(root, "vend/MEMHOOKS.md")
    assert _listed(root) == ["a/MEMHOOKS.md", "vend/MEMHOOKS.md"]
    (root / "vend").rename(tmp_path / "outside")
    (root / "vend").symlink_to(tmp_path / "outside")
    time.sleep(TICK)
    assert _listed(root) == ["a/MEMHOOKS.md"]


def test_bytes_that_are_not_utf8_in_the_exclude_file_hide_no_local_hook(tmp_path) -> None:
    # git reads any bytes there; a user's Latin-1 comment kept memhooks' block unread
    # (local hooks dropped out) and its writer raising (newcomer helper-134)
    from memhooks.maintain.local import keep_local

    root = _tree(tmp_path / "p", {"MEMHOOKS.md": GOOD})
    exclude = root / ".git" / "info" / "exclude"
    exclude.write_bytes(exclude.read_bytes() + b"# caf\xe9 notes\n")
    made = root / "b" / "MEMHOOKS.md"
    assert keep_local(str(root), [str(made)])
    _write(made, OLD)
    time.sleep(TICK)
    assert b"# caf\xe9 notes\n" in exclude.read_bytes()  # the user's bytes kept
    assert _listed(root) == ["b/MEMHOOKS.md"]
    status = subprocess.run(["git", "-C", str(root), "status", "--porcelain"],
                            capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert "b/" not in status


@pytest.mark.parametrize("git", [True, False])
def test_a_listing_of_a_tree_without_folders_below_it_is_reused(tmp_path, git) -> None:
    # its folders are [""] (the base alone): written as one empty name, read back as
    # none, the listing never held and was made again every run (newcomer helper-134)
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": OLD}, git=git)
    key = record.key(str(root), git)
    assert listing.find_hooks(str(root), use_git=git) == [str(root / "MEMHOOKS.md")]
    made = record.load(record.file_for(str(root), git), key, str(root))
    assert made is not None and made.folders == [""]
