"""`memhooks agents install` places the Agent Skill with the hooks, merge-only and
reversibly, and `status` reports it (HOME is the sandbox of tests/conftest.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memhooks.install import INSTALLERS, Context, apply, plan, status
from memhooks.install import skill as placement

#: agent -> (project folder, user folder relative to HOME), as documented in docs/agents.md
WHERE = {
    "claude-code": (".claude/skills", ".claude/skills"),
    "codex": (".agents/skills", ".agents/skills"),
    "gemini-cli": (".agents/skills", ".agents/skills"),
    "copilot-cli": (".github/skills", ".copilot/skills"),
    "copilot-vscode": (".github/skills", ".copilot/skills"),
    "cursor": (".cursor/skills", ".cursor/skills"),
    "windsurf": (".windsurf/skills", ".codeium/windsurf/skills"),
    "kiro": (".kiro/skills", ".kiro/skills"),
    "opencode": (".opencode/skills", ".config/opencode/skills"),
    "cline": (".cline/skills", ".cline/skills"),
    "hermes": (None, ".hermes/skills"),
}
CASES = [(agent, level) for agent in INSTALLERS for level in INSTALLERS[agent].LEVELS]


def _tree(base: Path) -> dict[str, str]:
    return {
        p.relative_to(base).as_posix(): p.read_text(encoding="utf-8") if p.is_file() else "/"
        for p in sorted(base.rglob("*"))
    }


def _setup(tmp_path: Path, level: str) -> tuple[Context, Path]:
    root = tmp_path / "project"
    root.mkdir()
    (root / ".git").mkdir()
    home = Path(os.environ["HOME"])
    ctx = Context(str(root), level, exe=["/usr/bin/memhooks"])
    return ctx, root if level == "project" else home


def _run(action: str, agent: str, ctx: Context) -> list[str]:
    edits = plan(action, agent, ctx)
    apply(edits)
    return [e.path for e in edits]


def test_every_host_is_mapped() -> None:
    assert set(WHERE) == set(INSTALLERS)


@pytest.mark.parametrize(("agent", "level"), CASES)
def test_install_places_the_skill_and_uninstall_takes_it_back(
    agent: str, level: str, tmp_path: Path
) -> None:
    ctx, base = _setup(tmp_path, level)
    before = _tree(base)
    _run("install", agent, ctx)
    rel = WHERE[agent][0 if level == "project" else 1]
    folder = base / rel / "memhooks"
    assert placement.folder(INSTALLERS[agent], ctx) == str(folder)
    shipped = placement.files()
    assert {p: t for p, t in _tree(folder).items() if t != "/"} == shipped
    assert status(agent, ctx).skill == {"path": str(folder), "state": "installed", "shared_with": []}
    assert _run("install", agent, ctx) == []  # idempotent
    _run("uninstall", agent, ctx)
    assert not (base / rel).exists()  # nor the skills folder it created
    left = {p for p, t in _tree(base).items() if t != "/"} - set(before)
    assert left <= {".hermes/config.yaml"}  # Hermes' own config keeps an empty mapping
    assert status(agent, ctx).skill == {"path": str(folder), "state": "missing", "shared_with": []}


@pytest.mark.parametrize(
    ("agent", "level", "where"),
    [
        ("claude-code", "project", ".claude/skills"),
        # Gemini CLI reads .gemini/skills too: ours in .agents/skills would override it
        ("gemini-cli", "user", ".gemini/skills"),
    ],
)
def test_a_skill_of_the_same_name_that_is_not_ours_is_left_alone(
    agent: str, level: str, where: str, tmp_path: Path
) -> None:
    ctx, base = _setup(tmp_path, level)
    theirs = base / where / "memhooks" / "SKILL.md"
    theirs.parent.mkdir(parents=True)
    theirs.write_text("---\nname: memhooks\ndescription: the user's own\n---\n")
    written = _run("install", agent, ctx)
    assert not [p for p in written if "skills" in p]
    assert theirs.read_text().endswith("the user's own\n---\n")
    found = status(agent, ctx)
    assert found.skill == {"path": str(theirs.parent), "state": "foreign", "shared_with": []}
    assert any("another skill named memhooks" in todo for todo in found.todo)
    _run("uninstall", agent, ctx)
    assert theirs.exists() and len(list(theirs.parent.rglob("*"))) == 1


def test_an_older_skill_of_ours_is_reported_and_updated(tmp_path: Path) -> None:
    ctx, base = _setup(tmp_path, "project")
    _run("install", "codex", ctx)
    ours = base / ".agents" / "skills" / "memhooks" / "SKILL.md"
    ours.write_text(ours.read_text() + "\nAn older version said something else.\n")
    assert status("codex", ctx).skill["state"] == "outdated"  # type: ignore[index]
    assert _run("install", "codex", ctx) == [str(ours)]
    assert status("codex", ctx).skill["state"] == "installed"  # type: ignore[index]


def test_files_the_user_added_survive_uninstall(tmp_path: Path) -> None:
    ctx, base = _setup(tmp_path, "project")
    _run("install", "opencode", ctx)
    mine = base / ".opencode" / "skills" / "memhooks" / "references" / "our-team.md"
    mine.write_text("team notes\n")
    _run("uninstall", "opencode", ctx)
    assert mine.read_text() == "team notes\n"
    assert not (mine.parent.parent / "SKILL.md").exists()


def test_dry_run_lists_the_skill_as_one_change(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from memhooks.cli import main

    _, base = _setup(tmp_path, "project")
    assert (
        main(["agents", "install", "--agent", "claude-code", "--project", "--cwd", str(base), "--dry-run"])
            == 0
    )
    out = capsys.readouterr().out.splitlines()
    folder = base / ".claude" / "skills" / "memhooks"
    assert (
        f"claude-code: would create {folder}{os.sep} (the memhooks skill: {len(placement.files())} files)"
        in out
    )
    assert not (base / ".claude").exists()


def test_status_prints_the_skill(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from memhooks.cli import main

    _, base = _setup(tmp_path, "user")
    assert (
        main(
            ["agents", "install", "--agent", "hermes", "--user", "--cwd", str(tmp_path / "project")]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["agents", "status", "--agent", "hermes", "--user"]) == 0
    out = capsys.readouterr().out
    assert f"hermes:   skill: {base / '.hermes' / 'skills' / 'memhooks'} (installed)" in out


@pytest.mark.parametrize("level", ["user", "project"])
def test_codex_and_gemini_share_one_copy_that_stays_while_either_is_installed(
    level: str, tmp_path: Path
) -> None:
    """Gemini CLI reads .agents/skills as well as .gemini/skills and warns on every run
    when both hold the skill: the two hosts get one copy in .agents/skills."""
    ctx, base = _setup(tmp_path, level)
    _run("install", "codex", ctx)
    _run("install", "gemini-cli", ctx)
    shared = base / ".agents" / "skills" / "memhooks"
    assert {p for p, t in _tree(shared).items() if t != "/"} == set(placement.files())
    assert not (base / ".gemini" / "skills").exists()
    assert status("gemini-cli", ctx).skill == {
        "path": str(shared), "state": "installed", "shared_with": ["codex"]
    }
    _run("uninstall", "codex", ctx)
    assert (shared / "SKILL.md").is_file()  # Gemini CLI still uses it
    assert status("codex", ctx).skill == {
        "path": str(shared), "state": "installed", "shared_with": ["gemini-cli"]
    }
    _run("uninstall", "gemini-cli", ctx)
    assert not (base / ".agents").exists()


def test_copilot_cli_keeps_the_skill_when_copilot_vscode_is_uninstalled(tmp_path: Path) -> None:
    ctx, base = _setup(tmp_path, "project")
    _run("install", "copilot-cli", ctx)
    _run("install", "copilot-vscode", ctx)
    _run("uninstall", "copilot-vscode", ctx)
    assert (base / ".github" / "skills" / "memhooks" / "SKILL.md").is_file()
    _run("uninstall", "copilot-cli", ctx)
    assert not (base / ".github" / "skills").exists()


def test_the_copy_an_older_memhooks_put_in_gemini_skills_is_reported_and_moved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from memhooks.cli import main

    ctx, base = _setup(tmp_path, "user")
    _run("install", "gemini-cli", ctx)
    old = base / ".gemini" / "skills" / "memhooks"
    (base / ".agents").rename(tmp_path / "moved")  # the layout before the skill moved
    old.parent.parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / "moved" / "skills").rename(old.parent)
    found = status("gemini-cli", ctx)
    assert found.skill == {"path": str(old), "state": "outdated", "shared_with": []}
    assert any("where an older memhooks put it" in todo for todo in found.todo)
    _run("install", "codex", ctx)  # Codex's copy: Gemini CLI now sees two
    found = status("gemini-cli", ctx)
    assert found.skill["state"] == "outdated"  # type: ignore[index]
    assert any(f"{old} holds a second copy" in todo for todo in found.todo)
    assert main(["agents", "install", "--agent", "gemini-cli", "--cwd", str(ctx.root)]) == 0
    out = capsys.readouterr().out
    assert f"gemini-cli: delete {old}{os.sep} (the memhooks skill: {len(placement.files())} files)" in out
    assert not old.parent.exists()
    assert status("gemini-cli", ctx).skill["state"] == "installed"  # type: ignore[index]
