"""A hook listing recorded from the candidates' walk (``memhooks.listing.cache`` in
git, issue 14 item 3: the first ``validate --all`` with empty caches): the child that
walks the tree for the hook candidates also sends what the listing cache records of
every folder, so the tree is walked once. What it records is what the walk of
:mod:`memhooks.listing.folders` records; the cache stays as exact as before across
later changes; a folder changed while it is walked is not trusted."""

from __future__ import annotations

import os
import subprocess
import threading
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

from memhooks.listing import cache as listing
from memhooks.listing import candidates, discover, folders, record, walker
from memhooks.protocol import cache


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The directories :func:`memhooks.listing.folders.walk` (the second walk) reads."""
    seen: list[str] = []
    real = folders.walk
    monkeypatch.setattr(folders, "walk", lambda *a: seen.append(a[0]) or real(*a))
    return seen


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _tree(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True)
    _git(root, "init", "-q")
    for rel, text in files.items():
        _write(root / rel, text)
    return root.resolve()


def _project(root: Path) -> Path:
    """A tree with what the listing watches: ignore files at several levels (one of
    them a folder), a nested repository without hooks, a tracked hook, a symlink to a
    folder, empty folders, and enough folders (1,200) that the record the child sends
    spans several pipe reads."""
    root = _tree(
        root,
        {
            ".gitignore": "build/\n",
            "MEMHOOKS.md": GOOD,
            "src/MEMHOOKS.md": OLD,
            "src/deep/er/MEMHOOKS.md": OLD,
            "src/.gitignore": "*.log\n",
            "docs/.gitignore/x": "",
            "vendor/lib/MEMHOOKS.md": OLD,
            "other/readme.txt": "",
            "build/out.txt": "",
        },
    )
    _git(root, "add", "vendor/lib/MEMHOOKS.md")
    _git(root / "other", "init", "-q")
    (root / "linked").symlink_to(root / "src", target_is_directory=True)
    for n in range(1_200):
        (root / "many" / f"f{n % 30}" / f"g{n}").mkdir(parents=True)
    time.sleep(TICK)
    return root


def _recorded(root: Path) -> record.Listing:
    hooks, made = listing._list(str(root), True, None, None)
    assert isinstance(made, record.Listing)
    assert hooks == made.hooks == discover.list_hooks(str(root), use_git=True)
    return made


def _as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """The listing as it was made before: the candidates' path declines."""

    def declined(directory, meanwhile, speculate, *rest):  # type: ignore[no-untyped-def]
        if meanwhile is not None:
            meanwhile()

    monkeypatch.setattr(candidates, "git_list", declined)


def _fields(made: record.Listing) -> tuple[object, ...]:
    return (made.hooks, made.folders, made.stats.tolist(), made.watched, made.owners,
            made.files, made.pruned)  # fmt: skip


@pytest.mark.parametrize("threads", [False, True])
def test_the_walk_records_what_a_second_walk_recorded(tmp_path, monkeypatch, walks, threads):
    root = _project(tmp_path / "p")
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)  # a thread: the walker file is spawned
    if threads:
        other.start()
    try:
        once = _recorded(root)
    finally:
        stop.set()
        if threads:
            other.join()
    assert walks == []  # the tree was walked once, by the child
    assert "many/f7/g7" in once.folders and "linked" not in once.folders
    assert str(root / "other" / ".git" / "HEAD") in once.watched
    assert str(root / "docs" / ".gitignore") in once.watched
    _as_before(monkeypatch)
    twice = _recorded(root)
    assert walks == [str(root)]
    assert _fields(once) == _fields(twice)


