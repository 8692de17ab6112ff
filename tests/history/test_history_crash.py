"""``history import`` is crash-safe as a whole, and two at once count honestly (issue 22
items 3 and 7): real ``memhooks`` processes on a 1,300-commit history (three write
batches), killed at each batch, then run again."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from gitrepo import build
from synthetic import history

from memhooks.history.batch import BATCH, KILL_AFTER

COMMITS = 1_300
TOTALS = ("added", "updated", "present", "duplicates", "empty")
# The opt-in stress test's settings, read before the suite's sandbox clears MEMHOOKS_*.
STRESS_KILLS = int(os.environ.get("MEMHOOKS_STRESS_KILLS") or 0)
STRESS_REPO = os.environ.get("MEMHOOKS_STRESS_REPO") or ""
STRESS_SEED = int(os.environ.get("MEMHOOKS_STRESS_SEED") or 22)


@pytest.fixture(scope="module")
def long_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = tmp_path_factory.mktemp("crash") / "repo"
    build(repo, history(COMMITS))
    (repo / "MEMHOOKS.md").write_text("---\nschema: memhooks/v2\n---\n", encoding="utf-8")
    return repo.resolve()


def start(repo: Path, store: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "memhooks", "history", "import", str(repo), "--store", store,
         "--format", "json"],
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip


def finish(proc: subprocess.Popen[str]) -> dict[str, Any]:
    out, err = proc.communicate(timeout=120)
    assert (proc.returncode, err) == (0, ""), err
    report: dict[str, Any] = json.loads(out)
    return report


def contents(store: str) -> list[tuple[Any, ...]]:
    """Every memory and every commit row, as comparable tuples."""
    with sqlite3.connect(store) as conn:
        memories = conn.execute(
            "SELECT id, scope, files, text, kind, tags, entities, created_at, source, obsolete,"
            " superseded_by FROM memories ORDER BY id"
        ).fetchall()
        commits = conn.execute(
            "SELECT m.id, c.hash, c.author, c.authored_at, c.low_signal, c.format"
            " FROM commits c JOIN memories m ON m.pk = c.memory ORDER BY c.hash"
        ).fetchall()
    return [*memories, *commits]


@pytest.fixture(scope="module")
def reference(
    long_repo: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, dict[str, Any]]:
    store = str(tmp_path_factory.mktemp("reference") / "whole.sqlite3")
    return store, finish(start(long_repo, store))


def test_the_history_spans_several_batches_and_reverts(
    reference: tuple[str, dict[str, Any]],
) -> None:
    report = reference[1]
    assert report["commits"] > 2 * BATCH
    assert report["obsoleted"] >= 14  # 13 reverts by hash that do not say "Revert", and more


@pytest.mark.parametrize("batches", [1, 2, 3])
def test_a_rerun_after_a_kill_ends_as_an_uninterrupted_import(
    long_repo: Path, tmp_path: Path, reference: tuple[str, dict[str, Any]], batches: int
) -> None:
    store = str(tmp_path / "killed.sqlite3")
    killed = start(long_repo, store, **{KILL_AFTER: str(batches)})
    killed.communicate(timeout=120)
    assert killed.returncode == 9  # it died where asked: after that batch, before the rest
    assert contents(store) != contents(reference[0])
    again = finish(start(long_repo, store))
    assert contents(store) == contents(reference[0])
    assert again["commits"] == sum(again[k] for k in TOTALS)


def test_two_imports_at_once_report_totals_that_add_up(
    long_repo: Path, tmp_path: Path, reference: tuple[str, dict[str, Any]]
) -> None:
    store = str(tmp_path / "shared.sqlite3")
    first, second = start(long_repo, store), start(long_repo, store)
    reports = [finish(first), finish(second)]
    whole = reference[1]
    for report in reports:
        assert report["commits"] == sum(report[k] for k in TOTALS) == whole["commits"]
        assert report["merges"] == whole["merges"]
    for key in ("added", "obsoleted"):
        assert reports[0][key] + reports[1][key] == whole[key]
    assert contents(store) == contents(reference[0])


@pytest.mark.skipif(
    not STRESS_KILLS,
    reason="opt-in: MEMHOOKS_STRESS_KILLS=N kills N imports at random moments "
    "(MEMHOOKS_STRESS_REPO=a clone to import instead, MEMHOOKS_STRESS_SEED)",
)
def test_random_kills_never_change_the_result(
    long_repo: Path, tmp_path: Path, reference: tuple[str, dict[str, Any]]
) -> None:
    """kill -9 at a random moment of an import, then import again: the store must equal
    the uninterrupted import's. Prints kills tried and mismatches."""
    kills = STRESS_KILLS
    repo = Path(STRESS_REPO or long_repo)
    want_store = reference[0]
    if repo != long_repo:
        want_store = str(tmp_path / "whole.sqlite3")
        finish(start(repo, want_store))
    want = contents(want_store)
    started = time.monotonic()
    finish(start(repo, str(tmp_path / "timed.sqlite3")))
    span = time.monotonic() - started
    rng = random.Random(STRESS_SEED)
    mismatches = landed = 0
    for trial in range(kills):
        store = str(tmp_path / f"kill{trial}.sqlite3")
        proc = start(repo, store)
        time.sleep(rng.uniform(0.05, 0.9 * span))
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
        landed += proc.returncode == -signal.SIGKILL
        finish(start(repo, store))
        mismatches += contents(store) != want
    print(f"\nrandom kills: {kills} tried, {landed} landed mid-import, {mismatches} mismatches")
    assert mismatches == 0
