"""The generic adapter against a real HTTP server on 127.0.0.1 and a real command: the
shared recall scenario end to end, the exact request shapes, option overlay, exclusions,
and every failure reported with the time spent capped."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from backend_scenario import SCENARIO, check, make_project
from generic_support import MemoryServer

from memhooks.backends.base import SearchRequest
from memhooks.backends.generic import GenericBackend
from memhooks.cli import main
from memhooks.errors import BackendError
from memhooks.recall import recall
from memhooks.store import project_id
from memhooks.store.memory import Draft

COMMAND = Path(__file__).parent / "generic_command.py"
AUTH_QUERY = "How are auth tokens rotated and stored?"


@pytest.fixture
def server() -> Any:
    running = MemoryServer()
    running.start()
    yield running
    running.stop()


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_project(tmp_path)


def use_http(monkeypatch: pytest.MonkeyPatch, server: MemoryServer, write: bool = True) -> None:
    monkeypatch.setenv("MEMHOOKS_BACKEND", "generic")
    monkeypatch.setenv("MEMHOOKS_GENERIC_URL", server.url + "/search")
    if write:
        monkeypatch.setenv("MEMHOOKS_GENERIC_WRITE_URL", server.url + "/remember")


def use_command(monkeypatch: pytest.MonkeyPatch, store: Path, *extra: str) -> None:
    argv = json.dumps([sys.executable, str(COMMAND), str(store), *extra])
    monkeypatch.setenv("MEMHOOKS_BACKEND", "generic")
    monkeypatch.setenv("MEMHOOKS_GENERIC_COMMAND", argv)
    monkeypatch.setenv("MEMHOOKS_GENERIC_WRITE_COMMAND", argv)


def remember_scenario(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every scenario memory through ``memhooks remember`` (the active backend)."""
    for memory in SCENARIO["memories"]:
        argv = ["remember", memory["text"], "--cwd", str(root / memory["scope"])]
        argv += ["--kind", memory["kind"]] if memory.get("kind") else []
        for tag in memory.get("tags", []):
            argv += ["--tag", tag]
        for entity in memory.get("entities", []):
            argv += ["--entity", entity]
        for name in memory.get("files", []):
            argv += ["--file", str(root / name)]
        assert main(argv) == 0
        assert "in generic" in capsys.readouterr().out


