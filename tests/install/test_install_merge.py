"""Installing into configs other tools and people already wrote: ``data/merge/<agent>.before.*``
is placed where the agent reads it, installed into (must equal ``<agent>.after.*``),
installed again (no change), then uninstalled (must equal ``<agent>.uninstalled.*`` when
present, else the original ``before`` text byte for byte).

Regenerate the expected files after a deliberate change with ``REGOLD_MERGE=1``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memhooks.install import INSTALLERS, Context, apply, plan

DATA = Path(__file__).parent / "data" / "merge"
EXE = ["/opt/memhooks/bin/memhooks"]
CASES = sorted(p.name.split(".before.")[0] for p in DATA.glob("*.before.*"))
#: agent -> (level, via)
LEVEL = {"hermes": ("user", "shell")}


def config_path(agent: str, ctx: Context) -> str:
    return INSTALLERS[agent].config_path(ctx)


def expect(path: Path, text: str) -> None:
    if os.environ.get("REGOLD_MERGE") == "1":
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), path.name


@pytest.mark.parametrize("agent", CASES)
def test_merge_preserves_everything_else(agent: str, tmp_path: Path) -> None:
    before_file = next(DATA.glob(f"{agent}.before.*"))
    suffix = before_file.suffix
    level, via = LEVEL.get(agent, ("project", None))
    ctx = Context(str(tmp_path / "proj"), level, home=str(tmp_path / "home"), exe=EXE, env={}, via=via)
    target = Path(config_path(agent, ctx))
    target.parent.mkdir(parents=True, exist_ok=True)
    before = before_file.read_text(encoding="utf-8")
    target.write_text(before, encoding="utf-8")
    target.chmod(0o640)

    apply(plan("install", agent, ctx))
    expect(DATA / f"{agent}.after{suffix}", target.read_text(encoding="utf-8"))
    assert target.stat().st_mode & 0o777 == 0o640
    assert plan("install", agent, ctx) == []

    apply(plan("uninstall", agent, ctx))
    uninstalled = DATA / f"{agent}.uninstalled{suffix}"
    if uninstalled.exists() or os.environ.get("REGOLD_MERGE") == "1" and target.read_text() != before:
        expect(uninstalled, target.read_text(encoding="utf-8"))
    else:
        assert target.read_text(encoding="utf-8") == before
    assert plan("uninstall", agent, ctx) == []
