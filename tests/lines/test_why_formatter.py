"""The step back past a formatting commit names the commit that wrote each line's text
(issue 20 item 3; newcomer trial on requests 2a6f290, scaled down in
``data/isort_story.json``): the formatter merged and sorted imports, and moved
``LocationValueError`` from a line of its own, past another import, into the merged one,
and split one line of four names into four lines. Asked about alone or with the block,
a line's previous owner is the same: the commit that imported that name — not the owner
of whatever sat at that place before; the block names first the commit most of its lines
came from (requests ``adapters.py`` 38–54: five lines came from one line of c2aeaa3)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from storyrepo import build, story

PATH = "src/adapters.py"
#: The merged import's lines and the commit that wrote each name.
WROTE = {7: "protocol", 8: "location", 9: "add", 10: "add", 11: "protocol", 12: "protocol",
         13: "protocol"}  # fmt: skip


@pytest.fixture
def formatted(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    repo = tmp_path / "requests"
    return repo, build(repo, story("isort_story.json"))


def why(repo: Path, target: str) -> str:
    done = subprocess.run([sys.executable, "-m", "memhooks", "why", target], cwd=repo,
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_moved_import_line_names_the_commit_that_wrote_it(
    formatted: tuple[Path, dict[str, str]],
) -> None:
    repo, hashes = formatted
    said = why(repo, f"{PATH}:8").splitlines()[2]
    assert said == (
        f'{PATH} 8: {hashes["format"][:12]} "Apply isort and black formatting (#6095)" '
        f'(2022-04-29); before it {hashes["location"][:12]} "wrap url parsing exceptions '
        f"from urllib3's PoolManager\" (2017-07-14)"
    )


def test_each_line_has_the_same_previous_owner_alone_and_in_the_block(
    formatted: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    from memhooks.lines.ownership import owners
    from memhooks.lines.previous import previous_owners
    from memhooks.recall.why import explain_lines

    repo, hashes = formatted
    top = str(repo)
    for n, label in WROTE.items():
        answer = explain_lines(top, PATH, [(n, n)], state_dir=str(tmp_path / f"alone{n}"))
        (mine,) = answer.explanations
        assert [c.hash for c, _ in mine.before] == [hashes[label]], n
    # the block: its lines' previous owners together, and nothing else (the first
    # commit's imports sat where the sort put LocationValueError: it gains no line),
    # first the commit four of its lines came from (from one line of its own)
    own = owners(top, PATH, [(6, 14)], state_dir=str(tmp_path / "block"))
    owner = own.owner(hashes["format"])
    assert owner is not None
    found = [(b.hash, b.matched) for b in previous_owners(top, owner, own)]
    assert {h for h, _ in found} == {hashes[label] for label in WROTE.values()}
    assert found[0][0] == hashes["protocol"] and found[0][1] > found[1][1] >= 2
    block = why(repo, f"{PATH}:6-14").splitlines()[2]
    assert block.startswith(f"{PATH} 6–14: {hashes['format'][:12]}")
    assert f"before it {hashes['protocol'][:12]} " in block
