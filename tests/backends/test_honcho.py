"""The Honcho adapter against a stub HTTP server on 127.0.0.1 that implements exactly the
routes the adapter calls and records what it was sent: reads over memhooks' own HTTP
client (the bodies asserted are those the ``honcho-ai`` 2.7.0 SDK sends for the same
calls), ``remember`` through the real SDK (skipped without it: ``pip install -e
'.[test,honcho]'``). Honcho's server is not installable here (spec/backends.md §5.2): the
bodies served are the SDK's response shapes (``data/honcho_responses.json``)."""

from __future__ import annotations

import json
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from backend_scenario import DATA, SCENARIO, check, make_project

from memhooks.backends.base import SearchRequest
from memhooks.backends.honcho import HonchoBackend
from memhooks.errors import BackendError
from memhooks.recall import recall
from memhooks.store.memory import Draft

ROUTES: dict[str, Any] = json.loads((DATA / "honcho_responses.json").read_text(encoding="utf-8"))[
    "routes"
]
PATTERNS = [
    (
        route,
        re.compile("^" + re.sub(r"\\\{\w+\\\}", "[^/]+", re.escape(route.split(" ", 1)[1])) + "$"),
    )
    for route in ROUTES
]


class Stub(ThreadingHTTPServer):
    """Answers the routes in ROUTES; ``seen``: (method, path, query, body); ``status``:
    answer every request with this HTTP status instead."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.seen: list[tuple[str, str, dict[str, list[str]], Any]] = []
        self.status = 200

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class Handler(BaseHTTPRequestHandler):
    server: Stub

    def log_message(self, *args: Any) -> None:
        pass

    def _answer(self) -> None:
        parts = urlsplit(self.path)
        length = int(self.headers.get("content-length") or 0)
        body = json.loads(self.rfile.read(length)) if length else None
        self.server.seen.append((self.command, parts.path, parse_qs(parts.query), body))
        route = next(
            (r for r, p in PATTERNS if r.startswith(self.command + " ") and p.match(parts.path)),
            None,
        )
        status = self.server.status if route else 404
        payload = json.dumps(
            ROUTES[route] if route and status == 200 else {"detail": "stub"}
        ).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_POST = _answer


@pytest.fixture
def stub() -> Any:
    server = Stub()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join(5)


@pytest.fixture
def honcho(stub: Stub) -> Any:
    opened: list[HonchoBackend] = []

    def make(**settings: Any) -> HonchoBackend:
        base = {
            "url": stub.url,
            "api_key": "test-key",
            "workspace": "memhooks-test",
            "peer": "alice",
            "timeout": 5,
        }
        backend = HonchoBackend.open({**base, **settings})
        opened.append(backend)
        return backend

    yield make
    for backend in opened:
        backend.close()


def calls(stub: Stub) -> list[tuple[str, str, Any]]:
    """What reached the stub, without the SDK's workspace get-or-create (``remember``)."""
    return [(m, p, b) for m, p, _, b in stub.seen if p != "/v3/workspaces"]


def test_scenario_over_http_keeps_exclusions_out(stub: Stub, honcho: Any, tmp_path: Path) -> None:
    root = make_project(tmp_path)
    result = recall(str(root / SCENARIO["target"]), backend=honcho())
    check(result)
    searches = [b for m, p, b in calls(stub) if p == "/v3/workspaces/memhooks-test/search"]
    assert searches[0] == {
        "query": "How are auth tokens rotated and stored?\nentities: Gateway\ntags: security",
        "filters": None,
        "limit": searches[0]["limit"],
    }
    assert [s[1] for s in stub.seen if s[1] == "/v3/workspaces"] == []  # reads create nothing
    (seen,) = {s[1] for s in stub.seen}
    assert seen == "/v3/workspaces/memhooks-test/search"


def test_search_sends_the_hooks_filters(stub: Stub, honcho: Any) -> None:
    options = {"filters": {"metadata": {"kind": "decision"}}, "peer": "bob"}
    hits = honcho().search(SearchRequest("q", limit=3, options=options))
    assert calls(stub) == [("POST", "/v3/workspaces/memhooks-test/search",
                            {"query": "q", "filters": {"metadata": {"kind": "decision"}, "peer_id": "bob"}, "limit": 3})]  # fmt: skip
    assert [h.id for h in hits] == ["msg-rotate", "msg-oauth", "msg-migrate"]


