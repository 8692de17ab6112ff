"""The Honcho adapter without the SDK: a fake of the few ``honcho-ai`` objects the adapter
uses, answering with the response shapes of ``data/honcho_responses.json`` (not recorded
by us: Honcho's server cannot be installed here). ``test_honcho_stub.py`` runs the real
SDK against a stub server serving the same bodies."""

from __future__ import annotations

import asyncio
import datetime
import json
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from backend_scenario import DATA, SCENARIO, check, keys, make_project

from memhooks.backends.base import Draft, SearchRequest
from memhooks.backends.honcho import HonchoBackend
from memhooks.errors import BackendError
from memhooks.recall import recall

ROUTES: dict[str, Any] = json.loads((DATA / "honcho_responses.json").read_text(encoding="utf-8"))[
    "routes"
]


def obj(data: Any) -> Any:
    """A response body as the SDK's attribute objects (timestamps parsed)."""
    if isinstance(data, list):
        return [obj(item) for item in data]
    if isinstance(data, dict) and "id" in data or isinstance(data, dict) and "message_id" in data:
        fields = {k: (datetime.datetime.fromisoformat(v.replace("Z", "+00:00")) if k == "created_at" else
                      obj(v) if k in ("messages", "summary") else v) for k, v in data.items()}  # fmt: skip
        return SimpleNamespace(**fields)
    return data


class Fake:
    """Stands for the client, a peer, a session or a conclusions view: ``.aio.<method>``
    records ``(what, method, args, kwargs)`` and answers from ``ROUTES``."""

    def __init__(
        self, log: list[Any], what: str, *, delay: float = 0.0, error: Exception | None = None
    ) -> None:
        self.log, self.what, self.delay, self.error = log, what, delay, error
        self.id = what.split(":")[-1]
        self.workspace_id = "memhooks-test"

    @property
    def aio(self) -> Any:
        return self

    def __getattr__(self, method: str) -> Any:
        if method.startswith("_"):
            raise AttributeError(method)

        async def call(*args: Any, **kwargs: Any) -> Any:
            self.log.append((self.what, method, args, kwargs))
            if self.delay:
                await asyncio.sleep(self.delay)
            if self.error:
                raise self.error
            return ANSWERS[(self.what.split(":")[0], method)](self, *args)

        return call

    @property
    def conclusions(self) -> Fake:
        return Fake(self.log, f"conclusions:{self.id}")

    def conclusions_of(self, target: str) -> Fake:
        return Fake(self.log, f"conclusions:{self.id}->{target}")

    def message(self, content: str, *, metadata: dict[str, Any]) -> dict[str, Any]:
        return {"peer_id": self.id, "content": content, "metadata": metadata}

    @property
    def _async_http_client(self) -> Fake:
        return Fake(self.log, "http")


ANSWERS: dict[tuple[str, str], Any] = {
    ("client", "search"): lambda f, *a: obj(ROUTES["POST /v3/workspaces/{ws}/search"]),
    ("client", "get_configuration"): lambda f, *a: {},
    ("client", "peer"): lambda f, peer_id: Fake(f.log, f"peer:{peer_id}"),
    ("client", "session"): lambda f, session_id: Fake(f.log, f"session:{session_id}"),
    ("conclusions", "query"): lambda f, *a: obj(
        ROUTES["POST /v3/workspaces/{ws}/conclusions/query"]
    ),
    ("conclusions", "create"): lambda f, *a: obj(ROUTES["POST /v3/workspaces/{ws}/conclusions"]),
    ("session", "context"): lambda f, *a: obj(
        ROUTES["GET /v3/workspaces/{ws}/sessions/{session}/context"]
    ),
    ("session", "add_messages"): lambda f, *a: obj(
        ROUTES["POST /v3/workspaces/{ws}/sessions/{session}/messages"]
    ),
    ("peer", "representation"): lambda f, *a: ROUTES[
        "POST /v3/workspaces/{ws}/peers/{peer}/representation"
    ]["representation"],
    ("peer", "chat"): lambda f, *a: ROUTES["POST /v3/workspaces/{ws}/peers/{peer}/chat"]["content"],
    ("http", "close"): lambda f, *a: None,
}


def fake_sdk(log: list[Any]) -> Any:
    return SimpleNamespace(Peer=lambda i, client: Fake(log, f"peer:{i}"),
                           Session=lambda i, client: Fake(log, f"session:{i}"))  # fmt: skip


OPENED: list[HonchoBackend] = []


@pytest.fixture(autouse=True)
def _close_backends() -> Any:
    yield
    while OPENED:
        OPENED.pop().close()


def backend(log: list[Any], **settings: Any) -> HonchoBackend:
    client = Fake(
        log, "client", delay=settings.pop("delay", 0.0), error=settings.pop("error", None)
    )
    opened = HonchoBackend(fake_sdk(log), client, {"peer": "alice", **settings})
    OPENED.append(opened)
    return opened


