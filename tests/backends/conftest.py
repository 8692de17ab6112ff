"""Fixtures shared by the backend tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from memhooks.backends import embedded_cache


@pytest.fixture
def fresh_search_cache() -> Iterator[None]:
    """Start and end with the embedded backend's in-process list cache empty, as a fresh
    hook process would (the cache file layer lives in each test's XDG_CACHE_HOME)."""
    embedded_cache.clear_memory()
    yield
    embedded_cache.clear_memory()


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every store search from now on, in order: a BM25 search as its text, a folder-cue
    search as ``"cue"``. Clear it to count from a later point."""
    from memhooks.store import ranking

    found: list[str] = []
    real_ranked, real_cue = ranking.ranked, ranking.cue

    def ranked(*args: Any, **kwargs: Any) -> list[tuple[int, float]]:
        found.append(str(args[2]))
        return real_ranked(*args, **kwargs)

    def cue(*args: Any, **kwargs: Any) -> list[int]:
        found.append("cue")
        return real_cue(*args, **kwargs)

    monkeypatch.setattr(ranking, "ranked", ranked)
    monkeypatch.setattr(ranking, "cue", cue)
    return found
