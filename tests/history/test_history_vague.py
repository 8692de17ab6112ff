"""A vague first prompt brings no commit (lane precision24; docs/recall.md, "The
prompt-time floor"): on iproute2 "what does this tool do?" brought "tipc: add new TIPC
configuration tool" and "tidy up the table" "Make get_rates be table based" — words in
more than 1 % of the store's memories, which tell no commit from the others. A prompt
sharing a rare word, or two words, with a commit, or naming a folder of the project,
keeps its commits. Through the hook as Claude Code runs it at the root, on a real
history of 207 commits (``data/vague.json``: enough for the store to count its words)."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitrepo import build, recorded
from test_history_prompt import prompt

from memhooks.cli import main


@pytest.fixture(scope="module")
def history(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, dict[str, str], str]:
    """The repository (enabled), ``{abbreviated hash: label}`` and its store."""
    tmp_path = tmp_path_factory.mktemp("vague")
    repo = tmp_path / "iproute2"
    hashes = build(repo, recorded("vague.json"))
    (repo / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    store = str(tmp_path / "memories.sqlite3")
    _import(repo.resolve(), store)
    return repo.resolve(), {h[:12]: label for label, h in hashes.items()}, store


def _import(repo: Path, store: str) -> None:
    """``memhooks history import`` (module-wide: the fixture ``imported`` needs capsys)."""
    assert main(["history", "import", str(repo), "--store", store, "--format", "json"]) == 0


def labels(history: tuple[Path, dict[str, str], str], text: str) -> list[str]:
    repo, by_hash, store = history
    return [by_hash.get(m.get("commit", ""), m["id"]) for m in prompt(repo, store, text)]


@pytest.mark.parametrize(
    "text", ["Tidy up the table", "What does this tool do?", "Improve the tool"]
)
def test_a_vague_prompt_brings_no_commit(
    history: tuple[Path, dict[str, str], str], text: str
) -> None:
    # before: the four table commits ("table" is in 4 of 209 memories), the three "tool" ones
    assert labels(history, text) == []


def test_a_prompt_sharing_a_rare_word_with_a_commit_still_brings_it(
    history: tuple[Path, dict[str, str], str],
) -> None:
    # "police" is in one memory: that commit is the one meant, not every table's
    # (before: "Make get_rates be table based" too)
    assert labels(history, "Tidy up the police table") == ["police-table"]


def test_a_commit_sharing_two_common_words_with_the_prompt_still_comes(
    history: tuple[Path, dict[str, str], str],
) -> None:
    # "table" and "output" are each in more than 1 %: one of them alone tells nothing
    assert labels(history, "Clean up the table output") == ["neigh-output"]


def test_a_prompt_naming_a_folder_of_the_project_keeps_its_commits(
    history: tuple[Path, dict[str, str], str],
) -> None:
    # "tc" is a folder at the root: the prompt says where, and its commits come as
    # before the rule (a commit sharing a distinctive word is not judged)
    assert labels(history, "tc: tidy up the table") == ["get-rates", "police-table", "neigh-output"]
