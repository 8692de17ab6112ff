"""The embedded backend: fused lists, reuse of ranked lists while the store is unchanged,
and failures as BackendError."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from memhooks.backends import embedded_cache
from memhooks.backends.base import SearchRequest
from memhooks.backends.embedded import EmbeddedBackend, refresh
from memhooks.errors import BackendError
from memhooks.store import MemoryStore
from memhooks.store.policy import fuse

pytestmark = pytest.mark.usefixtures("fresh_search_cache")

PROJECT = "github.com/acme/shop"
DATA = Path(__file__).parent / "data"


@pytest.fixture
def store_path(tmp_path: Path) -> str:
    path = str(tmp_path / "memories.sqlite3")
    with (
        MemoryStore(path) as store,
        (DATA / "embedded_memories.jsonl").open(encoding="utf-8") as fp,
    ):
        store.import_jsonl(PROJECT, fp)
    return path


def request(text: str, **kwargs: object) -> SearchRequest:
    # A generous timeout: these tests are about results, not speed, on busy machines too.
    return SearchRequest(text, project=PROJECT, timeout_s=60, **kwargs)  # type: ignore[arg-type]


def search_ids(path: str, req: SearchRequest) -> list[str]:
    backend = EmbeddedBackend.open({"path": path})
    try:
        return [hit.id for hit in backend.search(req)]
    finally:
        backend.close()


REQUESTS = [
    request("Why are webhook events processed out of order?", limit=5),
    request("token rotation", prompt="users get logged out in parallel tabs", limit=5),
    request("", prompt="migration locked the orders table", auto=True, files=["backend/db/migrate.py"], scopes=["backend/db", "backend", ""], limit=5),
    request("release rollback", entities=["PostgreSQL"], tags=["release"], scopes=["infra", ""], limit=8),
]  # fmt: skip


def test_hits_carry_the_memory_and_a_fused_score(store_path: str) -> None:
    backend = EmbeddedBackend.open({"path": store_path})
    hits = backend.search(REQUESTS[1])
    backend.close()
    assert hits and len(hits) <= 5
    assert hits[0].id == "s05"
    assert hits[0].scope == "backend/auth" and hits[0].files == ["backend/auth/tokens.py"]
    assert hits[0].kind == "decision" and hits[0].created_at == "2025-04-03T14:05:00Z"
    scores = [hit.score for hit in hits]
    assert scores == sorted(scores, reverse=True)


def test_the_query_list_is_the_store_search_order(store_path: str) -> None:
    # One list alone: fusion keeps its order, so the backend ranks as MemoryStore.search.
    with MemoryStore(store_path) as store:
        exact = [m.id for m, _ in store.search(PROJECT, "schema migration table", limit=10)]
    assert search_ids(store_path, request("schema migration table", limit=10)) == exact


def test_a_generated_folder_cue_searches_files_and_folder_not_its_text(store_path: str) -> None:
    req = request("What prior decisions involve files here?", auto=True, files=["backend/db/migrate.py"], scopes=["backend/db", "backend", ""])  # fmt: skip
    assert search_ids(store_path, req) == ["s04", "s20"]


def test_reused_lists_give_the_same_hits_as_fresh_ones(
    store_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMHOOKS_CACHE", "0")
    fresh = [search_ids(store_path, req) for req in REQUESTS]
    monkeypatch.delenv("MEMHOOKS_CACHE")
    first = [search_ids(store_path, req) for req in REQUESTS]  # fills both layers
    in_process = [search_ids(store_path, req) for req in REQUESTS]
    embedded_cache.clear_memory()
    from_disk = [search_ids(store_path, req) for req in REQUESTS]
    assert fresh == first == in_process == from_disk
    assert all(fresh)


def test_a_fresh_process_reads_hook_lists_from_the_cache_file(
    store_path: str, searches: list[str]
) -> None:
    req = request("token rotation", prompt="parallel tabs", scopes=["backend/auth", "backend", ""])
    expected = search_ids(store_path, req)
    files = list(Path(os.environ["XDG_CACHE_HOME"], "memhooks", "search").iterdir())
    assert len(files) == 1
    blob = json.loads(files[0].read_text(encoding="utf-8"))
    assert blob["store"] == os.path.realpath(store_path)
    assert not any(key.startswith("~") for key in blob["lists"])  # prompts stay in-process
    embedded_cache.clear_memory()
    searches.clear()
    assert search_ids(store_path, req) == expected
    assert searches == ["parallel tabs"]  # only the prompt was searched again


def test_a_changed_store_is_searched_anew(store_path: str) -> None:
    req = request("kubernetes ingress", limit=5)
    assert search_ids(store_path, req) == []
    with MemoryStore(store_path) as store:
        added = store.add(PROJECT, "The kubernetes ingress drops idle websockets after 60 s")
    assert search_ids(store_path, req) == [added.id]
    backend = EmbeddedBackend.open({"path": store_path})  # one backend across a change, too
    assert [hit.id for hit in backend.search(req)] == [added.id]
    backend.store.forget(added.id, project=PROJECT)
    assert backend.search(req) == []
    backend.close()


def test_a_damaged_or_foreign_cache_file_is_ignored(store_path: str) -> None:
    req = request("token rotation", scopes=["backend/auth", "backend", ""])
    expected = search_ids(store_path, req)
    (cache_file,) = Path(os.environ["XDG_CACHE_HOME"], "memhooks", "search").iterdir()
    blob = json.loads(cache_file.read_text(encoding="utf-8"))
    for damage in (
        "{not json",
        json.dumps({**blob, "lists": {key: ["x", None] for key in blob["lists"]}}),
        json.dumps(
            {**blob, "store": "/elsewhere.sqlite3", "lists": {k: [] for k in blob["lists"]}}
        ),
    ):
        cache_file.write_text(damage, encoding="utf-8")
        embedded_cache.clear_memory()
        assert search_ids(store_path, req) == expected


def test_ranking_does_not_depend_on_insertion_order(tmp_path: Path) -> None:
    lines = (DATA / "embedded_memories.jsonl").read_text(encoding="utf-8").splitlines()
    outcomes = []
    for name, order in (("forward", lines), ("backward", lines[::-1])):
        path = str(tmp_path / f"{name}.sqlite3")
        with MemoryStore(path) as store:
            store.import_jsonl(PROJECT, order)
        outcomes.append([search_ids(path, req) for req in REQUESTS])
    assert outcomes[0] == outcomes[1]


def test_store_failures_and_bad_settings_are_backend_errors(
    store_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    backend = EmbeddedBackend.open({"path": store_path})
    backend.store.close()
    with pytest.raises(BackendError, match="embedded store: "):
        backend.search(REQUESTS[0])
    backend.close()  # closing after a failure does not raise
    monkeypatch.setenv("MEMHOOKS_SEARCH", "vectors-please")
    backend = EmbeddedBackend.open({"path": store_path})
    with pytest.raises(BackendError, match="MEMHOOKS_SEARCH='vectors-please' is not a search mode"):
        backend.search(REQUESTS[0])
    backend.close()


def test_fusion_adds_reciprocal_ranks_and_keeps_first_seen_order_on_ties() -> None:
    fused = fuse([("prompt", [1, 2, 3]), ("query", [3, 4]), ("cue", [5])], limit=4)
    assert [pk for pk, _ in fused] == [3, 1, 5, 2]  # 1 and 5 tie at 1/61: 1 came first
    assert fused[0][1] == pytest.approx(1 / 63 + 1 / 61)


HOOK_REQUESTS = [
    request("token rotation", scopes=["backend/auth", "backend", ""], limit=5),
    request("", auto=True, files=["backend/db/migrate.py"], scopes=["backend/db", "backend", ""], limit=5),
]  # fmt: skip


def test_a_writer_recomputes_the_hooks_lists_for_the_next_recall(
    store_path: str, searches: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = [search_ids(store_path, req) for req in HOOK_REQUESTS]  # fills the cache file
    with MemoryStore(store_path) as store:
        added = store.add(PROJECT, "Token rotation logs the old token id", files=["backend/db/migrate.py"])  # fmt: skip
    assert refresh(store_path) == 3  # the first request's query and cue lists, the second's cue
    embedded_cache.clear_memory()  # the next recall is a fresh process
    searches.clear()
    after = [search_ids(store_path, req) for req in HOOK_REQUESTS]
    assert searches == []  # every list was ready
    assert added.id in after[1] and added.id not in before[1]
    monkeypatch.setenv("MEMHOOKS_CACHE", "0")
    assert [search_ids(store_path, req) for req in HOOK_REQUESTS] == after  # = fresh search


def test_refresh_without_a_cache_or_a_store_does_nothing(tmp_path: Path, store_path: str) -> None:
    assert refresh(store_path) == 0  # nothing was ever searched
    missing = tmp_path / "none.sqlite3"
    assert refresh(str(missing)) == 0 and not missing.exists()
    search_ids(store_path, HOOK_REQUESTS[0])
    with MemoryStore(store_path) as store:
        store.add(PROJECT, "one more")
    assert refresh(store_path, budget_s=-1) == 0  # out of time: the next recall does it


def test_a_restored_backup_written_to_is_searched_anew(store_path: str, tmp_path: Path) -> None:
    # Same file id, and the same number of changes since the backup, as the state the
    # cache holds lists for: the contents differ, so the lists must not be reused.
    req = request("gizmoq", limit=5)
    backup = tmp_path / "backup.sqlite3"
    shutil.copyfile(store_path, backup)
    with MemoryStore(store_path) as store:
        zebra = store.add(PROJECT, "zebra gizmoq outage")
    assert search_ids(store_path, req) == [zebra.id]  # cached for this state
    shutil.copyfile(backup, store_path)
    with MemoryStore(store_path) as store:
        store.add(PROJECT, "a yak in the llama shed")  # takes zebra's row id, not its words
    assert search_ids(store_path, req) == []