def test_conclusions_representation_context_routes(stub: Stub, honcho: Any) -> None:
    backend = honcho()
    backend.search(SearchRequest("q", limit=4, options={"strategy": "conclusions"}))
    backend.search(SearchRequest("q", options={"strategy": "representation", "search_top_k": 5}))
    hits = backend.search(SearchRequest("q", options={"strategy": "context", "tokens": 300}))
    (query, representation) = calls(stub)[:2]
    assert query == ("POST", "/v3/workspaces/memhooks-test/conclusions/query",
                     {"query": "q", "top_k": 4, "filters": {"observer_id": "alice", "observed_id": "alice"}})  # fmt: skip
    assert representation == ("POST", "/v3/workspaces/memhooks-test/peers/alice/representation",
                              {"search_query": "q", "search_top_k": 5})  # fmt: skip
    method, path, params, _ = next(s for s in stub.seen if s[1].endswith("/context"))
    assert (method, path) == ("GET", "/v3/workspaces/memhooks-test/sessions/memhooks/context")
    assert (
        params["tokens"] == ["300"]
        and params["peer_target"] == ["alice"]
        and params["search_query"] == ["q"]
    )
    assert hits[0].text == "alice rotates auth tokens daily through the API gateway"
    # Reads never create peers or sessions.
    assert not [p for _, p, _ in calls(stub) if p.endswith(("/peers", "/sessions"))]


def test_dialectic_only_when_enabled(stub: Stub, honcho: Any) -> None:
    request = SearchRequest("Why daily?", options={"strategy": "reasoning"})
    assert honcho().synthesize(request) is None
    assert honcho(dialectic=True).synthesize(request) == "Tokens rotate daily at the gateway."
    assert calls(stub) == [
        (
            "POST",
            "/v3/workspaces/memhooks-test/peers/alice/chat",
            {"query": "Why daily?", "stream": False},
        )
    ]


def test_remember_posts_the_message(stub: Stub, honcho: Any) -> None:
    pytest.importorskip("honcho")
    draft = Draft("Tokens rotate daily.", project="p", scope="src/auth", tags=["security"])
    assert honcho().remember(draft) == "msg-new"
    paths = [p for _, p, _ in calls(stub)]
    assert paths == ["/v3/workspaces/memhooks-test/peers", "/v3/workspaces/memhooks-test/sessions",
                     "/v3/workspaces/memhooks-test/sessions/memhooks/messages"]  # fmt: skip
    body = calls(stub)[-1][2]
    assert body == {"messages": [{"peer_id": "alice", "content": "Tokens rotate daily.",
                                  "metadata": {"memhooks_project": "p", "memhooks_scope": "src/auth", "tags": ["security"]}}]}  # fmt: skip


def test_auth_errors_and_unreachable_servers_are_backend_errors(stub: Stub, honcho: Any) -> None:
    stub.status = 401
    with pytest.raises(BackendError, match=r"^honcho: search failed: HTTP 401: stub"):
        honcho().search(SearchRequest("q"))
    health = honcho().health()
    assert not health.ok and "HTTP 401" in health.detail
    with pytest.raises(
        BackendError, match=r"honcho: search failed: cannot reach http://127.0.0.1:9"
    ):
        honcho(url="http://127.0.0.1:9").search(SearchRequest("q", timeout_s=2))
    with pytest.raises(BackendError, match="strategy must be one of"):
        honcho().search(SearchRequest("q", options={"strategy": "browse"}))


def test_a_server_that_never_answers_is_cut_at_the_query_timeout() -> None:
    from http_stub import silent_server, timed

    listener, url = silent_server()
    try:
        backend = HonchoBackend.open({"url": url, "workspace": "w"})
        elapsed, error = timed(lambda: backend.search(SearchRequest("q", timeout_s=0.3)))
    finally:
        listener.close()
    assert isinstance(error, BackendError) and "search took longer than 0.30 s" in str(error)
    assert elapsed < 0.8


def test_strategies_that_need_a_peer_say_so(stub: Stub) -> None:
    anonymous = HonchoBackend.open({"url": stub.url})
    assert anonymous.workspace == "default"
    with pytest.raises(BackendError, match="needs a peer"):
        anonymous.search(SearchRequest("q", options={"strategy": "representation"}))
    with pytest.raises(BackendError, match="'peer' is required to remember"):
        anonymous.remember(Draft("x", project="p"))
    with pytest.raises(BackendError, match="cannot name observer_id"):
        HonchoBackend.open({"url": stub.url, "peer": "a"}).search(
            SearchRequest(
                "q", options={"strategy": "conclusions", "filters": {"observer_id": "bob"}}
            )
        )
    assert not stub.seen


def test_settings_are_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(BackendError, match=r"backends.honcho.remember: must be one of"):
        HonchoBackend.open({"url": "http://127.0.0.1:9", "remember": "everything"})
    assert HonchoBackend.open({}).endpoint.shown == "https://api.honcho.dev:443"
    monkeypatch.setitem(sys.modules, "honcho", None)
    backend = HonchoBackend.open(
        {"url": "http://127.0.0.1:9", "peer": "alice"}
    )  # reads need no SDK
    with pytest.raises(BackendError, match=r"pip install 'memhooks\[honcho\]'"):
        backend.remember(Draft("x", project="p"))
