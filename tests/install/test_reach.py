"""``agents status`` says where the hook fires: a user-level install wherever the host
starts; a project-level one only where the host reads project config (Claude Code and
Gemini CLI: the start folder; Codex and Copilot CLI: the git work tree; OpenCode: any
folder above; editors: the workspace folder) — and says plainly when starting the host in
a subfolder gets nothing (issue 12: `agents status` said "installed" while a Claude Code
started in billing/ never ran the hook)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memhooks.install import Context, apply, plan, status


@pytest.fixture
def root(tmp_path: Path) -> Path:
    project = tmp_path / "proj"
    (project / "billing").mkdir(parents=True)
    (project / "billing/MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n")
    (project / "docs").mkdir()
    return project


def install(agent: str, root: Path, level: str) -> Context:
    ctx = Context(str(root), level, exe=[str(root.parent / "bin" / "memhooks")])  # exe fixture
    apply(plan("install", agent, ctx))
    return ctx


def test_user_level_fires_wherever_the_host_starts(root: Path, exe: list[str]) -> None:
    found = status("claude-code", install("claude-code", root, "user"))
    assert found.fires is True and found.notes == []
    assert found.fires_when == (
        "wherever Claude Code starts (the hook does nothing outside a project with a root MEMHOOKS.md)"
    )


def test_a_project_install_for_a_start_folder_host_says_a_subfolder_gets_nothing(
    root: Path, exe: list[str]
) -> None:
    found = status("claude-code", install("claude-code", root, "project"))
    assert found.installed and found.fires is True
    assert found.fires_when == f"only when Claude Code starts in {root}"
    assert found.notes == [
        (
            "Claude Code reads project config only from the folder it starts in: started in a "
            f"subfolder such as {root}/billing/, memhooks' hook does not fire; install at user "
            "level to cover every folder: `memhooks agents install --agent claude-code`"
        )
    ]


def test_with_the_user_level_install_too_the_project_one_needs_no_warning(
    root: Path, exe: list[str]
) -> None:
    install("claude-code", root, "user")
    found = status("claude-code", install("claude-code", root, "project"))
    assert found.notes == []  # Claude Code runs an identical command once


def test_a_host_that_runs_both_levels_is_told_to_drop_one(root: Path, exe: list[str]) -> None:
    (root / ".git").mkdir()
    install("codex", root, "user")
    found = status("codex", install("codex", root, "project"))
    assert found.notes == [
        (
            "also installed at user level: Codex runs both, so every event is handled twice; "
            "remove this one with `memhooks agents uninstall --agent codex --project`"
        )
    ]


def test_git_root_hosts_fire_in_the_whole_work_tree_but_not_outside_git(
    root: Path, exe: list[str]
) -> None:
    ctx = install("copilot-cli", root, "project")
    outside = status("copilot-cli", ctx)
    assert outside.fires_when == f"only when Copilot CLI starts in {root}"
    assert outside.notes[0].startswith(
        f"{root} is not a git work tree, so Copilot CLI reads its config only there"
    )
    (root / ".git").mkdir()
    inside = status("copilot-cli", ctx)
    assert inside.fires_when == f"when Copilot CLI starts anywhere in the git work tree {root}"
    assert inside.notes == []


def test_walk_up_and_workspace_hosts(root: Path, exe: list[str]) -> None:
    assert status("opencode", install("opencode", root, "project")).fires_when == (
        f"when OpenCode starts in {root} or a folder below it"
    )
    cursor = status("cursor", install("cursor", root, "project"))
    assert cursor.fires_when == f"when Cursor opens {root} as its workspace folder"
    assert cursor.notes[0].startswith(
        f"opened on a subfolder such as {root}/billing/, Cursor does not read"
    )


def test_a_host_that_reads_another_hosts_files_is_warned_of_double_handling(
    root: Path, exe: list[str]
) -> None:
    install("copilot-cli", root, "user")
    found = status("copilot-vscode", install("copilot-vscode", root, "user"))
    home = Path(found.files[0]).parent
    assert found.notes == [
        (
            f"VS Code also reads {home}/memhooks.json, which holds memhooks' copilot-cli hooks: an "
            "event may be handled twice (uninstall one of the two if recall arrives twice)"
        )
    ]
