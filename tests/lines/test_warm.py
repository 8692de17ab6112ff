"""Blame ahead of the edit: one bounded background process per file, single-flight,
that leaves the whole file's owners in the cache and ends by itself."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from memhooks.lines import cache, owners, warm

PATH = "retryx/retry.py"


def wait_for(lock: str, seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while os.path.exists(lock) and time.monotonic() < end:
        time.sleep(0.05)
    assert not os.path.exists(lock), "the background blame did not end"


def test_the_background_blame_leaves_the_whole_file_ready(
    repo: Path, state: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert warm.spawn(str(repo), PATH, state)
    wait_for(cache.path_of(state, str(repo), PATH) + ".warm")
    monkeypatch.setenv("PATH", "")  # the edit finds every line known: no git
    answer = owners(str(repo), PATH, state_dir=state)
    assert answer.cached and answer.complete and answer.owners


def test_one_process_per_file_at_a_time(repo: Path, state: str) -> None:
    lock = cache.path_of(state, str(repo), PATH) + ".warm"
    os.makedirs(os.path.dirname(lock))
    open(lock, "w").close()  # another hook's process is at it
    assert not warm.spawn(str(repo), PATH, state)
    old = time.time() - warm.LIMIT_S - 1
    os.utime(lock, (old, old))  # its process was killed before it could clean up
    assert warm.spawn(str(repo), PATH, state)
    wait_for(lock)


def test_the_process_ends_at_its_limit_with_what_it_settled(repo: Path, state: str) -> None:
    assert warm.main([str(repo), PATH, state, "0"]) == 0  # no time at all: nothing blamed
    assert not os.path.exists(cache.path_of(state, str(repo), PATH) + ".warm")
    assert owners(str(repo), PATH, state_dir=state).complete  # the next call blames it