def test_scenario_search_keeps_exclusions_out(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    log: list[Any] = []
    result = recall(str(root / SCENARIO["target"]), backend=backend(log))
    check(result)
    assert "oauth" not in keys(result)
    rotate = result["memories"][0]
    assert rotate["id"] == "msg-rotate" and rotate["scope"] == "src/auth"
    assert rotate["tags"] == ["security"] and rotate["entities"] == ["Gateway", "alice"]
    assert rotate["created_at"] == "2026-11-29T10:01:00+00:00"


def test_search_filters_come_from_the_hook() -> None:
    log: list[Any] = []
    options = {"filters": {"metadata": {"kind": "decision"}}, "peer": "bob", "session": "s1"}
    backend(log).search(SearchRequest("q", entities=["Gateway"], limit=500, options=options))
    ((what, method, args, kwargs),) = log
    assert (what, method, args) == ("client", "search", ("q\nentities: Gateway",))
    assert kwargs == {
        "filters": {"metadata": {"kind": "decision"}, "peer_id": "bob", "session_id": "s1"},
        "limit": 100,
    }


def test_conclusions_strategy() -> None:
    log: list[Any] = []
    options = {"strategy": "conclusions", "target": "bob", "search_max_distance": 0.5}
    hits = backend(log).search(SearchRequest("q", limit=5, options=options))
    assert log[0][:2] == ("conclusions:alice->bob", "query")
    assert log[0][3] == {"top_k": 5, "distance": 0.5, "filters": None}
    assert [(h.id, h.kind, h.entities) for h in hits] == [("con-1", "conclusion:explicit", ["alice"]),
                                                           ("con-2", "conclusion:explicit", ["alice"])]  # fmt: skip


def test_context_strategy_returns_representation_summary_and_messages() -> None:
    log: list[Any] = []
    options = {"strategy": "context", "tokens": 500, "session": "s1"}
    hits = backend(log).search(SearchRequest("q", limit=10, options=options))
    ((what, method, _, kwargs),) = log
    assert (what, method) == ("session:s1", "context")
    assert kwargs == {"tokens": 500, "peer_target": "alice", "search_query": "q"}
    assert [h.id for h in hits] == [
        "s1/representation/alice",
        "s1/summary/msg-oauth",
        "msg-oauth",
        "msg-rotate",
    ]


def test_representation_strategy_is_one_hit() -> None:
    log: list[Any] = []
    options = {"strategy": "representation", "max_conclusions": 10, "unknown": 1}
    (hit,) = backend(log).search(SearchRequest("q", options=options))
    assert log[0][:2] == ("peer:alice", "representation")
    assert log[0][3] == {
        "search_query": "q",
        "max_conclusions": 10,
    }  # unknown keys are not guessed at
    assert hit.id == "alice/representation/alice" and "rotates auth tokens" in hit.text


def test_dialectic_only_when_the_user_enabled_it() -> None:
    request = SearchRequest(
        "Why daily?", options={"strategy": "reasoning", "reasoning_level": "low"}
    )
    log: list[Any] = []
    assert backend(log).synthesize(request) is None and not log
    assert backend(log).search(request) == []  # reasoning is never a search
    answer = backend(log, dialectic=True).synthesize(request)
    assert answer == "Tokens rotate daily at the gateway."
    assert log == [("peer:alice", "chat", ("Why daily?",), {"reasoning_level": "low"})]


def test_remember_as_message_or_conclusion() -> None:
    draft = Draft(
        "Tokens rotate daily.", project="p", scope="src/auth", tags=["security"], kind="decision"
    )
    log: list[Any] = []
    assert backend(log).remember(draft) == "msg-new"
    add = next(entry for entry in log if entry[1] == "add_messages")
    (message,) = add[2][0]
    assert message == {"peer_id": "alice", "content": "Tokens rotate daily.",
                       "metadata": {"memhooks_project": "p", "memhooks_scope": "src/auth",
                                    "tags": ["security"], "kind": "decision"}}  # fmt: skip
    log.clear()
    assert backend(log, remember="conclusions").remember(draft) == "con-new"
    assert log[-1][:3] == (
        "conclusions:alice",
        "create",
        ([{"content": "Tokens rotate daily.", "session_id": "memhooks"}],),
    )


def test_strategies_that_need_a_peer_say_so() -> None:
    log: list[Any] = []
    anonymous = HonchoBackend(fake_sdk(log), Fake(log, "client"), {})
    OPENED.append(anonymous)
    with pytest.raises(BackendError, match="needs a peer"):
        anonymous.search(SearchRequest("q", options={"strategy": "representation"}))
    with pytest.raises(BackendError, match="'peer' is required to remember"):
        anonymous.remember(Draft("x", project="p"))


def test_failures_are_backend_errors() -> None:
    class AuthenticationError(Exception):
        status = 401

    with pytest.raises(BackendError, match=r"search failed: AuthenticationError \(HTTP 401\)"):
        backend([], error=AuthenticationError("Authentication failed")).search(SearchRequest("q"))
    with pytest.raises(BackendError, match="took longer than 0.10 s"):
        backend([], delay=3).search(SearchRequest("q", timeout_s=0.1))
    with pytest.raises(BackendError, match="strategy must be one of"):
        backend([]).search(SearchRequest("q", options={"strategy": "browse"}))
    health = backend([], error=AuthenticationError("Authentication failed")).health()
    assert not health.ok and "HTTP 401" in health.detail


def test_settings_are_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(BackendError, match=r"backends.honcho.remember: must be one of"):
        backend([], remember="everything")
    monkeypatch.setitem(sys.modules, "honcho", None)
    with pytest.raises(BackendError, match=r"pip install 'memhooks\[honcho\]'"):
        HonchoBackend.open({"url": "http://127.0.0.1:9", "peer": "alice"})
