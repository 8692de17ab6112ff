"""The OpenViking adapter without the SDK: request mapping, response parsing, failures,
and the scenario replayed from responses recorded on a real server
(``data/openviking_responses.json``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from backend_scenario import SCENARIO, Replay, check, keys, make_project, recorded

from memhooks.backends.base import Draft, SearchRequest
from memhooks.backends.openviking import OpenVikingBackend, context_hits, find_hits, sdk_options_for
from memhooks.errors import BackendError
from memhooks.recall import recall

EMPTY = {"memories": [], "resources": [], "skills": [], "total": 0}
ROOT = "viking://resources/memhooks"
OPENED: list[OpenVikingBackend] = []


@pytest.fixture(autouse=True)
def _close_backends() -> Any:
    yield
    while OPENED:
        OPENED.pop().close()


def backend(client: Any = None, **settings: Any) -> OpenVikingBackend:
    opened = OpenVikingBackend(client or Replay([], EMPTY), settings)
    OPENED.append(opened)
    return opened


def sent(client: Replay, method: str = "find") -> list[dict[str, Any]]:
    return [kw for name, kw in client.seen if name == method]


def test_scenario_replayed_from_a_real_server_keeps_exclusions_out(tmp_path: Path) -> None:
    calls = recorded("openviking")
    root = make_project(tmp_path)
    client = Replay(calls, EMPTY)
    recorded_root = calls[0]["kwargs"]["target_uri"][0]
    result = recall(
        str(root / SCENARIO["target"]), backend=backend(client, memory_uri=recorded_root)
    )
    check(result)
    returned = [i["content"] for c in calls for i in c["response"]["resources"]]
    assert any("obsolete OAuth prototype" in text for text in returned)
    assert "oauth" not in keys(result)
    rotate = result["memories"][0]
    assert rotate["scope"] == "src/auth" and rotate["kind"] == "decision"
    assert "tag=security" in rotate["tags"] and rotate["entities"] == ["gateway"]
    assert rotate["id"].startswith(recorded_root + "/")
    assert client.seen[0] == ("initialize", {"args": []})


def test_find_is_scoped_to_the_users_root_and_reads_content() -> None:
    client = Replay([], EMPTY)
    request = SearchRequest("How do tokens rotate?", entities=["Gateway"], tags=["security"],
                            files=["src/a.py"], limit=4)  # fmt: skip
    backend(client).search(request)
    (find,) = sent(client)
    assert find["target_uri"] == [ROOT] and find["limit"] == 4
    assert (
        find["query"] == "How do tokens rotate?\nentities: Gateway\ntags: security\nfiles: src/a.py"
    )
    assert find["options"] == {"read_content": True}


def test_hooks_narrow_the_roots_but_cannot_leave_them() -> None:
    client = Replay([], EMPTY)
    ov = backend(client, root_uri=["viking://resources/team", "viking://user/default/memories"])
    ov.search(SearchRequest("q", files=["viking://resources/team/auth", "src/x.py"]))
    ov.search(SearchRequest("q", resources=["viking://resources/team/adr", "auth-postmortem"]))
    ov.search(SearchRequest("q", options={"root_uri": "viking://user/default/memories/auth"}))
    assert [kw["target_uri"] for kw in sent(client)] == [
        ["viking://resources/team/auth"],
        ["viking://resources/team/adr"],
        ["viking://user/default/memories/auth"],
    ]
    assert sent(client)[1]["query"] == "q\nresources: auth-postmortem"
    for outside in ("viking://resources/other", "viking://resources/team/../other", "/etc"):
        with pytest.raises(BackendError, match="outside the roots|viking:// URI|must not contain"):
            ov.search(SearchRequest("q", options={"target_uri": outside}))


def test_native_options_pass_and_unknown_keys_go_to_extra() -> None:
    options = {"level": 2, "score_threshold": 0.3, "tags": ["kind=decision"], "root_uri": ROOT,
               "strategy": "find", "brand_new_server_field": True}  # fmt: skip
    assert sdk_options_for(options, ("level", "score_threshold", "tags")) == {
        "level": 2,
        "score_threshold": 0.3,
        "tags": ["kind=decision"],
        "extra": {"brand_new_server_field": True},
    }
    with pytest.raises(BackendError, match="'security' is not key=value"):
        sdk_options_for({"tags": ["security"]}, ("tags",))


def test_context_strategy_uses_a_prefix_filter_and_full_detail() -> None:
    response = {"entries": [{"uri": f"{ROOT}/a.md", "category": "resources", "score": 0.8, "text": "A."},
                            {"uri": f"{ROOT}/b.md", "category": "resources", "score": 0.7, "text": ""}]}  # fmt: skip
    client = Replay([{"method": "search_context", "query": "q", "response": response}])
    hits = backend(client).search(
        SearchRequest("q", options={"strategy": "context", "max_tokens": 300})
    )
    (call,) = sent(client, "search_context")
    assert "target_uri" not in call  # refused by search_context
    assert call["options"] == {"detail": "full", "max_tokens": 300,
                               "filter": {"op": "prefix", "field": "uri", "prefix": ROOT}}  # fmt: skip
    assert [(h.id, h.text) for h in hits] == [(f"{ROOT}/a.md", "A.")]  # an empty entry is no memory


def test_search_strategy_and_user_default() -> None:
    client = Replay([], EMPTY)
    backend(client, strategy="search").search(
        SearchRequest("q", options={"search_type": "keywords"})
    )
    (call,) = sent(client, "search")
    assert call["options"] == {"read_content": True, "search_type": "keywords"}
    with pytest.raises(BackendError, match="strategy must be one of"):
        backend(client).search(SearchRequest("q", options={"strategy": "browse"}))


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


def test_remember_writes_one_file_with_key_value_tags() -> None:
    client = Replay([], {"uri": "x"})
    draft = Draft("Tokens rotate daily.", project="p", scope="src/auth", kind="decision",
                  tags=["security", "team=core"], entities=["Gateway"])  # fmt: skip
    uri = backend(client).remember(draft)
    (write,) = sent(client, "write")
    assert write["args"][0] == uri and uri.startswith(ROOT + "/") and uri.endswith(".md")
    assert write["args"][1] == "Tokens rotate daily."
    assert write["mode"] == "create" and write["wait"] is True
    assert write["options"] == {"processing_mode": "vectors_only",
                                "tags": ["scope=src/auth", "kind=decision", "tag=security", "team=core",
                                         "entity=Gateway"]}  # fmt: skip


def test_failures_are_backend_errors() -> None:
    class InvalidArgumentError(Exception):
        message = "Invalid URI"

    with pytest.raises(BackendError, match="find failed: InvalidArgumentError: Invalid URI"):
        backend(Replay([], error=InvalidArgumentError())).search(SearchRequest("q"))
    with pytest.raises(BackendError, match="took longer than 0.10 s"):
        backend(Replay([], EMPTY, delay=3)).search(SearchRequest("q", timeout_s=0.1))
    with pytest.raises(BackendError, match="malformed find response"):
        backend(Replay([], "not json")).search(SearchRequest("q"))


def test_health() -> None:
    assert backend(Replay([], True)).health().ok
    down = backend(Replay([], False)).health()
    assert not down.ok and down.detail == "OpenViking health check failed"


def test_settings_are_checked() -> None:
    with pytest.raises(BackendError, match=r"backends.openviking.url: is required"):
        OpenVikingBackend.open({})
    with pytest.raises(BackendError, match=r"backends.openviking.root_uri"):
        backend(root_uri="resources/x")


def test_missing_sdk_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openviking_sdk", None)
    with pytest.raises(BackendError, match=r"pip install 'memhooks\[openviking\]'"):
        OpenVikingBackend.open({"url": "http://127.0.0.1:9"})


def test_hits_outside_the_roots_are_dropped_whatever_the_server_did() -> None:
    inside = {"uri": f"{ROOT}/a.md", "score": 0.5, "content": "Inside."}
    outside = {"uri": "viking://agent/.abstract.md", "score": 0.9, "content": "Outside."}
    client = Replay(
        [{"method": "find", "query": "q", "response": {"resources": [outside, inside]}}]
    )
    hits = backend(client).search(SearchRequest("q", options={"filter": {"op": "nonsense"}}))
    assert [h.id for h in hits] == [f"{ROOT}/a.md"]
