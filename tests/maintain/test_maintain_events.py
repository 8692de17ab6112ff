"""``memhooks.maintain.events.maintain`` as the agent hook and the benchmark call it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memhooks.agents.base import FileChange, NormalizedEvent
from memhooks.agents.folder import named_folder
from memhooks.errors import DiagnosticError, MemhooksWarning
from memhooks.maintain.cues import auto_cue_text
from memhooks.maintain.events import changed_paths
from memhooks.maintain.events import maintain as maintain_in
from memhooks.settings import choice

ROOT_HOOK = "---\nschema: memhooks/v2\ninherits: true\n---\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = Path(os.path.realpath(tmp_path)) / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    for name in ("src/a.py", "src/b.py", "lib/c.py", "top.txt"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x\n", encoding="utf-8")
    return root


def maintain(event: NormalizedEvent, **kw: object) -> list[str]:
    """Maintenance in the folder the event names, as ``memhooks event`` runs it."""
    return maintain_in(event, named_folder(event), **kw)  # type: ignore[arg-type]


def edit(
    root: Path, *paths: str, event: str = "post_edit", action: str = "written", **kw: object
) -> NormalizedEvent:
    files = [FileChange(p if p.startswith("/") else f"{root}/{p}", action) for p in paths]
    return NormalizedEvent("generic", event, cwd=str(root), files=files, **kw)  # type: ignore[arg-type]


def test_returns_the_absolute_paths_written(root: Path) -> None:
    root_hook = (root / "MEMHOOKS.md").read_text("utf-8")
    written = maintain(edit(root, "src/b.py", "top.txt", "src/a.py", "lib/c.py"), env={})
    assert written == [
        str(root / "lib/MEMHOOKS.md"),
        str(root / "src/MEMHOOKS.md"),
    ]
    # the root gets no generated cue: every folder inherits the root hook (issue 22 item 1)
    assert (root / "MEMHOOKS.md").read_text("utf-8") == root_hook
    assert auto_cue_text("src") in (root / "src/MEMHOOKS.md").read_text("utf-8")
    # the same files again change nothing
    assert maintain(edit(root, "src/a.py", "src/b.py"), env={}) == []


@pytest.mark.parametrize(
    ("event", "action"),
    [
        ("post_edit", "read"),
        ("pre_tool", "written"),
        ("user_prompt", "read"),
        ("stop", "written"),
        (None, "written"),
    ],
)
def test_events_that_never_maintain(root: Path, event: str | None, action: str) -> None:
    assert maintain(edit(root, "src/a.py", event=event, action=action), env={}) == []  # type: ignore[arg-type]
    assert sorted(p.name for p in (root / "src").iterdir()) == ["a.py", "b.py"]


def test_post_command_and_post_tool_count_only_with_written_files(root: Path) -> None:
    assert maintain(edit(root, "src/a.py", event="post_tool", action="read"), env={}) == []
    assert maintain(edit(root, "src/a.py", event="post_command"), env={}) == [
        str(root / "src/MEMHOOKS.md")
    ]


def test_rename_reconciles_both_directories(root: Path) -> None:
    maintain(edit(root, "src/a.py", "lib/c.py"), env={})
    (root / "lib/c.py").rename(root / "src/c.py")
    moved = NormalizedEvent(
        "generic",
        "post_edit",
        cwd=str(root),
        files=[FileChange(f"{root}/src/c.py", "renamed", f"{root}/lib/c.py")],
    )
    assert changed_paths(moved) == [f"{root}/src/c.py", f"{root}/lib/c.py"]
    assert maintain(moved, env={}) == [str(root / "lib/MEMHOOKS.md"), str(root / "src/MEMHOOKS.md")]
    assert "lib/c.py" not in (root / "lib/MEMHOOKS.md").read_text("utf-8")
    assert "src/c.py" in (root / "src/MEMHOOKS.md").read_text("utf-8")


def test_no_cwd_uses_the_workspace_root_then_the_process_directory(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = [FileChange(f"{root}/src/a.py", "written")]
    assert maintain(
        NormalizedEvent("cursor", "post_edit", files=files, workspace_roots=[str(root)]), env={}
    )
    monkeypatch.chdir(root / "lib")
    files = [FileChange(f"{root}/lib/c.py", "written")]
    assert maintain(NormalizedEvent("opencode", "post_edit", files=files), env={}) == [
        str(root / "lib/MEMHOOKS.md")
    ]


def test_relative_paths_join_the_event_cwd(root: Path) -> None:
    event = NormalizedEvent(
        "generic", "post_edit", cwd=str(root / "src"), files=[FileChange("a.py", "written")]
    )
    assert maintain(event, env={}) == [str(root / "src/MEMHOOKS.md")]


def test_missing_cwd_is_mh024(root: Path) -> None:
    event = NormalizedEvent(
        "generic", "post_edit", cwd=str(root / "nope"), files=[FileChange("a.py", "written")]
    )
    with pytest.raises(DiagnosticError) as caught:
        maintain(event, env={})
    assert caught.value.diagnostic.code == "MH024"


def test_memhooks_root_env_is_honoured(root: Path) -> None:
    inner = root / "src"
    (inner / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    (inner / "deep").mkdir()
    (inner / "deep" / "d.py").write_text("", encoding="utf-8")
    env = {"MEMHOOKS_ROOT": str(inner)}
    event = NormalizedEvent(
        "generic",
        "post_edit",
        cwd=str(inner),
        files=[FileChange(f"{inner}/deep/d.py", "written"), FileChange(f"{root}/lib/c.py", "written")],
    )
    # lib/c.py lies outside that root: dropped, as any path outside the project is
    assert maintain(event, env=env) == [str(inner / "deep" / "MEMHOOKS.md")]


def test_memhooks_root_not_containing_the_event_cwd_gives_way_to_git(root: Path) -> None:
    """An explicit root wins when it contains the target, else the git root applies and
    a warning says so (seed 000; issue 22 item 6: one exported variable must not switch
    maintenance off in every other project)."""
    inner = root / "src"
    (inner / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    with pytest.warns(MemhooksWarning) as caught:
        written = maintain(edit(root, "src/a.py", "lib/c.py"), env={"MEMHOOKS_ROOT": str(inner)})
    assert [str(w.message) for w in caught] == [
        (
            f"MEMHOOKS_ROOT ignored: `{inner}` does not contain the event cwd `{root}`; "
            f"the project root is `{root}` (git)"
        )
    ]
    assert written == [str(root / "lib/MEMHOOKS.md"), str(inner / "MEMHOOKS.md")]


def test_anchor_setting() -> None:
    assert choice("MEMHOOKS_ANCHOR", {}) == "directory"
    assert choice("MEMHOOKS_ANCHOR", {"MEMHOOKS_ANCHOR": " Nearest "}) == "nearest"
    with pytest.raises(DiagnosticError) as caught:
        choice("MEMHOOKS_ANCHOR", {"MEMHOOKS_ANCHOR": "root"})
    assert caught.value.diagnostic.code == "MH028"


def test_nearest_anchoring_never_creates_hooks(root: Path) -> None:
    (root / "src" / "deep").mkdir()
    (root / "src" / "deep" / "d.py").write_text("", encoding="utf-8")
    (root / "src" / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    env = {"MEMHOOKS_ANCHOR": "nearest"}
    assert maintain(edit(root, "src/deep/d.py", "lib/c.py"), env=env) == [
        str(root / "MEMHOOKS.md"),
        str(root / "src/MEMHOOKS.md"),
    ]
    assert not (root / "src/deep/MEMHOOKS.md").exists() and not (root / "lib/MEMHOOKS.md").exists()
    assert auto_cue_text("src/deep") in (root / "src/MEMHOOKS.md").read_text("utf-8")
    assert auto_cue_text("lib") in (root / "MEMHOOKS.md").read_text("utf-8")


def test_an_invalid_root_hook_is_checked_again_after_it_changes(root: Path) -> None:
    assert maintain(edit(root, "lib/c.py"), env={})
    (root / "MEMHOOKS.md").write_text("---\nschema: memhooks/v1\n---\n", encoding="utf-8")
    with pytest.raises(DiagnosticError) as caught:
        maintain(edit(root, "src/a.py"), env={})
    assert caught.value.diagnostic.code == "MH001"


def test_the_agent_hook_does_not_edit_a_hook_too_big_for_its_deadline(root: Path) -> None:
    """Issue 14 item 4: a round-trip edit of a hook near the 256 KiB limit takes seconds,
    so the agent hook gave up at its deadline on every write in that folder. It now says
    at once which hook it left alone; `memhooks event` (strict) still edits it, and a
    write its cue already covers is no edit at all."""
    from memhooks.maintain.events import MAX_HOOK_EDIT_BYTES

    big = root / "src" / "MEMHOOKS.md"
    queries = "".join(f"  - what about part {n} of the source tree?\n" for n in range(2000))
    big.write_text(f"---\nschema: memhooks/v2\nrecall_queries:\n{queries}---\n", encoding="utf-8")
    size = big.stat().st_size
    assert MAX_HOOK_EDIT_BYTES < size < 256 * 1024
    before = big.read_text(encoding="utf-8")
    with pytest.raises(DiagnosticError) as caught:
        maintain(edit(root, "src/a.py", "lib/c.py"), env={})
    assert [d.code for d in caught.value.diagnostics] == ["MH031"]
    assert caught.value.diagnostic.path == str(big)
    assert f"hook is {size} bytes" in caught.value.diagnostic.message
    assert big.read_text(encoding="utf-8") == before
    assert (root / "lib" / "MEMHOOKS.md").is_file()  # the other folder's cue was written
    assert maintain(edit(root, "src/a.py"), env={}, strict=True) == [str(big)]
    assert maintain(edit(root, "src/a.py"), env={}) == []  # already listed: nothing to edit


def test_a_broken_hook_file_does_not_stop_the_other_hooks_of_the_event(root: Path) -> None:
    broken = root / "lib" / "MEMHOOKS.md"  # sorted before src/: old code stopped there
    text = (Path(__file__).parents[1] / "hook" / "data" / "broken_sub_hook.md").read_text("utf-8")
    broken.write_text(text, encoding="utf-8")
    with pytest.raises(DiagnosticError) as caught:
        maintain(edit(root, "lib/c.py", "src/a.py"), env={})
    assert "src/a.py" in (root / "src/MEMHOOKS.md").read_text("utf-8")
    assert broken.read_text("utf-8") == text
    # reported at the end, as a broken hook file (the agent hook's journal keeps it waiting)
    assert [(d.code, d.path, d.line, d.column) for d in caught.value.diagnostics] == [("MH000", str(broken), 3, 17)]
    assert type(caught.value).__name__ == "InvalidHookError"
