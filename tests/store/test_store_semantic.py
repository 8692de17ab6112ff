"""Optional semantic search. Tests that need numpy skip without it; tests that need the
model skip unless the ``semantic`` extra is installed (and then really load it)."""

from __future__ import annotations

import binascii
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from memhooks.backends import embedded_cache
from memhooks.backends.base import SearchRequest
from memhooks.backends.embedded import EmbeddedBackend
from memhooks.errors import StoreError
from memhooks.store import MemoryStore, semantic

PROJECT = "github.com/acme/app"
# Words the fake encoder treats as one meaning, as a real model would.
SYNONYMS = {"login": "auth", "signin": "auth", "authentication": "auth", "session": "auth",
            "postgres": "db", "database": "db", "sql": "db"}  # fmt: skip
TEXTS = {
    "auth": "Authentication tokens rotate every hour",
    "db": "Postgres stays on version 15 until the replica bug is fixed",
    "css": "Buttons use the brand colour from the design tokens",
}


def fake_encode(texts: Sequence[str]) -> list[bytes]:
    """Bag of meanings, hashed into 384 dimensions, L2-normalized (numpy only)."""
    np = pytest.importorskip("numpy")
    out = []
    for text in texts:
        vector = np.zeros(semantic.DIMENSIONS, dtype="<f4")
        for word in text.lower().split():
            meaning = SYNONYMS.get(word, word)
            vector[binascii.crc32(meaning.encode()) % semantic.DIMENSIONS] += 1.0
        norm = float(np.linalg.norm(vector)) or 1.0
        out.append((vector / norm).astype("<f4").tobytes())
    return out


@pytest.fixture
def fake_model(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    pytest.importorskip("numpy")
    monkeypatch.setattr(semantic, "encode", fake_encode)
    monkeypatch.setattr(semantic, "load", lambda: None)
    monkeypatch.setenv("MEMHOOKS_SEARCH", "hybrid")
    embedded_cache.clear_memory()
    yield
    embedded_cache.clear_memory()


@pytest.fixture
def filled(store: MemoryStore) -> MemoryStore:
    for memory_id, text in TEXTS.items():
        store.add(PROJECT, text, id=memory_id)
    store.add("elsewhere", "Login sessions of another project")
    return store


def vector_count(store: MemoryStore) -> int:
    count: int = store._conn.execute("SELECT count(*) FROM memory_vectors").fetchone()[0]
    return count


@pytest.mark.parametrize("value", ["", "bm25", " Hybrid "])
def test_modes(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("MEMHOOKS_SEARCH", value)
    assert semantic.mode() == (value.strip().lower() or "bm25")
    monkeypatch.setenv("MEMHOOKS_SEARCH", "dense")
    with pytest.raises(StoreError, match="use one of bm25, hybrid"):
        semantic.mode()


def test_backfill_embeds_what_has_no_vector_once(filled: MemoryStore, fake_model: None) -> None:
    assert semantic.backfill(filled, PROJECT, batch=2) == 3
    assert semantic.backfill(filled, PROJECT) == 0
    assert semantic.backfill(filled) == 1  # the other project
    filled.import_jsonl(PROJECT, ['{"id": "css", "text": "Buttons are blue now"}'])
    assert semantic.backfill(filled) == 1  # an edited text is embedded again


def test_the_index_ranks_by_cosine_and_breaks_ties_by_pk(
    filled: MemoryStore, fake_model: None
) -> None:
    semantic.backfill(filled)
    index = semantic.Index(filled._conn, PROJECT)
    assert len(index) == 3
    (query,) = fake_encode(["signin problems"])
    ranked = index.nearest(query, 3)
    pks = dict(filled._conn.execute("SELECT pk, id FROM memories").fetchall())
    assert pks[ranked[0][0]] == "auth"
    assert ranked[0][1] > 0 and ranked[1][1] == ranked[2][1] == 0.0
    assert ranked[1][0] < ranked[2][0]
    assert [pk for pk, _ in index.nearest(query, 1)] == [ranked[0][0]]
    assert index.nearest(query, 0) == []


def test_hybrid_search_finds_by_meaning_what_bm25_misses(
    filled: MemoryStore, fake_model: None
) -> None:
    req = SearchRequest("login problems", project=PROJECT, limit=5, timeout_s=60)
    assert filled.search(PROJECT, "login problems") == []
    backend = EmbeddedBackend(filled)
    hits = backend.search(req)  # catches up on the missing vectors first
    assert hits[0].id == "auth"
    assert vector_count(filled) == 3  # this project's memories only
    backend.close()


def test_catch_up_is_bounded_and_gives_way_to_a_writer(
    store_path: str, store: MemoryStore, fake_model: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(semantic, "CATCH_UP", 2)
    monkeypatch.setattr(semantic, "CATCH_UP_TIMEOUT", 0.05)
    for i in range(3):
        store.add(PROJECT, f"memory {i}")
    other = sqlite3.connect(store_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    assert semantic.catch_up(store._conn, store.path, PROJECT) == 0
    other.execute("ROLLBACK")
    other.close()
    assert semantic.catch_up(store._conn, store.path, PROJECT) == 2
    assert semantic.catch_up(store._conn, store.path, PROJECT) == 1


needs_model = pytest.mark.skipif(
    not semantic.available(), reason="the semantic extra is not installed"
)


@needs_model
def test_the_real_model_embeds_offline_and_ranks_by_meaning(tmp_path: Path) -> None:
    vectors = semantic.encode(["The user cannot sign in", "Login fails", "Bake bread at 220 C"])
    np = pytest.importorskip("numpy")
    matrix = np.frombuffer(b"".join(vectors), dtype="<f4").reshape(3, semantic.DIMENSIONS)
    assert np.allclose(np.linalg.norm(matrix, axis=1), 1.0, atol=1e-4)
    similarity = matrix @ matrix.T
    assert similarity[0, 1] > similarity[0, 2] + 0.2


@needs_model
def test_the_real_model_in_a_hybrid_recall_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMHOOKS_SEARCH", "hybrid")
    embedded_cache.clear_memory()
    with MemoryStore(tmp_path / "m.sqlite3") as store:
        for memory_id, text in TEXTS.items():
            store.add(PROJECT, text, id=memory_id)
        assert semantic.backfill(store) == 3
        backend = EmbeddedBackend(store)
        question = "which database version are we pinned to"
        hits = backend.search(SearchRequest(question, project=PROJECT, timeout_s=120))
        assert hits[0].id == "db"
        backend.close()


def test_vectors_load_once_per_state_of_the_store(
    filled: MemoryStore, fake_model: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    loads: list[str] = []
    real = semantic.Index

    def counting(conn: sqlite3.Connection, project: str) -> semantic.Index:
        loads.append(project)
        return real(conn, project)

    monkeypatch.setattr(semantic, "Index", counting)
    for text in ("login problems", "database pinning", "login problems"):
        backend = EmbeddedBackend(filled)
        backend.search(SearchRequest(text, project=PROJECT, timeout_s=60))
        backend.close()
    assert loads == [PROJECT]
    filled.add(PROJECT, "a new memory about sessions")
    backend = EmbeddedBackend(filled)
    assert backend.search(SearchRequest("signin", project=PROJECT, timeout_s=60))
    backend.close()
    assert loads == [PROJECT, PROJECT]
