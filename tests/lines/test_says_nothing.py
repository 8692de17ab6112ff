"""A commit whose message holds no content word — a version-control tool's bookkeeping,
as iproute2's BitKeeper import "(Logical change 1.3)" that owns thousands of its lines
today, or "Import patch tc-limit-zero.diff" — says nothing of the lines it owns: an edit
never tells it alone, and looks behind it for the commit that says why (issue 20 item 1,
precision lane: the import was told as the owner at a pre-tool Edit of ip/iproute.c)."""

from __future__ import annotations

from pathlib import Path

import pytest
from storyrepo import built_story

from memhooks.recall.line_recall import EDIT, line_recall

PATH = "tc/q_cap.c"


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    return built_story(tmp_path_factory, "import_story.json")


def test_an_edit_of_lines_only_the_import_explains_tells_nothing(
    imported: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    repo, hashes = imported
    # line 18, the usage text, is the import's; what it replaced is an empty file
    told = line_recall(str(repo), PATH, [(15, 19)], kind=EDIT, focus=[(18, 18)],
                       state_dir=str(tmp_path / "state"))  # fmt: skip
    assert hashes["import"] not in told.commits
    assert told.text == ""


def test_behind_a_bookkeeping_change_the_decision_is_told(
    imported: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    repo, hashes = imported
    # line 11, the cap, is "(Logical change 1.9)"'s; it replaced the decision's line
    told = line_recall(str(repo), PATH, [(8, 14)], kind=EDIT, focus=[(11, 11)],
                       state_dir=str(tmp_path / "state"))  # fmt: skip
    assert hashes["decision"] in told.commits
    assert "overruns the driver's ring" in told.text
    # the imported patch owns nothing the edit changes, and says nothing of line 12
    assert hashes["patch"] not in told.commits
