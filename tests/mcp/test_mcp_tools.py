"""The MCP tools as library functions (no SDK needed): a remember → recall → forget round trip."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from memhooks.errors import MemhooksError, UsageError
from memhooks.mcp import tools

TEXT = "The limiter keeps its buckets in Redis because deploys reset process memory."


def test_round_trip(project: Path, store_path: str) -> None:
    stored = tools.remember(
        TEXT,
        str(project / "src"),
        kind="decision",
        tags=["limiter"],
        files=["limit.py"],
        store_path=store_path,
    )
    assert (stored["project"], stored["scope"], stored["redacted"]) == (str(project), "src", 0)
    found = tools.recall(str(project / "src"), prompt="limiter buckets", store_path=store_path)
    assert found["status"] == "ok"
    assert [m["id"] for m in found["memories"]] == [stored["id"]]
    assert found["memories"][0]["files"] == ["src/limit.py"]
    assert TEXT in found["context"]
    assert tools.forget(stored["id"], str(project), store_path=store_path) == {
        "id": stored["id"],
        "project": str(project),
        "forgotten": True,
    }
    assert tools.forget(stored["id"], str(project), store_path=store_path)["forgotten"] is False
    assert (
        tools.recall(str(project), prompt="limiter buckets", store_path=store_path)["memories"]
        == []
    )


def test_remember_scrubs_secrets(project: Path, store_path: str) -> None:
    stored = tools.remember(
        "Staging DB is postgres://app:Fake-Passw0rd@db:5432/app",
        str(project),
        store_path=store_path,
    )
    assert stored["redacted"] == 1
    found = tools.recall(str(project), prompt="staging database", store_path=store_path)
    assert (
        "Fake-Passw0rd" not in found["context"]
        and "[REDACTED:connection-string]" in found["context"]
    )


def test_remember_refuses_files_outside_the_project(project: Path, store_path: str) -> None:
    with pytest.raises(UsageError, match="inside the project root"):
        tools.remember(TEXT, str(project), files=["../elsewhere.py"], store_path=store_path)


def test_explain_returns_the_plan(project: Path) -> None:
    plan = tools.explain(str(project / "src"))
    assert plan["root"] == str(project) and plan["reason"] == "git"
    assert [q["query"] for q in plan["effective_queries"]] == [
        "Why does the limiter keep its buckets in Redis?"
    ]


def test_errors_carry_memhooks_messages(tmp_path: Path) -> None:
    with pytest.raises(MemhooksError, match="MH024"):
        tools.explain(str(tmp_path / "missing"))


def test_note_runs_memhooks_note_with_argv(project: Path) -> None:
    argv = tools.note_argv(
        "Why Redis?", str(project), 0.9, ["reviewer"], ["limiter"], ['{"name":"Redis"}'], ["adr-7"]
    )
    assert argv == [
        sys.executable,
        "-m",
        "memhooks",
        "note",
        "--cwd",
        str(project),
        "--query",
        "Why Redis?",
        "--priority",
        "0.9",
        "--role",
        "reviewer",
        "--tag",
        "limiter",
        "--entity",
        '{"name":"Redis"}',
        "--resource",
        "adr-7",
    ]
