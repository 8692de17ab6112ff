"""Every ``memhooks`` command shown in docs/*.md and in the Agent Skill works.

Each page runs in a fresh fixture project: a copy of ``examples/shop`` made its own git
work tree, with the shop's memories imported into the (sandboxed) default store. The
page's example blocks run in order as ``bash -e`` scripts from the project root, so a
page can build on its earlier examples; ``norun`` blocks are parsed, not run. The
convention is in ``doc_examples.py`` and docs/index.md.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from doc_examples import Block, argv, blocks, script

ROOT = Path(__file__).resolve().parents[2]
SHOP = ROOT / "examples" / "shop"
SKILL = ROOT / "src" / "memhooks" / "skill"
PAGES = sorted(ROOT.glob("docs/*.md")) + sorted(SKILL.rglob("*.md"))
HOW = (
    "see 'Writing examples' in docs/index.md: mark blocks that cannot run here "
    "```sh norun (they are still parsed), and put synopses in ```text blocks"
)


def _page_blocks() -> dict[str, list[Block]]:
    found = {}
    for page in PAGES:
        name = page.relative_to(ROOT).as_posix()
        found[name] = blocks(name, page.read_text(encoding="utf-8"))
    return {name: found_blocks for name, found_blocks in found.items() if found_blocks}


BLOCKS = _page_blocks()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    project = tmp_path / "shop"
    shutil.copytree(SHOP, project)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    _bash("memhooks memories import memories.jsonl >/dev/null\n", project)
    return project


def _bash(text: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    return subprocess.run(
        ["bash", "-c", text],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.skipif(shutil.which("bash") is None, reason="examples run with bash")
@pytest.mark.parametrize("page", list(BLOCKS))
def test_examples_run(page: str, project: Path) -> None:
    for block in BLOCKS[page]:
        if not block.run:
            continue
        done = _bash(script(block), project)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (
            f"{block.where()}: example block failed (exit {done.returncode})\n"
            + "\n".join(block.body)
            + f"\n--- stdout\n{done.stdout[-2000:]}\n--- stderr\n{done.stderr[-2000:]}\n({HOW})"
        )


@pytest.mark.parametrize("page", list(BLOCKS))
def test_examples_parse(page: str) -> None:
    from memhooks.parser import build_parser

    parser = build_parser()
    for block in BLOCKS[page]:
        for command in block.examples():
            try:
                parser.parse_args(argv(command))
            except SystemExit as exc:  # --help and --version exit 0
                if exc.code == 0:
                    continue
                pytest.fail(f"{block.where()}: `{command}` does not parse ({HOW})")


def test_the_skill_and_the_quickstart_have_runnable_examples() -> None:
    for page in ("src/memhooks/skill/SKILL.md", "docs/quickstart.md"):
        assert any(block.run for block in BLOCKS.get(page, [])), page


def test_few_examples_are_exempt() -> None:
    exempt = [block.where() for page in BLOCKS.values() for block in page if not block.run]
    ran = [block.where() for page in BLOCKS.values() for block in page if block.run]
    assert len(exempt) <= len(ran) // 2, f"most examples should run; norun: {exempt}"
