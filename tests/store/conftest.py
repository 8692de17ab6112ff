"""Fixtures for the embedded store tests: a store file in a temp dir and a clock we control."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from store_fakes import FakeClock

from memhooks.store import MemoryStore


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store_path(tmp_path: Path) -> str:
    return str(tmp_path / "store" / "memories.sqlite3")


@pytest.fixture
def store(store_path: str, clock: FakeClock) -> Iterator[MemoryStore]:
    with MemoryStore(store_path, clock=clock) as opened:
        yield opened
