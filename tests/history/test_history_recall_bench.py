"""bench/recall_history.py builds its store with `memhooks history import` and mines its
tasks from the history: checked on the fixture repository (the figures of a real
repository are in the report of a run, not asserted here)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):  # type: ignore[no-untyped-def]
    monkeypatch.syspath_prepend(str(BENCH))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # run() points it at its own
    import recall_history

    return recall_history


def test_replay_recalls_each_cited_commit_after_an_incremental_import(
    bench,
    built: tuple[Path, dict[str, str]],  # type: ignore[no-untyped-def]
) -> None:
    report = bench.run(str(built[0]))
    assert report["mode"] == "replay"
    assert report["funnel"] == {
        "later commits": 77,
        # the follow-up cites the auth change; the Conventional revert cites the perf
        # change in `Refs:`; the revert of a revert and the revert before a re-land are
        # left out, their prompts being the cited subject; a cherry-pick line is no
        # citation
        "cite a commit": 4,
        "cite a memory": 4,
        "dropped: prompt mostly the cited subject": 2,
        "dropped: prompt still names the cited commit": 0,
        "tasks": 2,
        "tasks whose cited commit was imported before them": 2,
    }
    assert report["on"]["recall@10"] == 1.0
    assert set(report) >= {"on", "off", "files", "memories", "obsolete", "seconds"}


def test_a_split_imports_once_and_scores_the_later_commits(
    bench,
    built: tuple[Path, dict[str, str]],  # type: ignore[no-untyped-def]
) -> None:
    report = bench.run(str(built[0]), split_rev=built[1]["vendor"])
    assert (report["mode"], report["split"], report["tasks"]) == ("split", built[1]["vendor"], 2)
    assert (
        report["memories"] == 65
    )  # 67 commits up to the vendored tables: an empty one, a cherry-pick
    assert report["funnel"]["later commits"] == 10  # and a merge, left out
    assert sys.modules["recall_history"].library.__module__ == "recall_quality"