def test_scenario_over_http(
    root: Path,
    server: MemoryServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    use_http(monkeypatch, server)
    remember_scenario(root, capsys)
    written = server.bodies("/remember")[0]
    assert written == {
        "version": 1,
        "op": "remember",
        "memory": {
            "text": SCENARIO["memories"][0]["text"],
            "project": project_id(str(root)),
            "scope": "src/auth",
            "files": ["src/auth/tokens.py"],
            "kind": "decision",
            "tags": ["security"],
            "entities": ["Gateway"],
            "source": "cli",
            "created_at": None,
        },
    }
    result = recall(str(root / SCENARIO["target"]))
    check(result)
    asked = next(b for b in server.bodies("/search") if b["query"] == AUTH_QUERY)
    assert asked == {
        "version": 1,
        "op": "search",
        "query": AUTH_QUERY,
        "prompt": None,
        "entities": ["Gateway"],
        "tags": ["security"],
        "resources": [],
        "files": [],
        "active_files": [],
        "named_files": {},
        "scopes": ["src/auth", "src", ""],
        "auto": False,
        "priority": 0.9,
        "limit": 16,  # per query 5, x3, + 1 exclusion: room to drop excluded hits
        "project": project_id(str(root)),
        "options": {},
    }


def test_scenario_over_a_command(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "command-store.json"
    use_command(monkeypatch, store)
    remember_scenario(root, capsys)
    assert len(json.loads(store.read_text())) == len(SCENARIO["memories"])
    check(recall(str(root / SCENARIO["target"])))


def test_query_level_options_overlay_scope_level(
    root: Path, server: MemoryServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    (root / "src" / "auth" / "MEMHOOKS.md").write_text(
        "---\nschema: memhooks/v2\nbackends:\n  generic: {index: auth, rank: {mode: bm25, k: 1}}\n"
        '  mem0: {top_k: 99}\nrecall_queries:\n  - query: "How are auth tokens rotated and stored?"\n'
        "    backends:\n      generic: {rank: {k: 7}, fresh: true}\n---\n",
        encoding="utf-8",
    )
    use_http(monkeypatch, server, write=False)
    recall(str(root / "src" / "auth"))
    options = {b["query"]: b["options"] for b in server.bodies("/search")}
    assert options[AUTH_QUERY] == {"index": "auth", "rank": {"mode": "bm25", "k": 7}, "fresh": True}


def test_exclusions_never_leak_even_when_only_the_backend_knows(
    root: Path, server: MemoryServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Memories that share no word with any query (found "semantically" by the backend),
    # excluded by a tag, an entity and the text — returned first by every search.
    server.extra = [
        {
            "id": "x-tag",
            "text": "Session secrets lived in browser storage.",
            "score": 9.0,
            "tags": ["obsolete OAuth prototype"],
        },
        {
            "id": "x-entity",
            "text": "Sign-in kept state client side.",
            "score": 8.0,
            "entities": ["Obsolete  OAuth prototype"],
        },
        {"id": "x-text", "text": "The obsolete oauth PROTOTYPE cached credentials.", "score": 7.0},
        {"id": "kept", "text": "Credentials are kept server side.", "score": 6.0},
    ]
    use_http(monkeypatch, server, write=False)
    result = recall(str(root / "src" / "auth"), prompt="sessions")
    found = [m["id"] for m in result["memories"]]
    assert found == ["kept"]
    assert result["dropped"]["excluded"] == 3
    assert all(q["hits"] == 1 for q in result["queries"])


def test_a_slow_query_times_out_and_the_others_still_return(
    root: Path, server: MemoryServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    server.memories = [
        {
            "id": "m",
            "text": "Auth tokens are rotated daily.",
            "project": project_id(str(root)),
            "scope": "src/auth",
            "files": [],
        }
    ]
    server.slow, server.delay = "migrations", 3.0
    use_http(monkeypatch, server, write=False)
    started = time.monotonic()
    result = recall(str(root / "src" / "auth"), query_timeout_s=0.5)
    assert time.monotonic() - started < 2.0
    status = {q["query"]: (q["status"], q["error"]) for q in result["queries"]}
    assert status[AUTH_QUERY] == ("ok", None)
    slow = status["How do deploys run database migrations?"]
    assert slow[0] == "error" and "did not answer within 0.50 s" in slow[1]
    assert [m["id"] for m in result["memories"]] == ["m"] and result["status"] == "ok"


@pytest.mark.parametrize(
    ("status", "body", "message"),
    [
        (
            401,
            b'{"error": "bad token"}',
            'refused the credentials HTTP 401: {"error": "bad token"}',
        ),
        (503, b"overloaded", "answered HTTP 503: overloaded"),
        (200, b"<html>", "malformed response to search: not JSON"),
        (200, b'{"results": []}', 'malformed response: expected {"memories": [...]}'),
        (200, b'{"memories": [{"id": "a"}]}', "memories[0].text must be a string"),
        (
            200,
            b'{"memories": [{"id": "a", "text": "t", "tags": "x"}]}',
            "memories[0].tags has the wrong type",
        ),
        (
            200,
            b'{"memories": [{"id": true, "text": "t"}]}',
            "memories[0].id must be a string or integer",
        ),
        (
            200,
            b'{"memories": [{"id": 1, "text": "t", "score": true}]}',
            "memories[0].score has the wrong type",
        ),
    ],
)
def test_http_failures_are_backend_errors(
    server: MemoryServer, status: int, body: bytes, message: str
) -> None:
    server.status, server.body = status, body
    backend = GenericBackend.open({"url": server.url + "/search"})
    with pytest.raises(BackendError) as caught:
        backend.search(SearchRequest("q", project="p"))
    assert message in str(caught.value)


def test_unreachable_is_said(tmp_path: Path) -> None:
    gone = MemoryServer()  # bound, then closed: nothing listens on its port
    url = gone.url
    gone.stop()
    backend = GenericBackend.open({"url": url + "/search"})
    with pytest.raises(
        BackendError, match=r"^generic: http://127\.0\.0\.1:\d+/search is unreachable"
    ):
        backend.search(SearchRequest("q", project="p", timeout_s=1.0))


def test_the_token_is_sent_and_never_shown(
    server: MemoryServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    server.token = "s3cr3t-t0ken"
    use_http(monkeypatch, server, write=False)
    monkeypatch.setenv("MEMHOOKS_GENERIC_TOKEN", "s3cr3t-t0ken")
    monkeypatch.setenv("MEMHOOKS_GENERIC_HEADERS", '{"X-Tenant": "t-secret"}')
    assert main(["backends", "check"]) == 0
    assert server.requests[-1][1]["Authorization"] == "Bearer s3cr3t-t0ken"
    assert server.requests[-1][1]["X-Tenant"] == "t-secret"
    for fmt in ("text", "json"):
        assert main(["backends", "list", "--format", fmt]) == 0
        out, err = capsys.readouterr()
        assert "s3cr3t" not in out + err and "t-secret" not in out + err
    assert "token = set  (MEMHOOKS_GENERIC_TOKEN)" in out or '"token": "set"' in out


def test_remember_needs_a_configured_write_path(
    root: Path,
    server: MemoryServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    use_http(monkeypatch, server, write=False)
    assert main(["remember", "something", "--cwd", str(root)]) == 1
    assert (
        "error[MH039]: backend generic does not support writes (as configured)"
        in capsys.readouterr().err
    )
    assert server.requests == []
    assert not hasattr(GenericBackend.open({"url": server.url}), "remember")


def test_command_timeout_kills_the_whole_process_group(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    argv = [
        sys.executable,
        str(COMMAND),
        str(tmp_path / "s.json"),
        "--child",
        str(pidfile),
        "--sleep",
        "30",
    ]
    backend = GenericBackend.open({"command": argv})
    started = time.monotonic()
    with pytest.raises(BackendError, match=r"did not answer within 1\.00 s"):
        backend.search(SearchRequest("q", project="p", timeout_s=1.0))
    assert time.monotonic() - started < 3.0
    child = int(pidfile.read_text())
    time.sleep(0.1)
    assert not _alive(child)


def test_command_failures_name_the_exit_status_and_last_stderr_line(tmp_path: Path) -> None:
    argv = [sys.executable, str(COMMAND), str(tmp_path / "s.json"), "--fail", "index is locked"]
    with pytest.raises(BackendError, match=r"exited with status 3: index is locked$"):
        GenericBackend.open({"command": argv}).search(SearchRequest("q", project="p"))
    with pytest.raises(BackendError, match=r"cannot run '/nonexistent/tool'"):
        GenericBackend.open({"command": "/nonexistent/tool --x"}).search(
            SearchRequest("q", project="p")
        )


def test_check_uses_health_when_configured_else_a_probe(
    server: MemoryServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    use_http(monkeypatch, server, write=False)
    assert main(["backends", "check", "--format", "json"]) == 0
    probe = json.loads(capsys.readouterr().out)
    assert (
        probe["ok"]
        and probe["via"] == "probe"
        and probe["detail"] == "answered a probe search (0 hit(s))"
    )
    monkeypatch.setenv("MEMHOOKS_GENERIC_HEALTH_URL", server.url + "/health")
    assert main(["backends", "check"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"generic: ok via health — HTTP 200 from {server.url}/health\n")
    server.status = 500  # POSTs fail; the probe says so and the exit status is 1
    monkeypatch.delenv("MEMHOOKS_GENERIC_HEALTH_URL")
    assert main(["backends", "check"]) == 1
    assert "FAILED via probe — generic: " in capsys.readouterr().out


def test_write_through_a_command_returns_the_id(tmp_path: Path) -> None:
    argv = [sys.executable, str(COMMAND), str(tmp_path / "s.json")]
    backend = GenericBackend.open({"command": argv, "write_command": argv})
    assert backend.remember(Draft("hello", project="p")) == "g1"
    hits = backend.search(SearchRequest("hello", project="p"))
    assert [(h.id, h.text, h.score) for h in hits] == [("g1", "hello", 1.0)]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0): it is dead for our purpose.
    with open(f"/proc/{pid}/stat", encoding="utf-8") as fp:
        return fp.read().split()[2] != "Z"