def test_a_listing_recorded_from_the_walk_equals_a_fresh_one_across_changes(
    tmp_path, walks
) -> None:
    root = _project(tmp_path / "p")
    excludes = tmp_path / "excludes"
    steps = [
        lambda: _write(root / "many" / "f3" / "g3" / "MEMHOOKS.md", OLD),
        lambda: _write(root / "src" / ".gitignore", "deep/\n"),  # same size as before
        lambda: _git(root, "add", "-f", "src/deep/er/MEMHOOKS.md"),  # the index
        lambda: (
            excludes.write_text("many/\n"),
            _git(root, "config", "core.excludesFile", str(excludes)),
        ),
        lambda: _write(root / ".git" / "info" / "exclude", "src/\n"),
        lambda: _git(root / "many" / "f3", "init", "-q"),  # a nested repository appears
        lambda: os.rename(root / "many" / "f4", root / "many" / "f44"),
        lambda: _write(root / "many" / "f44" / "g4" / "MEMHOOKS.md", OLD),
        lambda: (root / "new" / "MEMHOOKS.md").mkdir(parents=True),  # not a file
    ]
    hooks = listed_after_each(root, steps, lambda top: discover.list_hooks(str(top), use_git=True))
    assert str(root / "new" / "MEMHOOKS.md") in hooks
    assert walks.count(str(root)) < len(steps)  # most listings came from the child


def test_a_folder_changed_while_the_child_walks_is_not_recorded(tmp_path, monkeypatch) -> None:
    root = _project(tmp_path / "p")
    real = walker.walk

    def changing(*args):  # type: ignore[no-untyped-def]
        # in the forked child, after the listing's start and before the folder is read
        _write(root / "src" / "late" / "MEMHOOKS.md", OLD)
        real(*args)

    monkeypatch.setattr(walker, "walk", changing)
    assert threading.active_count() == 1  # this process forks: the patch runs in the child
    hooks, made = listing._list(str(root), True, None, None)
    assert str(root / "src" / "late" / "MEMHOOKS.md") in hooks  # the walk saw it ...
    assert made is None  # ... but "src" changed within the racy window: nothing kept
    monkeypatch.setattr(walker, "walk", real)
    time.sleep(TICK)
    assert _recorded(root).hooks == hooks


def test_a_folder_changed_after_the_child_read_it_is_listed_afresh_next_time(tmp_path) -> None:
    root = _project(tmp_path / "p")
    late = root / "many" / "f5" / "MEMHOOKS.md"
    done: list[str] = []

    def speculate(path: str) -> None:  # while the child walks on, or after it read f5
        if not done:
            done.append(path)
            _write(late, OLD)

    listing.find_hooks(str(root), use_git=True, speculate=speculate)
    time.sleep(TICK)
    cache.clear_memory()
    # recorded or not, the next listing holds the hook and equals a fresh one
    assert str(late) in listing.find_hooks(str(root), use_git=True)
    assert listing.find_hooks(str(root), use_git=True) == discover.list_hooks(
        str(root), use_git=True
    )


def test_when_the_walk_does_not_complete_the_tree_is_walked_as_before(
    tmp_path, monkeypatch, walks
) -> None:
    root = _project(tmp_path / "p")
    monkeypatch.setattr(candidates, "LIMIT", 10)  # the child gives up: no record
    made = _recorded(root)
    assert walks == [str(root)] and "many/f7/g7" in made.folders


def test_validate_saves_the_parsed_hooks_while_git_checks_them(tmp_path, monkeypatch) -> None:
    from memhooks.validation import collect

    root = _project(tmp_path / "p")
    order: list[str] = []
    real_save = cache.HookCache.save
    monkeypatch.setattr(
        cache.HookCache, "save", lambda self: order.append("save") or real_save(self)
    )
    real_fields = candidates.Child.fields
    monkeypatch.setattr(
        candidates.Child, "fields", lambda self, ok: order.append("git") or real_fields(self, ok)
    )
    diagnostics, _ = collect(str(root), all_hooks=True)
    assert {os.path.relpath(d.path, root) for d in diagnostics} == {
        "src/MEMHOOKS.md", "src/deep/er/MEMHOOKS.md", "vendor/lib/MEMHOOKS.md"
    }  # fmt: skip
    assert order[:2] == ["save", "git"]  # saved before git's answer was read
    cache.clear_memory()
    parsed = cache.for_root(str(root))
    assert all(parsed.load(str(root / rel)).document is None  # from the cache file: no tree
               for rel in ("MEMHOOKS.md", "src/MEMHOOKS.md"))  # fmt: skip
