"""The OpenViking adapter against a real ``openviking-server`` (local storage, MiniLM
embeddings through ``servers/embed_shim.py``, no VLM). Opt-in:
``tests/backends/servers/start.sh test`` starts everything and sets
``MEMHOOKS_TEST_OPENVIKING_URL``; without it these tests skip."""

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
URL = os.environ.get("MEMHOOKS_TEST_OPENVIKING_URL", "")
pytestmark = pytest.mark.skipif(
    not URL, reason="real server: run tests/backends/servers/start.sh test"
)
if URL:
    pytest.importorskip("openviking_sdk")

from memhooks.backends.openviking import OpenVikingBackend


@pytest.fixture
def memory_uri() -> str:
    return f"viking://resources/memhooks-test-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def opened(memory_uri: str) -> Any:
    backends: list[OpenVikingBackend] = []

    def make(**settings: Any) -> OpenVikingBackend:
        backend = OpenVikingBackend.open(
            {"url": URL, "memory_uri": memory_uri, "timeout": 20, **settings}
        )
        backends.append(backend)
        return backend

    yield make
    for backend in backends:
        backend.close()


def memhooks(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "memhooks", *args], env=env, capture_output=True,
                          text=True, timeout=120, check=True)  # fmt: skip


def test_cli_remember_then_recall_with_a_hook_chain(tmp_path: Path, memory_uri: str) -> None:
    root = make_project(tmp_path)
    env = {**os.environ, "MEMHOOKS_BACKEND": "openviking", "MEMHOOKS_OPENVIKING_URL": URL,
           "MEMHOOKS_OPENVIKING_MEMORY_URI": memory_uri}  # fmt: skip
    for memory in SCENARIO["memories"]:
        out = memhooks(*cli_remember_args(memory, root), env=env)
        assert f"Remembered {memory_uri}/" in out.stdout
    out = memhooks("recall", str(root / SCENARIO["target"]), "--format", "json", env=env)
    result = json.loads(out.stdout)
    assert result["backend"] == "openviking"
    check(result)
    rotate = result["memories"][0]
    assert rotate["id"].startswith(memory_uri + "/") and rotate["scope"] == "src/auth"
    assert rotate["kind"] == "decision" and "tag=security" in rotate["tags"]
    assert rotate["recalled_by"][0]["source"].endswith("src/auth/MEMHOOKS.md")


def test_strategies_and_tags_on_a_real_server(tmp_path: Path, opened: Any, memory_uri: str) -> None:
    backend = opened()
    root = make_project(tmp_path)
    for draft in drafts(project_id(str(root))):
        backend.remember(draft)
    tagged = backend.search(
        SearchRequest("what happens at deploy", limit=10, options={"tags": ["tag=deploy"]})
    )
    assert [hit.text for hit in tagged] == [
        "Deploys run database migrations with alembic before the new pods start."
    ]
    context = backend.search(
        SearchRequest("auth tokens", limit=10, options={"strategy": "context", "max_tokens": 400})
    )
    assert context and all(hit.id.startswith(memory_uri + "/") for hit in context)
    assert any("rotated every 24 hours" in hit.text for hit in context)
    searched = backend.search(SearchRequest("auth tokens", limit=2, options={"strategy": "search"}))
    assert len(searched) == 2 and searched[0].score >= searched[1].score
    # A hook cannot widen the search beyond the user's roots.
    with pytest.raises(BackendError, match="outside the roots"):
        backend.search(SearchRequest("q", options={"root_uri": "viking://resources"}))


def test_failures_on_a_real_server(opened: Any) -> None:
    assert opened().health().ok
    with pytest.raises(BackendError, match="took longer than"):
        opened().search(SearchRequest("anything", timeout_s=0.001))
    with pytest.raises(BackendError, match="find failed: HTTP 400: .*score_threshold"):
        opened().search(SearchRequest("q", options={"score_threshold": "high"}))
    # The server forgets target_uri when a filter's op is unknown: the adapter still
    # keeps hits inside the user's roots.
    assert (
        opened(root_uri="viking://resources/nothing-here").search(
            SearchRequest("auth", options={"filter": {"op": "nonsense"}})
        )
        == []
    )
    unreachable = OpenVikingBackend.open({"url": "http://127.0.0.1:9", "timeout": 2})
    try:
        with pytest.raises(BackendError, match="find failed"):
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
