"""The Hindsight adapter over HTTP against a loopback stub: request mapping, response
parsing, per-bank partial failure, deadlines, and the scenario replayed from answers
recorded on a real ``hindsight-api`` 1.1.0 (``data/hindsight_http.json``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from backend_scenario import SCENARIO, check, drafts, keys, make_project
from http_stub import HANG, RESET, Stub, recorded, timed

from memhooks.backends.base import PartialHits, SearchRequest, failures_of
from memhooks.backends.hindsight import HindsightBackend, budget_for, to_hits
from memhooks.errors import BackendError
from memhooks.recall import recall
from memhooks.store.memory import Draft

RECALL = "/v1/default/banks/{}/memories/recall"
EMPTY = {"/memories/recall": {"results": []}}


@pytest.fixture
def stub() -> Iterator[Stub]:
    server = Stub(recorded("hindsight"), EMPTY)
    yield server
    server.close()


def backend(stub: Stub, **settings: Any) -> HindsightBackend:
    return HindsightBackend.open({"url": stub.url, "bank": "proj", **settings})


def recalls(stub: Stub) -> list[dict[str, Any]]:
    return [s.body for s in stub.seen if s.path.endswith("/memories/recall")]


def as_bank(bank: str) -> list[dict[str, Any]]:
    """The recorded exchanges as answered by another bank."""
    return [
        {**e, "path": e["path"].replace("/banks/proj/", f"/banks/{bank}/")}
        for e in recorded("hindsight")
    ]


def test_scenario_replayed_from_a_real_server_keeps_exclusions_out(
    stub: Stub, tmp_path: Path
) -> None:
    root = make_project(tmp_path)
    result = recall(str(root / SCENARIO["target"]), backend=backend(stub))
    check(result)
    # The recorded server returned the excluded memory for the auth query: it was filtered.
    returned = [r["text"] for e in recorded("hindsight") for r in e["response"]["results"]]
    assert any("obsolete OAuth prototype" in text for text in returned)
    assert "oauth" not in keys(result)
    rotate = next(m for m in result["memories"] if m["text"].startswith("Auth tokens"))
    assert rotate["scope"] == "src/auth" and rotate["files"] == ["src/auth/tokens.py"]
    assert rotate["tags"] == ["security"] and rotate["entities"] == ["Gateway"]
    assert rotate["id"].startswith("proj/")
    # The runtime passes each query's priority: 0.9 -> high, 0.3 -> low; the wire body is
    # exactly what the real server was sent when recording.
    assert recalls(stub) == [e["request"] for e in recorded("hindsight")]
    assert {b["query"].splitlines()[0]: b["budget"] for b in recalls(stub)} == {
        "How are auth tokens rotated and stored?": "high",
        "How do deploys run database migrations?": "low",
    }


def test_query_carries_cues_as_hints_and_asks_for_entity_names(stub: Stub) -> None:
    request = SearchRequest("How do tokens rotate?", entities=["Gateway"], tags=["security"],
                            files=["src/auth/tokens.py"], resources=["src/auth/tokens.py", "auth-postmortem"],
                            limit=7)  # fmt: skip
    backend(stub).search(request)
    (seen,) = stub.seen
    assert (seen.method, seen.path) == ("POST", RECALL.format("proj"))
    assert seen.body == {
        "query": "How do tokens rotate?\nentities: Gateway\nresources: auth-postmortem\n"
        "files: src/auth/tokens.py\ntags: security",
        "budget": "mid",
        "include": {"entities": {"max_tokens": 1}},
    }


def test_api_key_is_a_bearer_token_and_bank_names_are_one_path_segment(stub: Stub) -> None:
    backend(stub, api_key="hs-key", bank="team a/b").search(SearchRequest("q"))
    (seen,) = stub.seen
    assert seen.headers["authorization"] == "Bearer hs-key"
    assert seen.path == RECALL.format("team%20a%2Fb") or seen.path == RECALL.format("team a%2Fb")


@pytest.mark.parametrize(
    ("priority", "budget"),
    [(None, None), (0.0, "low"), (0.3, "low"), (0.5, "mid"), (0.7, "high"), (1.0, "high")],
)
def test_priority_maps_to_budget(priority: float | None, budget: str | None) -> None:
    assert budget_for(priority) == budget


def test_native_options_are_mapped_and_unknown_ones_are_not_guessed(stub: Stub) -> None:
    options = {
        "memory_types": ["world", "experience"],
        "budget": "high",
        "max_tokens": 900,
        "min_scores": {"final": 0.2},
        "query_timestamp": "2026-01-01T00:00:00",
        "connection_types": ["causal"],
        "made_up": 1,
    }
    backend(stub, max_tokens=500).search(SearchRequest("q", options=options))
    (sent,) = recalls(stub)
    assert sent["types"] == ["world", "experience"]
    assert sent["budget"] == "high"
    assert sent["max_tokens"] == 500  # the user's cap wins
    assert sent["min_scores"] == {"final": 0.2} and sent["query_timestamp"] == "2026-01-01T00:00:00"
    assert "connection_types" not in sent and "made_up" not in sent


def test_tags_filter_only_when_the_hook_says_so(stub: Stub) -> None:
    hs = backend(stub)
    hs.search(SearchRequest("q", tags=["security"], options={"tags_match": "all_strict"}))
    hs.search(SearchRequest("q", tags=["security"], options={"tags": ["auth"]}))
    first, second = recalls(stub)
    assert (first["tags"], first["tags_match"]) == (["security"], "all_strict")
    assert first["query"] == "q"  # a filtering tag is not also a hint
    assert (second["tags"], second["tags_match"]) == (["auth"], "any_strict")


def test_required_tags_of_the_user_always_apply(stub: Stub) -> None:
    hs = backend(stub, required_tags=["team:core"])
    hs.search(SearchRequest("q", tags=["security"]))
    hs.search(SearchRequest("q", options={"tags": ["auth"], "tags_match": "any"}))
    plain, grouped = recalls(stub)
    assert (plain["tags"], plain["tags_match"]) == (["team:core"], "all_strict")
    assert "tag_groups" not in plain
    assert grouped["tag_groups"] == [
        {"tags": ["team:core"], "match": "all_strict"},
        {"tags": ["auth"], "match": "any"},
    ]
    assert "tags" not in grouped  # Hindsight refuses tags with tag_groups (HTTP 422)


def test_banks_are_chosen_by_the_user_and_narrowed_by_hooks(stub: Stub) -> None:
    hs = backend(stub, banks=["team"])
    hs.search(SearchRequest("q"))
    hs.search(SearchRequest("q", options={"bank": "team"}))
    assert sorted(s.path for s in stub.seen[:2]) == [RECALL.format("proj"), RECALL.format("team")]
    assert stub.seen[2].path == RECALL.format("team")
    with pytest.raises(BackendError, match="'elsewhere' is not one the user configured"):
        hs.search(SearchRequest("q", options={"bank": ["team", "elsewhere"]}))


def test_results_of_several_banks_are_merged_by_score(stub: Stub) -> None:
    def result(i: str, score: float) -> dict[str, Any]:
        return {"id": i, "text": f"memory {i}", "scores": {"final": score}}

    answer = {"results": [result("a", 0.2), result("b", 0.9)]}
    stub.exchanges = [
        {"method": "POST", "path": RECALL.format(b), "response": answer} for b in ("proj", "team")
    ]
    hits = backend(stub, banks=["team"]).search(SearchRequest("q", limit=3))
    assert [h.id for h in hits] == ["proj/b", "team/b", "proj/a"]  # banks in configured order
    assert not isinstance(hits, PartialHits)


QUERY = "How are auth tokens rotated and stored?"


@pytest.mark.parametrize("fault", [500, RESET, HANG])
@pytest.mark.parametrize("order", [("shared", "proj"), ("proj", "shared")])
def test_a_failing_bank_keeps_what_the_healthy_one_found(
    fault: Any, order: tuple[str, str]
) -> None:
    """Issue 14: `bank = "shared"`, `banks = ["proj"]`; `proj` answers 500, resets or hangs.
    `shared`'s memory is kept in either order, and a hanging bank costs no more than the
    query's cap."""
    stub = Stub(as_bank("shared"), EMPTY)
    stub.faults["/v1/default/banks/proj/"] = fault
    try:
        hs = HindsightBackend.open({"url": stub.url, "bank": order[0], "banks": [order[1]]})
        elapsed, hits = timed(lambda: hs.search(SearchRequest(QUERY, timeout_s=0.5, limit=5)))
    finally:
        stub.close()
    assert isinstance(hits, PartialHits), hits
    assert hits and all(h.id.startswith("shared/") for h in hits)
    assert "Auth tokens are rotated every 24 hours" in hits[0].text
    ((source, message),) = failures_of(hits)
    assert source == "bank 'proj'"
    expected = {500: "HTTP 500", RESET: "reset the connection", HANG: "took longer than 0.50 s"}
    assert message.startswith("hindsight: recall from bank 'proj'") and expected[fault] in message
    assert elapsed < 1.2  # both banks at once, each under the 0.5 s cap


