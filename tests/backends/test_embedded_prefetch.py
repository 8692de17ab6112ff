"""The prompt hook's prefetch (memhooks.backends.embedded.prefetch_prompt): the prompt's
ranking, started early on a thread, is exactly the one recall would compute, reaches
the next open of the same store, and never leaves a store open or created."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memhooks.backends import embedded
from memhooks.backends.base import SearchRequest
from memhooks.backends.embedded import EmbeddedBackend, drop_prefetches, prefetch_prompt
from memhooks.errors import MissingStoreError
from memhooks.store import MemoryStore, project_id

pytestmark = pytest.mark.usefixtures("fresh_search_cache", "idle_machine")


@pytest.fixture
def idle_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """A core to spare, whatever the machine running the tests is doing."""
    monkeypatch.setattr(embedded, "_running", lambda: 1)
    monkeypatch.setattr(embedded.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)


DATA = Path(__file__).parent / "data"
PROMPT = "users get logged out in parallel tabs after the token change"


@pytest.fixture
def project(tmp_path: Path) -> tuple[str, str]:
    """(store file, project root) with the shop memories stored under the root's id."""
    root = tmp_path / "shop"
    root.mkdir()
    path = str(tmp_path / "memories.sqlite3")
    with (
        MemoryStore(path) as store,
        (DATA / "embedded_memories.jsonl").open(encoding="utf-8") as fp,
    ):
        store.import_jsonl(project_id(str(root)), fp)
    return path, str(root)


def hits(backend: EmbeddedBackend, root: str) -> list[tuple[str, float]]:
    request = SearchRequest(
        "token rotation", prompt=PROMPT, project=project_id(root), timeout_s=60, limit=5
    )
    return [(hit.id, hit.score) for hit in backend.search(request)]


def test_the_prefetched_backend_ranks_exactly_as_a_fresh_one(project: tuple[str, str]) -> None:
    path, root = project
    fresh = EmbeddedBackend.open(path)
    expected = hits(fresh, root)
    fresh.close()
    embedded_cache_clear()
    prefetch_prompt(path, root, PROMPT, timeout_s=60)
    backend = EmbeddedBackend.open(path)  # waits for the thread and takes its backend over
    try:
        assert not embedded._PREFETCHES
        # The prompt's list is there before any search: the search does not rank it again.
        assert any(key.startswith("~prompt") for key in backend._lists().objects)
        assert hits(backend, root) == expected and expected
    finally:
        backend.close()


def test_another_store_or_a_missing_one_is_not_handed_the_prefetch(
    project: tuple[str, str], tmp_path: Path
) -> None:
    path, root = project
    missing = str(tmp_path / "none.sqlite3")
    prefetch_prompt(missing, root, PROMPT, timeout_s=60)
    assert not embedded._PREFETCHES and not os.path.exists(missing)  # nothing created
    with pytest.raises(MissingStoreError):
        EmbeddedBackend.open(missing, create=False)
    prefetch_prompt(path, root, PROMPT, timeout_s=60)
    other = EmbeddedBackend.open(str(tmp_path / "other.sqlite3"))
    other.close()
    assert list(embedded._PREFETCHES) == [os.path.realpath(path)]  # still waiting for its own
    drop_prefetches()
    assert not embedded._PREFETCHES


def test_an_acknowledgement_or_blank_prompt_starts_nothing(project: tuple[str, str]) -> None:
    path, root = project
    prefetch_prompt(path, root, "   ", timeout_s=60)
    assert not embedded._PREFETCHES


def test_caching_off_starts_nothing(
    project: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The list reaches recall through the process layer of the list cache, which
    # MEMHOOKS_CACHE=0 turns off: a prefetch would only be wasted work.
    path, root = project
    monkeypatch.setenv("MEMHOOKS_CACHE", "0")
    prefetch_prompt(path, root, PROMPT, timeout_s=60)
    assert not embedded._PREFETCHES


def embedded_cache_clear() -> None:
    from memhooks.backends import embedded_cache

    embedded_cache.clear_memory()


def test_with_every_core_busy_nothing_is_started(
    project: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The thread would only compete with the hook's own for the cores.
    path, root = project
    monkeypatch.setattr(embedded, "_running", lambda: 2)  # this process and one more, 2 cores
    prefetch_prompt(path, root, PROMPT, timeout_s=60)
    assert not embedded._PREFETCHES
    monkeypatch.setattr(embedded, "_running", lambda: None)  # no /proc: the load average
    monkeypatch.setattr(embedded.os, "getloadavg", lambda: (1.5, 1.0, 1.0))
    prefetch_prompt(path, root, PROMPT, timeout_s=60)
    assert not embedded._PREFETCHES
    monkeypatch.setattr(embedded, "_running", lambda: 1)
    monkeypatch.setattr(embedded.os, "sched_getaffinity", lambda pid: {0}, raising=False)
    prefetch_prompt(path, root, PROMPT, timeout_s=60)  # one core: nothing to overlap on
    assert not embedded._PREFETCHES


def test_the_running_count_is_read_from_the_kernel() -> None:
    running = embedded._running()
    if os.path.exists("/proc/loadavg"):
        assert isinstance(running, int) and running >= 1  # this test, at least
    else:
        assert running is None
