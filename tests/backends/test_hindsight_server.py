"""The Hindsight adapter against a real ``hindsight-api`` server (PostgreSQL 15 + pgvector,
no LLM, local MiniLM embeddings). Opt-in: ``tests/backends/servers/start.sh test`` starts
everything and sets ``MEMHOOKS_TEST_HINDSIGHT_URL``; without it these tests skip."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from backend_scenario import SCENARIO, check, cli_remember_args, drafts, make_project

from memhooks.backends.base import SearchRequest
from memhooks.errors import BackendError
from memhooks.recall import recall
from memhooks.store import project_id

# Read at import: the test sandbox (tests/conftest.py) clears MEMHOOKS_* before each test.
URL = os.environ.get("MEMHOOKS_TEST_HINDSIGHT_URL", "")
pytestmark = pytest.mark.skipif(
    not URL, reason="real server: run tests/backends/servers/start.sh test"
)

from memhooks.backends.hindsight import HindsightBackend


@pytest.fixture
def bank() -> str:
    return f"memhooks-test-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def opened(bank: str) -> Any:
    backends: list[HindsightBackend] = []

    def make(**settings: Any) -> HindsightBackend:
        backend = HindsightBackend.open({"url": URL, "bank": bank, "timeout": 20, **settings})
        backends.append(backend)
        return backend

    yield make
    for backend in backends:
        backend.close()


def memhooks(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "memhooks", *args], env=env, capture_output=True,
                          text=True, timeout=120, check=True)  # fmt: skip


def test_cli_remember_then_recall_with_a_hook_chain(tmp_path: Path, bank: str) -> None:
    root = make_project(tmp_path)
    env = {**os.environ, "MEMHOOKS_BACKEND": "hindsight", "MEMHOOKS_HINDSIGHT_URL": URL,
           "MEMHOOKS_HINDSIGHT_BANK": bank}  # fmt: skip
    for memory in SCENARIO["memories"]:
        out = memhooks(*cli_remember_args(memory, root), env=env)
        assert f"in hindsight (scope {memory['scope'] or '.'})" in out.stdout
    out = memhooks("recall", str(root / SCENARIO["target"]), "--format", "json", env=env)
    result = json.loads(out.stdout)
    assert result["backend"] == "hindsight"
    check(result)
    rotate = result["memories"][0]
    assert rotate["id"].startswith(f"{bank}/") and rotate["scope"] == "src/auth"
    assert rotate["files"] == ["src/auth/tokens.py"] and rotate["entities"] == ["Gateway"]
    assert rotate["kind"] == "decision" and rotate["recalled_by"][0]["source"].endswith(
        "src/auth/MEMHOOKS.md"
    )
    context = memhooks(
        "recall", str(root / SCENARIO["target"]), "--format", "context", env=env
    ).stdout
    assert "rotated every 24 hours" in context and "OAuth prototype" not in context


def test_native_filters_on_a_real_bank(tmp_path: Path, opened: Any) -> None:
    backend = opened(required_tags=["security"])
    root = make_project(tmp_path)
    for draft in drafts(project_id(str(root))):
        backend.remember(draft)  # required tags are added: every memory is visible
    plain = opened()
    security = backend.search(
        SearchRequest("deploy migrations", limit=10, options={"tags": ["deploy"]})
    )
    assert all("security" in hit.tags and "deploy" in hit.tags for hit in security)
    world = plain.search(
        SearchRequest("auth tokens", limit=10, options={"memory_types": ["world"]})
    )
    assert world and all(hit.kind in ("decision", "note") for hit in world)
    # LLM-free Hindsight stores everything as world facts (spec/backends.md §8).
    assert (
        plain.search(SearchRequest("auth tokens", options={"memory_types": ["experience"]})) == []
    )


def test_failures_on_a_real_server(opened: Any) -> None:
    assert opened().health().ok
    # A bank nothing was retained into does not exist yet: the server says so.
    with pytest.raises(BackendError, match=r"HTTP 404: Bank 'memhooks-test-\w+' not found"):
        opened().search(SearchRequest("anything"))
    # On loopback a whole recall can take less than a millisecond: a microsecond cannot.
    with pytest.raises(BackendError, match="took longer than"):
        opened().search(SearchRequest("anything", timeout_s=0.000001))
    # Reflect needs an LLM; with none the server answers 400 and we say so.
    with pytest.raises(BackendError, match="HTTP 400"):
        opened(reflect=True).synthesize(SearchRequest("why?", options={"strategy": "reflect"}))
    unreachable = HindsightBackend.open({"url": "http://127.0.0.1:9", "bank": "b", "timeout": 2})
    try:
        with pytest.raises(BackendError, match="recall from bank 'b' failed"):
            unreachable.search(SearchRequest("q"))
        assert not unreachable.health().ok
    finally:
        unreachable.close()


def test_recall_api_with_the_backend_object(tmp_path: Path, opened: Any) -> None:
    backend = opened()
    root = make_project(tmp_path)
    for draft in drafts(project_id(str(root))):
        backend.remember(draft)
    check(recall(str(root / SCENARIO["target"]), backend=backend))
