"""The embedded backend under the recall runtime, on a copy of examples/shop: reused lists
change nothing that recall returns, and exclusions hold for every query."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from memhooks.backends import embedded_cache
from memhooks.protocol import cache as hook_cache
from memhooks.recall import recall
from memhooks.store import MemoryStore, project_id

SHOP = Path(__file__).resolve().parents[2] / "examples" / "shop"


@pytest.fixture
def shop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str]:
    root = tmp_path / "shop"
    shutil.copytree(SHOP, root)
    past = time.time() - 60
    for hook in root.rglob("MEMHOOKS.md"):
        os.utime(hook, (past, past))
    store = str(tmp_path / "memories.sqlite3")
    with MemoryStore(store) as opened, (root / "memories.jsonl").open(encoding="utf-8") as fp:
        opened.import_jsonl(project_id(str(root)), fp)
        opened.add(
            project_id(str(root)),
            "The legacy PHP storefront cached sessions in files; tokens rotate there too.",
            scope="backend/auth",
            files=["backend/auth/tokens.py"],
            id="legacy",
        )
    monkeypatch.setenv("MEMHOOKS_ROOT", str(root))
    embedded_cache.clear_memory()
    hook_cache.clear_memory()
    return root, store


# Results, not speed, are under test: room for a busy machine.
SLOW_OK = {"query_timeout_s": 60.0, "deadline_s": 300.0}


def comparable(result: dict[str, object]) -> str:
    result = dict(result)
    result["queries"] = [{**q, "ms": 0} for q in result["queries"]]  # type: ignore[attr-defined]
    return json.dumps(result, sort_keys=True)


def test_reused_lists_leave_recall_results_unchanged(
    shop: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, store = shop
    target = str(root / "backend" / "auth")
    prompt = "make login sessions last longer"
    monkeypatch.setenv("MEMHOOKS_CACHE", "0")
    fresh = recall(target, prompt=prompt, store_path=store, **SLOW_OK)
    monkeypatch.delenv("MEMHOOKS_CACHE")
    runs = [recall(target, prompt=prompt, store_path=store, **SLOW_OK) for _ in range(2)]
    embedded_cache.clear_memory()
    runs.append(recall(target, prompt=prompt, store_path=store, **SLOW_OK))
    assert fresh["status"] == "ok" and fresh["memories"]
    assert {comparable(run) for run in runs} == {comparable(fresh)}


def test_an_excluded_memory_never_enters_through_any_query(shop: tuple[Path, str]) -> None:
    root, store = shop
    target = str(root / "backend" / "auth")
    result = recall(target, prompt="token rotation sessions", store_path=store, **SLOW_OK)
    assert "legacy PHP storefront" in result["exclude"]
    with MemoryStore(store) as opened:  # it is what the prompt finds first...
        found = opened.search(project_id(str(root)), "token rotation sessions", limit=1)
        assert [m.id for m, _ in found] == ["legacy"]
    assert "legacy" not in [m["id"] for m in result["memories"]]  # ...and yet never recalled
    assert result["dropped"]["excluded"] >= 1
    assert sum(q["hits"] for q in result["queries"]) > len(
        result["queries"]
    )  # many hits, one verdict
