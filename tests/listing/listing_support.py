"""Shared by the listing-cache tests (test_listing.py, test_listing_walk.py)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from memhooks import filestate
from memhooks.listing import cache as listing
from memhooks.protocol import cache

GOOD = "---\nschema: memhooks/v2\n---\n"
OLD = "---\nschema: memhooks/v1\n---\n"  # MH001: shows which hooks were listed
TICK = 0.05  # seconds: longer than any file system timestamp granularity here


@pytest.fixture(autouse=True)
def _short_racy_window(monkeypatch: pytest.MonkeyPatch) -> None:
    # Folders made by a test are seconds old at most: with the real 2 s window nothing
    # would be cached. A 20 ms window keeps the rule (a folder changed within it of the
    # walk is not trusted) while the tests wait one TICK after each change.
    monkeypatch.setattr(filestate, "RACY_NS", 20_000_000)
    cache.clear_memory()
    yield
    cache.clear_memory()


def listed_after_each(root: Path, steps: list[Callable[[], object]], fresh: Callable[[Path], list[str]]) -> list[str]:
    """Run ``steps`` one by one (nothing first); after each, the cached listing of ``root``,
    computed and then read back from its cache file, must equal ``fresh(root)``. Returns
    the last listing."""
    hooks: list[str] = []
    for step in [lambda: None, *steps]:
        step()
        time.sleep(TICK)
        cache.clear_memory()
        hooks = listing.find_hooks(str(root), use_git=True)
        again = listing.find_hooks(str(root), use_git=True)  # from the cache file
        assert hooks == again == fresh(root)
    return hooks
