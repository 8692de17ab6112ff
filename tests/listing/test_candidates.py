"""Hooks read while git lists (``memhooks.listing.candidates``, issue 14 item 3): with
the caches off, ``validate --all`` reads the hooks a child's walk finds while git lists
the tree, and still checks exactly the hooks git's listing gives — ignore files at every
level, ``info/exclude``, ``core.excludesFile``, nested repositories, tracked files in
ignored folders — never one outside the canonical root through a symlink."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memhooks.listing import candidates, discover
from memhooks.protocol import cache
from memhooks.validation import collect

GOOD = "---\nschema: memhooks/v2\n---\n"
OLD = "---\nschema: memhooks/v1\n---\n"  # MH001: shows which hooks were checked


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMHOOKS_CACHE", "0")
    cache.clear_memory()
    yield
    cache.clear_memory()


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def _tree(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    _git(root, "init", "-q")
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root.resolve()


def _listings(root: Path) -> tuple[list[str] | None, list[str], list[str]]:
    """(this path's answer or None, what it read meanwhile, git's full listing), as
    root-relative paths."""
    read: list[str] = []
    early = candidates.git_list(str(root), None, read.append)
    full = discover._git_list(str(root), None)
    assert full is not None
    rel = lambda paths: sorted(os.path.relpath(p, root) for p in paths)
    return (None if early is None else rel(early)), rel(read), rel(full)


def _checked(root: Path) -> list[str]:
    """The hooks validate --all reports MH001 for, root-relative."""
    cache.clear_memory()
    diagnostics, _ = collect(str(root), all_hooks=True)
    return sorted(os.path.relpath(d.path, root) for d in diagnostics if d.code == "MH001")


def test_an_untracked_tree_is_read_while_git_lists_and_gives_gits_hooks(tmp_path) -> None:
    root = _tree(
        tmp_path / "p",
        {"MEMHOOKS.md": OLD, "a/MEMHOOKS.md": OLD, "a/b/c/MEMHOOKS.md": OLD, "d/x.py": ""},
    )
    early, read, full = _listings(root)
    assert early == full == ["MEMHOOKS.md", "a/MEMHOOKS.md", "a/b/c/MEMHOOKS.md"]
    assert read == full  # each read once, while git listed
    assert _checked(root) == full


def test_tracked_and_untracked_hooks_together(tmp_path) -> None:
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": OLD, "src/MEMHOOKS.md": OLD})
    _git(root, "add", "MEMHOOKS.md")
    (root / "new").mkdir()
    (root / "new" / "MEMHOOKS.md").write_text(OLD, encoding="utf-8")
    early, _, full = _listings(root)
    assert early == full == ["MEMHOOKS.md", "new/MEMHOOKS.md", "src/MEMHOOKS.md"]


def test_a_hook_in_an_ignored_folder_found_by_the_walk_is_not_validated(tmp_path) -> None:
    root = _tree(
        tmp_path / "p",
        {".gitignore": "build/\n", "MEMHOOKS.md": OLD, "build/MEMHOOKS.md": OLD, "x.py": ""},
    )
    early, read, full = _listings(root)
    assert "build/MEMHOOKS.md" in read  # the walk found and read it ...
    assert early is None  # ... git does not list it: the listing as before decides
    assert full == ["MEMHOOKS.md"]
    assert _checked(root) == ["MEMHOOKS.md"]  # ... and it is not validated


@pytest.mark.parametrize(
    "rules",
    [
        {"a/.gitignore": "MEMHOOKS.md\n"},  # a nested .gitignore
        {".gitignore": "a/*\n!a/keep/\n"},  # re-included below an ignored pattern
        {".git/info/exclude": "a/\n"},
        {"excludes": "a/MEMHOOKS.md\n"},  # core.excludesFile
    ],
)
def test_every_ignore_rule_git_applies_is_applied(tmp_path, rules) -> None:
    root = _tree(
        tmp_path / "p",
        {"MEMHOOKS.md": OLD, "a/MEMHOOKS.md": OLD, "a/keep/MEMHOOKS.md": OLD, "b/MEMHOOKS.md": OLD},
    )
    for rel, text in rules.items():
        (root / rel).write_text(text, encoding="utf-8")
    if "excludes" in rules:
        _git(root, "config", "core.excludesFile", str(root / "excludes"))
    early, _, full = _listings(root)
    assert early in (None, full)
    assert "a/MEMHOOKS.md" not in full and "MEMHOOKS.md" in full and "b/MEMHOOKS.md" in full
    assert _checked(root) == full


@pytest.mark.parametrize(
    ("ignore", "fast"),
    [
        ("*.md\n!MEMHOOKS.md\n", True),  # excluded, then re-included: listed
        ("a/\n!a/MEMHOOKS.md\n", False),  # nothing is re-included below an excluded folder
        # a/b/ is ignored below a/, which git shows a hook in: not walked, left out
        ("/a/b\n", True),
        # x/ holds nothing but the ignored c/: git shows x/ as a whole and nothing inside,
        # so the old listing walks it and checks x/c/MEMHOOKS.md: it decides
        ("**/c/\n", False),
        ("b/MEMHOOKS.md/\n", True),  # a folder-only rule does not match a file
        ("", True),
    ],
)
def test_git_decides_what_is_ignored_whatever_the_rule(tmp_path, ignore, fast) -> None:
    root = _tree(
        tmp_path / "p",
        {
            ".gitignore": ignore,
            "MEMHOOKS.md": OLD,
            "a/MEMHOOKS.md": OLD,
            "a/b/MEMHOOKS.md": OLD,
            "b/MEMHOOKS.md": OLD,
            "x/c/MEMHOOKS.md": OLD,
            "notes.md": "",
        },
    )
    early, _, full = _listings(root)
    assert early == (full if fast else None)
    assert _checked(root) == full


def test_a_hook_in_a_submodule_folder_or_behind_pathspec_magic_is_left_to_git(tmp_path) -> None:
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": OLD, ":odd/MEMHOOKS.md": OLD})
    early, _, full = _listings(root)
    assert early is None and full == [":odd/MEMHOOKS.md", "MEMHOOKS.md"]
    sub = _tree(tmp_path / "sub", {"MEMHOOKS.md": OLD})
    _git(sub, "add", ".")
    _git(sub, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x")
    root = _tree(tmp_path / "q", {"MEMHOOKS.md": OLD})
    _git(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub), "mod")
    early, _, full = _listings(root)
    assert early is None and full == ["MEMHOOKS.md"] == _checked(root)


def test_a_tracked_hook_in_an_ignored_folder_is_checked(tmp_path) -> None:
    root = _tree(tmp_path / "p", {"vendor/MEMHOOKS.md": OLD, "MEMHOOKS.md": OLD})
    _git(root, "add", "vendor/MEMHOOKS.md")
    (root / ".gitignore").write_text("vendor/\n", encoding="utf-8")
    early, _, full = _listings(root)
    assert early == full == ["MEMHOOKS.md", "vendor/MEMHOOKS.md"]


def test_a_nested_repository_is_left_out(tmp_path) -> None:
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": OLD})
    _tree(root / "other", {"MEMHOOKS.md": OLD})
    early, _, full = _listings(root)
    assert early is None  # a hook in a folder holding .git: the listing as before decides
    assert full == ["MEMHOOKS.md"] == _checked(root)


def test_a_symlinked_folder_outside_the_root_is_not_followed(tmp_path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "MEMHOOKS.md").write_text(OLD, encoding="utf-8")
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": OLD})
    (root / "linked").symlink_to(outside, target_is_directory=True)
    early, read, full = _listings(root)
    assert read == ["MEMHOOKS.md"]  # nothing was read through the link
    assert early == full == ["MEMHOOKS.md"] == _checked(root)


def test_an_entry_named_like_a_hook_that_is_not_a_file_is_reported_as_before(tmp_path) -> None:
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": OLD})
    os.mkfifo(root / "MEMHOOKS.md.fifo")
    (root / "sub").mkdir()
    os.mkfifo(root / "sub" / "MEMHOOKS.md")
    early, _, _ = _listings(root)
    assert early is None  # the listing as before decides (MH029 when read)
    diagnostics, _ = collect(str(root), all_hooks=True)
    assert {os.path.relpath(d.path, root) for d in diagnostics if d.code == "MH029"} == {
        "sub/MEMHOOKS.md"
    }


def test_a_tracked_hook_deleted_in_the_work_tree_is_not_checked(tmp_path) -> None:
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": OLD, "gone/MEMHOOKS.md": OLD})
    _git(root, "add", ".")
    (root / "gone" / "MEMHOOKS.md").unlink()
    early, _, full = _listings(root)
    assert early == full == ["MEMHOOKS.md"]


def test_past_the_folder_limit_the_listing_is_gits_as_before(tmp_path, monkeypatch) -> None:
    root = _tree(tmp_path / "p", {f"d{n}/MEMHOOKS.md": OLD for n in range(6)})
    monkeypatch.setattr(candidates, "LIMIT", 3)
    early, _, full = _listings(root)
    assert early is None and len(full) == 6
    assert _checked(root) == full


def test_without_git_nothing_is_left_running_and_the_walker_answers(tmp_path, monkeypatch) -> None:
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": OLD})
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))  # no git to be found
    read: list[str] = []
    assert candidates.git_list(str(root), None, read.append) is None
    assert candidates.read_while_listed(str(root), None, read.append) == [
        str(root / "MEMHOOKS.md")
    ]


def test_validate_reports_what_it_reported_before(tmp_path) -> None:
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": GOOD, "a/MEMHOOKS.md": "---\nschema: x\n---\n"})
    diagnostics, _ = collect(str(root), all_hooks=True)
    assert [(d.code, os.path.relpath(d.path, root), d.line, d.column) for d in diagnostics] == [
        ("MH001", "a/MEMHOOKS.md", 2, 9)
    ]


def test_with_another_thread_running_a_fresh_interpreter_walks(tmp_path, monkeypatch) -> None:
    import threading

    root = _tree(tmp_path / "p", {"MEMHOOKS.md": OLD, "a/MEMHOOKS.md": OLD})
    forks: list[int] = []
    monkeypatch.setattr(os, "fork", lambda: forks.append(1) or 0)  # would run the walk here
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        early, read, full = _listings(root)
    finally:
        stop.set()
        other.join()
    assert forks == []
    assert early == read == full == ["MEMHOOKS.md", "a/MEMHOOKS.md"]


def test_a_wildcard_in_a_folder_name_is_left_to_the_listing(tmp_path) -> None:
    # check-ignore reads its paths as pathspecs: "a*" would match the tracked "ab/…"
    # and leave the ignored "a*/MEMHOOKS.md" unchecked
    root = _tree(
        tmp_path / "p", {".gitignore": "a[*]/\n", "ab/MEMHOOKS.md": OLD, "a*/MEMHOOKS.md": OLD}
    )
    _git(root, "add", "ab/MEMHOOKS.md")
    early, _, full = _listings(root)
    assert early is None and full == ["ab/MEMHOOKS.md"] == _checked(root)


def test_ignore_rules_above_a_directory_inside_the_work_tree_apply(tmp_path) -> None:
    root = _tree(
        tmp_path / "p",
        {".gitignore": "sub/gen/\n", "sub/MEMHOOKS.md": OLD, "sub/gen/MEMHOOKS.md": OLD,
         "sub/ok/MEMHOOKS.md": OLD},
    )  # fmt: skip
    read: list[str] = []
    sub = str(root / "sub")
    early = candidates.git_list(sub, None, read.append)
    assert early is None  # gen/MEMHOOKS.md is ignored from above: listed as before
    assert discover._git_list(sub, None) == [
        str(root / "sub" / "MEMHOOKS.md"), str(root / "sub" / "ok" / "MEMHOOKS.md")
    ]  # fmt: skip
    (root / "sub" / "gen" / "MEMHOOKS.md").unlink()
    assert candidates.git_list(sub, None, read.append) == discover._git_list(sub, None)


def test_a_tracked_hook_spelt_in_another_case_is_left_to_the_listing(tmp_path) -> None:
    # on a case-insensitive file system the two are one file and git shows the index's
    # spelling; check-ignore would not check it: the listing as before decides
    root = _tree(tmp_path / "p", {"sub/memhooks.md": OLD, "sub/MEMHOOKS.md": OLD})
    _git(root, "add", "sub/memhooks.md")
    early, _, full = _listings(root)
    assert early is None and full == ["sub/MEMHOOKS.md"] == _checked(root)


def test_a_cue_memhooks_keeps_out_of_git_is_left_out_while_git_lists(tmp_path) -> None:
    # the generated cue of a folder, in info/exclude (memhooks.excludes), beside the
    # project's own hooks: git's listing leaves it out, and so does this path, which
    # used to hand the whole tree back to git's untracked walk for it (~40 ms more CPU
    # on bench_engine's tree; issue 21's validate --all puzzle)
    files = {"MEMHOOKS.md": OLD, "a/MEMHOOKS.md": OLD, "a/b/c/x.py": "", "a/b/c/MEMHOOKS.md": OLD}
    root = _tree(tmp_path / "p", files)
    with open(root / ".git" / "info" / "exclude", "a", encoding="utf-8") as fp:
        fp.write("# memhooks: hook files it made\n/a/b/c/MEMHOOKS.md\n")
    early, read, full = _listings(root)
    assert "a/b/c/MEMHOOKS.md" in read
    assert early == full == ["MEMHOOKS.md", "a/MEMHOOKS.md"] == _checked(root)
    # a tracked file on its way: git shows that folder, no walk finds the cue either
    _git(root, "add", "a/b/c/x.py")
    (root / "a" / "MEMHOOKS.md").unlink()
    early, _, full = _listings(root)
    assert early == full == ["MEMHOOKS.md"] == _checked(root)


def test_a_folder_holding_only_ignored_hooks_is_left_to_the_listing(tmp_path) -> None:
    # git shows such a folder as a whole (--directory) and nothing inside: the listing
    # walks it and checks the ignored hook, which this path cannot know
    root = _tree(tmp_path / "p", {"MEMHOOKS.md": OLD, "gen/MEMHOOKS.md": OLD})
    (root / ".git" / "info" / "exclude").write_text("/gen/MEMHOOKS.md\n", encoding="utf-8")
    early, _, full = _listings(root)
    assert early is None and full == ["MEMHOOKS.md", "gen/MEMHOOKS.md"] == _checked(root)


FOLDERS = ["", "a/", "a/b/", "c/"]
#: One ignore rule of each shape: a file below, a file at a place, folders, a negation.
RULES = ["", "a/b/MEMHOOKS.md\n", "/a/MEMHOOKS.md\n", "c/\n", "b/\n",
         "MEMHOOKS.md\n!/MEMHOOKS.md\n"]  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(
    hooks=st.sets(st.sampled_from(FOLDERS), min_size=1),
    plain=st.sets(st.sampled_from(FOLDERS)),
    tracked=st.sets(st.sampled_from(FOLDERS)),
    rule=st.sampled_from(RULES),
)
def test_what_this_path_answers_is_gits_listing(
    tmp_path_factory: pytest.TempPathFactory,
    hooks: set[str],
    plain: set[str],
    tracked: set[str],
    rule: str,
) -> None:
    # hooks, plain files and tracked ones in a few folders, under one ignore rule: when
    # this path answers, it answers what git's listing gives
    files = {f"{folder}MEMHOOKS.md": OLD for folder in hooks}
    files.update({f"{folder}x.py": "" for folder in plain | tracked})
    root = _tree(tmp_path_factory.mktemp("p"), files)
    (root / ".git" / "info" / "exclude").write_text(rule, encoding="utf-8")
    for folder in tracked:
        _git(root, "add", "-f", "--", f"{folder}x.py")
    early, _, full = _listings(root)
    assert early in (None, full)