def test_recall_reports_the_failed_bank_and_keeps_the_memory(tmp_path: Path) -> None:
    stub = Stub(as_bank("shared"), EMPTY)
    stub.faults["/v1/default/banks/proj/"] = 500
    root = make_project(tmp_path)
    try:
        hs = HindsightBackend.open({"url": stub.url, "bank": "shared", "banks": ["proj"]})
        result = recall(str(root / SCENARIO["target"]), backend=hs)
    finally:
        stub.close()
    assert result["status"] == "ok"
    assert keys(result)[0] == SCENARIO["expect"]["first"]
    partial = [q for q in result["queries"] if q["status"] == "partial"]
    assert partial and all(
        "bank 'proj'" in q["error"] and "HTTP 500" in q["error"] for q in partial
    )
    from importlib import resources

    from jsonschema import Draft202012Validator

    schema = json.loads(
        resources.files("memhooks").joinpath("schemas/recall-v1.schema.json").read_text()
    )
    Draft202012Validator(schema).validate(result)  # "partial" is a declared query status


def test_every_bank_failing_fails_the_query_naming_each(stub: Stub) -> None:
    stub.faults["/v1/default/banks/"] = 503
    with pytest.raises(
        BackendError, match=r"every source of recall failed: .*bank 'proj'.*HTTP 503.*bank 'team'"
    ):
        backend(stub, banks=["team"]).search(SearchRequest("q"))
    with pytest.raises(BackendError, match=r"^hindsight: recall from bank 'proj' failed: HTTP 503"):
        backend(stub).search(SearchRequest("q"))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"memory_types": ["world", "facts"]}, "'facts' is not one of"),
        ({"budget": "huge"}, "budget must be one of"),
        ({"tags_match": "some"}, "tags_match must be one of"),
        ({"max_tokens": 0}, "max_tokens must be a positive integer"),
    ],
)
def test_invalid_hook_options_fail_the_query(
    stub: Stub, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(BackendError, match=message):
        backend(stub).search(SearchRequest("q", options=options))
    assert not stub.seen


def test_malformed_answers_are_backend_errors(stub: Stub) -> None:
    with pytest.raises(BackendError, match="malformed recall response"):
        to_hits("proj", {"items": []})
    with pytest.raises(BackendError, match="malformed recall result"):
        to_hits("proj", {"results": [{"id": "x"}]})
    stub.exchanges = [
        {"method": "POST", "path": RECALL.format("proj"), "response": ["not", "an", "object"]}
    ]
    with pytest.raises(BackendError, match="malformed answer to recall from bank 'proj'"):
        backend(stub).search(SearchRequest("q"))


def test_remember_retains_verbatim_with_provenance(stub: Stub) -> None:
    stub.empty["/memories"] = {"success": True, "bank_id": "proj", "items_count": 1}
    draft = Draft("Tokens rotate daily.", project="p1", scope="src/auth", files=["a.py"], kind="decision",
                  tags=["security"], entities=["Gateway"], source="cli")  # fmt: skip
    memory_id = backend(stub, required_tags=["team:core"]).remember(draft)
    (seen,) = stub.seen
    assert (seen.method, seen.path) == ("POST", "/v1/default/banks/proj/memories")
    (item,) = seen.body["items"]
    assert seen.body["async"] is False
    assert memory_id == f"proj/{item['document_id']}" and item["document_id"].startswith(
        "memhooks-"
    )
    assert item["content"] == "Tokens rotate daily."
    assert item["entities"] == [{"text": "Gateway"}]  # no guessed type
    assert item["tags"] == ["security", "team:core"]
    assert item["metadata"] == {"memhooks_project": "p1", "memhooks_scope": "src/auth",
                                "memhooks_files": '["a.py"]', "memhooks_kind": "decision",
                                "memhooks_source": "cli"}  # fmt: skip


def test_reflect_and_mental_models_only_where_the_user_configured_them(stub: Stub) -> None:
    stub.empty["/reflect"] = {"text": "Because."}
    stub.empty["/mental-models/mm1"] = {
        "id": "mm1",
        "name": "auth architecture",
        "content": "Gateway first.",
    }
    request = SearchRequest("Why?", options={"strategy": "reflect", "mental_models": ["auth architecture"],
                                             "memory_types": ["world"]})  # fmt: skip
    assert backend(stub).synthesize(request) is None
    assert not stub.seen
    answer = backend(stub, reflect=True, mental_models=["mm1"]).synthesize(request)
    assert answer == "auth architecture:\nGateway first.\n\nBecause."
    model, reflect = stub.seen
    assert (model.method, model.path, model.params) == (
        "GET", "/v1/default/banks/proj/mental-models/mm1", {"detail": ["content"]})  # fmt: skip
    assert reflect.path == "/v1/default/banks/proj/reflect"
    assert reflect.body == {"query": "Why?", "budget": "mid", "fact_types": ["world"]}


def test_health_reports_the_version_or_the_failure(stub: Stub) -> None:
    stub.empty["/version"] = {"api_version": "1.1.0", "features": {}}
    ok = backend(stub, banks=["team"]).health()
    assert ok.ok and ok.detail == "Hindsight 1.1.0, banks proj, team"
    down = HindsightBackend.open({"url": "http://127.0.0.1:9", "bank": "b"}).health()
    assert not down.ok and "cannot reach http://127.0.0.1:9" in down.detail


def test_settings_are_checked_when_opened() -> None:
    with pytest.raises(BackendError, match=r"backends.hindsight.url: is required"):
        HindsightBackend.open({"bank": "b"})
    with pytest.raises(BackendError, match=r"backends.hindsight.budget: must be one of"):
        HindsightBackend.open({"url": "http://127.0.0.1:9", "bank": "b", "budget": "all"})
    with pytest.raises(
        BackendError, match=r"backends.hindsight.url: must be an http:// or https:// URL"
    ):
        HindsightBackend.open({"url": "127.0.0.1:8888", "bank": "b"})


def test_drafts_of_the_scenario_are_complete() -> None:
    assert [d.scope for d in drafts("p")] == [m["scope"] for m in SCENARIO["memories"]]
