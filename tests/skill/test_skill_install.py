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
    "gemini-cli": (".gemini/skills", ".gemini/skills"),
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
    assert status(agent, ctx).skill == {"path": str(folder), "state": "installed"}
    assert _run("install", agent, ctx) == []  # idempotent
    _run("uninstall", agent, ctx)
    assert not (base / rel).exists()  # nor the skills folder it created
    left = {p for p, t in _tree(base).items() if t != "/"} - set(before)
    assert left <= {".hermes/config.yaml"}  # Hermes' own config keeps an empty mapping
    assert status(agent, ctx).skill == {"path": str(folder), "state": "missing"}


def test_a_skill_of_the_same_name_that_is_not_ours_is_left_alone(tmp_path: Path) -> None:
    ctx, base = _setup(tmp_path, "project")
    theirs = base / ".claude" / "skills" / "memhooks" / "SKILL.md"
    theirs.parent.mkdir(parents=True)
    theirs.write_text("---\nname: memhooks\ndescription: the user's own\n---\n")
    written = _run("install", "claude-code", ctx)
    assert not [p for p in written if "skills" in p]
    assert theirs.read_text().endswith("the user's own\n---\n")
    found = status("claude-code", ctx)
    assert found.skill == {"path": str(theirs.parent), "state": "foreign"}
    assert any("another skill named memhooks" in todo for todo in found.todo)
    _run("uninstall", "claude-code", ctx)
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
