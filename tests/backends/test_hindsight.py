"""The Hindsight adapter without the SDK: request mapping, response parsing, failures,
and the scenario replayed from responses recorded on a real server
(``data/hindsight_responses.json``)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest
from backend_scenario import SCENARIO, Replay, check, drafts, keys, make_project, recorded

from memhooks.backends.base import Draft, SearchRequest
from memhooks.backends.hindsight import HindsightBackend, budget_for, to_hits
from memhooks.errors import BackendError
from memhooks.recall import recall

EMPTY = {"results": []}
OPENED: list[HindsightBackend] = []


@pytest.fixture(autouse=True)
def _close_backends() -> Any:
    yield
    while OPENED:
        OPENED.pop().close()


def backend(client: Any = None, **settings: Any) -> HindsightBackend:
    opened = HindsightBackend(client or Replay([], EMPTY), {"bank": "proj", **settings})
    OPENED.append(opened)
    return opened


def kwargs_of(client: Replay, method: str = "arecall") -> list[dict[str, Any]]:
    return [kw for name, kw in client.seen if name == method]


def test_scenario_replayed_from_a_real_server_keeps_exclusions_out(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    client = Replay(recorded("hindsight"), EMPTY)
    result = recall(str(root / SCENARIO["target"]), backend=backend(client))
    check(result)
    # The recorded server returned the excluded memory for the auth query: it was filtered.
    returned = [r["text"] for c in recorded("hindsight") for r in c["response"]["results"]]
    assert any("obsolete OAuth prototype" in text for text in returned)
    assert "oauth" not in keys(result)
    by_id = {m["id"]: m for m in result["memories"]}
    rotate = next(m for m in by_id.values() if m["text"].startswith("Auth tokens"))
    assert rotate["scope"] == "src/auth" and rotate["files"] == ["src/auth/tokens.py"]
    assert rotate["tags"] == ["security"] and rotate["entities"] == ["Gateway"]
    assert rotate["id"].startswith("proj/")
    # The runtime passes each query's priority: 0.9 -> high, 0.3 -> low.
    budgets = {kw["query"].splitlines()[0]: kw["budget"] for kw in kwargs_of(client)}
    assert budgets == {
        "How are auth tokens rotated and stored?": "high",
        "How do deploys run database migrations?": "low",
    }


def test_query_carries_cues_as_hints_and_asks_for_entity_names() -> None:
    client = Replay([], EMPTY)
    request = SearchRequest("How do tokens rotate?", entities=["Gateway"], tags=["security"],
                            files=["src/auth/tokens.py"], resources=["src/auth/tokens.py", "auth-postmortem"],
                            limit=7)  # fmt: skip
    backend(client).search(request)
    (sent,) = kwargs_of(client)
    assert sent["bank_id"] == "proj"
    assert sent["query"] == (
        "How do tokens rotate?\nentities: Gateway\nresources: auth-postmortem\n"
        "files: src/auth/tokens.py\ntags: security"
    )
    assert sent["include_entities"] is True and sent["budget"] == "mid"
    assert "tags" not in sent and "types" not in sent and "max_tokens" not in sent


@pytest.mark.parametrize(
    ("priority", "budget"),
    [(None, None), (0.0, "low"), (0.3, "low"), (0.5, "mid"), (0.7, "high"), (1.0, "high")],
)
def test_priority_maps_to_budget(priority: float | None, budget: str | None) -> None:
    assert budget_for(priority) == budget


def test_native_options_are_mapped_and_unknown_ones_are_not_guessed() -> None:
    client = Replay([], EMPTY)
    options = {
        "memory_types": ["world", "experience"],
        "budget": "high",
        "max_tokens": 900,
        "min_scores": {"final": 0.2},
        "query_timestamp": "2026-01-01T00:00:00",
        "connection_types": ["causal"],
        "made_up": 1,
    }
    backend(client, max_tokens=500).search(SearchRequest("q", options=options))
    (sent,) = kwargs_of(client)
    assert sent["types"] == ["world", "experience"]
    assert sent["budget"] == "high"
    assert sent["max_tokens"] == 500  # the user's cap wins
    assert sent["min_scores"] == {"final": 0.2} and sent["query_timestamp"] == "2026-01-01T00:00:00"
    assert "connection_types" not in sent and "made_up" not in sent


def test_tags_filter_only_when_the_hook_says_so() -> None:
    client = Replay([], EMPTY)
    backend(client).search(
        SearchRequest("q", tags=["security"], options={"tags_match": "all_strict"})
    )
    backend(client).search(SearchRequest("q", tags=["security"], options={"tags": ["auth"]}))
    first, second = kwargs_of(client)
    assert (first["tags"], first["tags_match"]) == (["security"], "all_strict")
    assert first["query"] == "q"  # a filtering tag is not also a hint
    assert (second["tags"], second["tags_match"]) == (["auth"], "any_strict")


def test_required_tags_of_the_user_always_apply() -> None:
    client = Replay([], EMPTY)
    hs = backend(client, required_tags=["team:core"])
    hs.search(SearchRequest("q", tags=["security"]))
    hs.search(SearchRequest("q", options={"tags": ["auth"], "tags_match": "any"}))
    plain, grouped = kwargs_of(client)
    assert (plain["tags"], plain["tags_match"]) == (["team:core"], "all_strict")
    assert "tag_groups" not in plain
    assert grouped["tag_groups"] == [
        {"tags": ["team:core"], "match": "all_strict"},
        {"tags": ["auth"], "match": "any"},
    ]
    assert "tags" not in grouped  # Hindsight refuses tags with tag_groups (HTTP 422)


def test_banks_are_chosen_by_the_user_and_narrowed_by_hooks() -> None:
    client = Replay([], EMPTY)
    hs = backend(client, banks=["team"])
    hs.search(SearchRequest("q"))
    hs.search(SearchRequest("q", options={"bank": "team"}))
    assert [kw["bank_id"] for kw in kwargs_of(client)] == ["proj", "team", "team"]
    with pytest.raises(BackendError, match="'elsewhere' is not one the user configured"):
        hs.search(SearchRequest("q", options={"bank": ["team", "elsewhere"]}))


def test_results_of_several_banks_are_merged_by_score() -> None:
    def result(i: str, score: float) -> dict[str, Any]:
        return {"id": i, "text": f"memory {i}", "scores": {"final": score}}

    calls = [
        {
            "method": "arecall",
            "query": "q",
            "response": {"results": [result("a", 0.2), result("b", 0.9)]},
        }
    ]
    hits = backend(Replay(calls, EMPTY), banks=["team"]).search(SearchRequest("q", limit=3))
    assert [h.id for h in hits] == ["proj/b", "team/b", "proj/a"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"memory_types": ["world", "facts"]}, "'facts' is not one of"),
        ({"budget": "huge"}, "budget must be one of"),
        ({"tags_match": "some"}, "tags_match must be one of"),
        ({"max_tokens": 0}, "max_tokens must be a positive integer"),
    ],
)
def test_invalid_hook_options_fail_the_query(options: dict[str, Any], message: str) -> None:
    client = Replay([], EMPTY)
    with pytest.raises(BackendError, match=message):
        backend(client).search(SearchRequest("q", options=options))
    assert not client.seen


def test_malformed_responses_are_backend_errors() -> None:
    with pytest.raises(BackendError, match="malformed recall response"):
        to_hits("proj", {"items": []})
    with pytest.raises(BackendError, match="malformed recall result"):
        to_hits("proj", {"results": [{"id": "x"}]})


def test_a_slow_server_is_cut_at_the_request_timeout() -> None:
    client = Replay([], EMPTY, delay=5)
    started = time.monotonic()
    with pytest.raises(BackendError, match="took longer than 0.20 s"):
        backend(client).search(SearchRequest("q", timeout_s=0.2))
    assert time.monotonic() - started < 2


def test_sdk_errors_are_translated_at_the_boundary() -> None:
    class ApiException(Exception):
        status = 401
        body = '{"detail": "bad key"}\nmore'

    with pytest.raises(
        BackendError, match=r"ApiException \(HTTP 401\): \{\"detail\": \"bad key\"\}"
    ) as info:
        backend(Replay([], error=ApiException("x"))).search(SearchRequest("q"))
    assert isinstance(info.value.__cause__, ApiException)


def test_remember_retains_verbatim_with_provenance() -> None:
    client = Replay([], {"success": True})
    draft = Draft("Tokens rotate daily.", project="p1", scope="src/auth", files=["a.py"], kind="decision",
                  tags=["security"], entities=["Gateway"], source="cli")  # fmt: skip
    memory_id = backend(client, required_tags=["team:core"]).remember(draft)
    (sent,) = kwargs_of(client, "aretain")
    assert memory_id == f"proj/{sent['document_id']}" and sent["document_id"].startswith(
        "memhooks-"
    )
    assert sent["content"] == "Tokens rotate daily." and sent["bank_id"] == "proj"
    assert sent["entities"] == [{"text": "Gateway"}]  # no guessed type
    assert sent["tags"] == ["security", "team:core"]
    assert sent["metadata"] == {"memhooks_project": "p1", "memhooks_scope": "src/auth",
                                "memhooks_files": '["a.py"]', "memhooks_kind": "decision",
                                "memhooks_source": "cli"}  # fmt: skip


def test_reflect_and_mental_models_only_where_the_user_configured_them() -> None:
    calls = [
        {"method": "areflect", "query": "Why?", "response": {"text": "Because."}},
        {
            "method": "aget_mental_model",
            "response": {"id": "mm1", "name": "auth architecture", "content": "Gateway first."},
        },
    ]
    request = SearchRequest("Why?", options={"strategy": "reflect", "mental_models": ["auth architecture"],
                                             "memory_types": ["world"]})  # fmt: skip
    plain = Replay(calls)
    assert backend(plain).synthesize(request) is None
    assert not plain.seen
    allowed = Replay(calls)
    answer = backend(allowed, reflect=True, mental_models=["mm1"]).synthesize(request)
    assert answer == "auth architecture:\nGateway first.\n\nBecause."
    (reflect,) = kwargs_of(allowed, "areflect")
    assert reflect["fact_types"] == ["world"]
    assert set(reflect) == {"args", "bank_id", "query", "budget", "fact_types"}


def test_health_reports_the_version_or_the_failure() -> None:
    ok = backend(
        Replay([{"method": "aget_version", "response": {"api_version": "1.1.0"}}]), banks=["team"]
    ).health()
    assert ok.ok and ok.detail == "Hindsight 1.1.0, banks proj, team"
    down = backend(Replay([], error=OSError("connection refused"))).health()
    assert not down.ok and "connection refused" in down.detail


def test_settings_are_checked_when_opened() -> None:
    with pytest.raises(BackendError, match=r"backends.hindsight.url: is required"):
        HindsightBackend.open({"bank": "b"})
    with pytest.raises(BackendError, match=r"backends.hindsight.budget: must be one of"):
        backend(budget="all")


def test_missing_sdk_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "hindsight_client", None)
    with pytest.raises(BackendError, match=r"pip install 'memhooks\[hindsight\]'"):
        HindsightBackend.open({"url": "http://127.0.0.1:9", "bank": "b"})


def test_close_closes_the_client_and_the_loop() -> None:
    idle = Replay([], EMPTY)
    backend(idle).close()
    assert not idle.closed  # no call, no session to close
    client = Replay([], EMPTY)
    hs = backend(client)
    hs.search(SearchRequest("q"))
    hs.close()
    assert client.closed


def test_drafts_of_the_scenario_are_complete() -> None:
    assert [d.scope for d in drafts("p")] == [m["scope"] for m in SCENARIO["memories"]]
