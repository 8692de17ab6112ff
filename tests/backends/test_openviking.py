"""The OpenViking adapter over HTTP against a loopback stub: request mapping, response
parsing, failures, and the scenario replayed from answers recorded on a real
``openviking`` 0.5.2 server (``data/openviking_http.json``)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from backend_scenario import SCENARIO, check, keys, make_project
from http_stub import HANG, Stub, recorded, timed

from memhooks.backends.base import SearchRequest
from memhooks.backends.openviking import OpenVikingBackend, context_hits, find_hits, sdk_options_for
from memhooks.errors import BackendError
from memhooks.recall import recall
from memhooks.store.memory import Draft

ROOT = "viking://resources/memhooks"
FIND, SEARCH = "/api/v1/search/find", "/api/v1/search/search"
EMPTY = {"/search/find": {"status": "ok", "result": {"memories": [], "resources": [], "skills": [], "total": 0}},
         "/search/search": {"status": "ok", "result": {"memories": [], "resources": [], "skills": [], "entries": []}},
         "/health": {"status": "ok", "healthy": True, "version": "0.5.2", "auth_mode": "dev"}}  # fmt: skip


@pytest.fixture
def stub() -> Iterator[Stub]:
    server = Stub(recorded("openviking"), EMPTY)
    yield server
    server.close()


def backend(stub: Stub, **settings: Any) -> OpenVikingBackend:
    return OpenVikingBackend.open({"url": stub.url, **settings})


def bodies(stub: Stub, path: str = FIND) -> list[dict[str, Any]]:
    return stub.bodies(path)


def test_scenario_replayed_from_a_real_server_keeps_exclusions_out(
    stub: Stub, tmp_path: Path
) -> None:
    root = make_project(tmp_path)
    result = recall(str(root / SCENARIO["target"]), backend=backend(stub))
    check(result)
    returned = [
        i["content"] for e in recorded("openviking") for i in e["response"]["result"]["resources"]
    ]
    assert any("obsolete OAuth prototype" in text for text in returned)
    assert "oauth" not in keys(result)
    rotate = result["memories"][0]
    assert rotate["scope"] == "src/auth" and rotate["kind"] == "decision"
    assert "tag=security" in rotate["tags"] and rotate["entities"] == ["gateway"]
    assert rotate["id"].startswith(ROOT + "/")
    assert bodies(stub) == [
        e["request"] for e in recorded("openviking")
    ]  # what the real server got


def test_find_is_scoped_to_the_users_root_and_reads_content(stub: Stub) -> None:
    request = SearchRequest("How do tokens rotate?", entities=["Gateway"], tags=["security"],
                            files=["src/a.py"], limit=4)  # fmt: skip
    backend(stub, api_key="ov-key", user="alice").search(request)
    (seen,) = stub.seen
    assert seen.body == {"query": "How do tokens rotate?\nentities: Gateway\ntags: security\nfiles: src/a.py",
                         "target_uri": [ROOT], "limit": 4, "read_content": True}  # fmt: skip
    assert seen.headers["x-api-key"] == "ov-key" and seen.headers["x-openviking-user"] == "alice"


def test_hooks_narrow_the_roots_but_cannot_leave_them(stub: Stub) -> None:
    ov = backend(stub, root_uri=["viking://resources/team", "viking://user/default/memories"])
    ov.search(SearchRequest("q", files=["viking://resources/team/auth", "src/x.py"]))
    ov.search(SearchRequest("q", resources=["viking://resources/team/adr", "auth-postmortem"]))
    ov.search(SearchRequest("q", options={"root_uri": "viking://user/default/memories/auth"}))
    assert [b["target_uri"] for b in bodies(stub)] == [
        ["viking://resources/team/auth"],
        ["viking://resources/team/adr"],
        ["viking://user/default/memories/auth"],
    ]
    assert bodies(stub)[1]["query"] == "q\nresources: auth-postmortem"
    for outside in ("viking://resources/other", "viking://resources/team/../other", "/etc"):
        with pytest.raises(BackendError, match="outside the roots|viking:// URI|must not contain"):
            ov.search(SearchRequest("q", options={"target_uri": outside}))


def test_native_options_pass_and_unknown_keys_join_the_body(stub: Stub) -> None:
    options = {"level": 2, "score_threshold": 0.3, "tags": ["kind=decision"], "root_uri": ROOT,
               "strategy": "find", "brand_new_server_field": True}  # fmt: skip
    assert sdk_options_for(options, ("level", "score_threshold", "tags")) == {
        "level": 2,
        "score_threshold": 0.3,
        "tags": ["kind=decision"],
        "extra": {"brand_new_server_field": True},
    }
    backend(stub).search(SearchRequest("q", options=options))
    (sent,) = bodies(stub)
    assert sent["brand_new_server_field"] is True and sent["level"] == 2 and "extra" not in sent
    with pytest.raises(BackendError, match="'security' is not key=value"):
        sdk_options_for({"tags": ["security"]}, ("tags",))
    with pytest.raises(BackendError, match="options.extra cannot replace 'limit'"):
        backend(stub).search(SearchRequest("q", options={"extra": {"limit": 999}}))


def test_context_strategy_uses_a_prefix_filter_and_full_detail(stub: Stub) -> None:
    answer = {"status": "ok", "result": {"entries": [
        {"uri": f"{ROOT}/a.md", "category": "resources", "score": 0.8, "text": "A."},
        {"uri": f"{ROOT}/b.md", "category": "resources", "score": 0.7, "text": ""}]}}  # fmt: skip
    stub.exchanges = [{"method": "POST", "path": SEARCH, "response": answer}]
    hits = backend(stub).search(
        SearchRequest("q", options={"strategy": "context", "max_tokens": 300})
    )
    (call,) = bodies(stub, SEARCH)
    assert call == {"query": "q", "mode": "context", "target_uri": "", "limit": 10, "detail": "full",
                    "max_tokens": 300, "filter": {"op": "prefix", "field": "uri", "prefix": ROOT}}  # fmt: skip
    assert [(h.id, h.text) for h in hits] == [(f"{ROOT}/a.md", "A.")]  # an empty entry is no memory


def test_search_strategy_and_user_default(stub: Stub) -> None:
    backend(stub, strategy="search").search(SearchRequest("q", options={"search_type": "keywords"}))
    (call,) = bodies(stub, SEARCH)
    assert call["read_content"] is True and call["search_type"] == "keywords" and "mode" not in call
    with pytest.raises(BackendError, match="strategy must be one of"):
        backend(stub).search(SearchRequest("q", options={"strategy": "browse"}))


def test_parsing_keeps_only_items_with_text() -> None:
    result = {"memories": [{"uri": "viking://user/m.md", "score": 0.5, "abstract": "Abstract.", "context_type": "memory"}],
              "resources": [{"uri": "viking://resources/r.md", "score": 0.9, "content": "Content.",
                             "tags": ["scope=.", "entity=Gateway", "tag=x"]},
                            {"uri": "viking://resources/empty.md", "score": 1.0, "abstract": ""}],
              "skills": []}  # fmt: skip
    hits = find_hits(result)
    assert [(h.id, h.text, h.scope, h.entities) for h in hits] == [
        ("viking://resources/r.md", "Content.", "", ["Gateway"]),
        ("viking://user/m.md", "Abstract.", None, []),
    ]
    with pytest.raises(BackendError, match="malformed find response"):
        find_hits({"resources": "nope"})
    with pytest.raises(BackendError, match="malformed search_context response"):
        context_hits({"rendered": "<memory/>"})


class Writer:
    """Stands for the SDK's ``AsyncHTTPClient`` in ``remember``."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    async def initialize(self) -> None:
        self.calls.append(("initialize", (), {}))

    async def write(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append(("write", args, kwargs))
        return {"uri": args[0]}

    async def close(self) -> None:
        self.calls.append(("close", (), {}))


def test_remember_writes_one_file_with_key_value_tags(stub: Stub) -> None:
    ov = backend(stub)
    ov.writer = writer = Writer()
    draft = Draft("Tokens rotate daily.", project="p", scope="src/auth", kind="decision",
                  tags=["security", "team=core"], entities=["Gateway"])  # fmt: skip
    uri = ov.remember(draft)
    ov.close()
    (_, (written, text), kwargs) = writer.calls[1]
    assert [c[0] for c in writer.calls] == ["initialize", "write", "close"]
    assert written == uri and uri.startswith(ROOT + "/") and uri.endswith(".md")
    assert text == "Tokens rotate daily." and kwargs["mode"] == "create" and kwargs["wait"] is True
    assert kwargs["options"] == {"processing_mode": "vectors_only",
                                 "tags": ["scope=src/auth", "kind=decision", "tag=security", "team=core",
                                          "entity=Gateway"]}  # fmt: skip
    assert not stub.seen  # writes go through the SDK, not the recall client


def test_failures_are_backend_errors(stub: Stub) -> None:
    stub.exchanges = [{"method": "POST", "path": FIND, "status": 400,
                       "response": {"status": "error", "error": {"code": "INVALID_ARGUMENT", "message": "Invalid URI"}}}]  # fmt: skip
    with pytest.raises(BackendError, match="find failed: HTTP 400: Invalid URI"):
        backend(stub).search(SearchRequest("q"))
    stub.exchanges = [{"method": "POST", "path": FIND,
                       "response": {"status": "error", "error": {"code": "NOT_FOUND", "message": "no such root"}}}]  # fmt: skip
    with pytest.raises(BackendError, match="find failed: NOT_FOUND: no such root"):
        backend(stub).search(SearchRequest("q"))
    stub.exchanges = [{"method": "POST", "path": FIND, "response": "not an object"}]
    with pytest.raises(BackendError, match="malformed find response"):
        backend(stub).search(SearchRequest("q"))
    stub.faults[FIND] = HANG
    elapsed, error = timed(lambda: backend(stub).search(SearchRequest("q", timeout_s=0.3)))
    assert isinstance(error, BackendError) and "took longer than 0.30 s" in str(error)
    assert elapsed < 0.8


def test_health(stub: Stub) -> None:
    ok = backend(stub).health()
    assert ok.ok and ok.detail == f"OpenViking 0.5.2 answers; roots {ROOT}"
    stub.empty["/health"] = {"status": "degraded"}
    assert not backend(stub).health().ok
    assert "cannot reach" in OpenVikingBackend.open({"url": "http://127.0.0.1:9"}).health().detail


def test_settings_are_checked(stub: Stub) -> None:
    with pytest.raises(BackendError, match=r"backends.openviking.url: is required"):
        OpenVikingBackend.open({})
    with pytest.raises(BackendError, match=r"backends.openviking.root_uri"):
        backend(stub, root_uri="resources/x")


def test_missing_sdk_names_the_extra_when_remembering(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openviking_sdk", None)
    ov = OpenVikingBackend.open({"url": "http://127.0.0.1:9"})  # recall needs no SDK
    with pytest.raises(BackendError, match=r"pip install 'memhooks\[openviking\]'"):
        ov.remember(Draft("x", project="p"))


def test_hits_outside_the_roots_are_dropped_whatever_the_server_did(stub: Stub) -> None:
    inside = {"uri": f"{ROOT}/a.md", "score": 0.5, "content": "Inside."}
    outside = {"uri": "viking://agent/.abstract.md", "score": 0.9, "content": "Outside."}
    stub.exchanges = [
        {
            "method": "POST",
            "path": FIND,
            "response": {"status": "ok", "result": {"resources": [outside, inside]}},
        }
    ]
    hits = backend(stub).search(SearchRequest("q", options={"filter": {"op": "nonsense"}}))
    assert [h.id for h in hits] == [f"{ROOT}/a.md"]
