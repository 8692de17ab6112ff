"""One behaviour contract for every backend adapter (issue 21 step 5): each adapter under
``memhooks.backends`` is opened the one way (``open_backend`` with its settings in the
environment) against the answers its memory system really gave (``data/*.json``,
replayed by loopback stubs; the embedded store for real; the generic protocol's own
service) — and ``FakeBackend``, the tests' stand-in, keeps the same contract:

* a search answers a list of :class:`~memhooks.backends.base.Hit` (non-empty id and text,
  a float score, unique ids, no more than asked) that carries the scenario's memory with
  where it lives (scope);
* a memory system that fails raises BackendError — never a foreign exception — and
  ``close()`` after it does not raise;
* the optional capabilities offered are exactly the ones the adapter declares
  (``data/contract.json``), and each offered one answers;
* recall through it keeps the scenario every backend runs (``backend_scenario.check``)
  where its recorded answers are that scenario's.

The table of adapters is the registry: a new backend fails here until it joins."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from backend_scenario import DATA, SCENARIO, check, make_project
from generic_support import MemoryServer
from http_stub import Stub, recorded

from memhooks.backends.base import Health, Hit, SearchRequest
from memhooks.backends.capabilities import (
    CAPABILITIES,
    Adopts,
    AnchorsFiles,
    ChecksHealth,
    Counts,
    FrequentWords,
    Remembers,
)
from memhooks.backends.fake import FakeBackend
from memhooks.backends.registry import BACKENDS, open_backend
from memhooks.errors import BackendError
from memhooks.recall import recall
from memhooks.store import MemoryStore, project_id
from memhooks.store.memory import Draft

CONTRACT: dict[str, Any] = json.loads((DATA / "contract.json").read_text(encoding="utf-8"))
PROJECT = "proj"  # the recorded servers' bank, workspace, project
ROTATE = next(m for m in SCENARIO["memories"] if m["key"] == "rotate")


class Opened:
    """An adapter opened against its memory system, and how to make that system fail."""

    def __init__(self, backend: Any, fail: Callable[[], None], project: str = PROJECT) -> None:
        self.backend = backend
        self.fail = fail
        #: The project id its memories are kept under.
        self.project = project

    def request(self) -> SearchRequest:
        """The scenario's hand-written query of its target folder, as recall sends it."""
        return SearchRequest(
            "How are auth tokens rotated and stored?",
            entities=["Gateway"],
            tags=["security"],
            scopes=["src/auth", "src", ""],
            project=self.project,
            limit=5,
            priority=0.9,
            timeout_s=5.0,
        )


def _project(tmp_path: Path) -> str:
    """The id of the scenario project (:func:`backend_scenario.make_project`)."""
    return project_id(str(tmp_path / "proj"))


def _env(monkeypatch: pytest.MonkeyPatch, name: str, **settings: str) -> None:
    monkeypatch.setenv("MEMHOOKS_BACKEND", name)
    for key, value in settings.items():
        monkeypatch.setenv(f"MEMHOOKS_{name.upper()}_{key.upper()}", value)


def _embedded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Opened]:
    path = tmp_path / "memories.sqlite3"
    with MemoryStore(path) as store:
        for memory in SCENARIO["memories"]:
            store.remember(
                Draft(
                    memory["text"],
                    project=_project(tmp_path),
                    scope=memory["scope"],
                    files=memory.get("files", []),
                    kind=memory.get("kind"),
                    tags=memory.get("tags", []),
                    entities=memory.get("entities", []),
                )
            )
    _env(monkeypatch, "embedded", path=str(path))
    backend = open_backend()
    yield Opened(backend, backend.store.close, _project(tmp_path))


def _recorded(name: str, empty: dict[str, Any], **settings: str) -> Any:
    def opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Opened]:
        stub = Stub(recorded(name), empty)
        _env(monkeypatch, name, url=stub.url, **settings)

        def fail() -> None:
            stub.faults["/"] = 500

        yield Opened(open_backend(), fail)
        stub.close()

    return opened


def _honcho(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Opened]:
    import threading

    from test_honcho import Stub as HonchoStub

    stub = HonchoStub()
    threading.Thread(target=stub.serve_forever, daemon=True).start()
    _env(monkeypatch, "honcho", url=stub.url, api_key="k", workspace="proj", peer="alice")

    def fail() -> None:
        stub.status = 500

    yield Opened(open_backend(), fail)
    stub.shutdown()
    stub.server_close()


def _mem0(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Opened]:
    from test_mem0 import Platform

    monkeypatch.setenv("MEM0_DIR", str(tmp_path / "mem0"))  # the SDK writes a config.json
    monkeypatch.setenv("MEM0_TELEMETRY", "False")
    stub = Platform()
    _env(monkeypatch, "mem0", mode="platform", api_key="m0-key", host=stub.url, user_id="alice")

    def fail() -> None:
        stub.fail["/v3/memories/search/"] = 500

    yield Opened(open_backend(), fail)
    stub.server.shutdown()
    stub.server.server_close()


def _generic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Opened]:
    server = MemoryServer()
    server.memories.extend(
        {
            "project": _project(tmp_path),
            "files": [],
            "tags": [],
            "entities": [],
            **m,
            "id": m["key"],
        }
        for m in SCENARIO["memories"]
    )
    server.start()
    _env(monkeypatch, "generic", url=server.url + "/search", write_url=server.url + "/remember")

    def fail() -> None:
        server.status = 500

    yield Opened(open_backend(), fail, _project(tmp_path))
    server.stop()


def _fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Opened]:
    """The fake answers like a memory system: the scenario's memories sharing a word
    with the query, most shared first; failing, it raises as an adapter must."""
    failing: list[BackendError] = []

    def answer(request: SearchRequest) -> list[Hit]:
        if failing:
            raise failing[0]
        wanted = set(request.text.lower().split())
        found = [
            Hit(
                m["key"],
                m["text"],
                float(len(wanted & set(m["text"].lower().split()))),
                scope=m["scope"],
                files=m.get("files", []),
            )
            for m in SCENARIO["memories"]
        ]
        ranked = sorted((h for h in found if h.score), key=lambda h: -h.score)
        return ranked[: request.limit]

    def fail() -> None:
        failing.append(BackendError("fake: the memory system is down"))

    yield Opened(FakeBackend(answer), fail)


ADAPTERS: dict[str, Callable[[Path, pytest.MonkeyPatch], Iterator[Opened]]] = {
    "embedded": _embedded,
    "generic": _generic,
    "hindsight": _recorded(
        "hindsight",
        {"/memories/recall": {"results": []}, "/version": {"api_version": "1.1.0", "features": {}}},
        bank=PROJECT,
    ),
    "honcho": _honcho,
    "mem0": _mem0,
    "openviking": _recorded(
        "openviking",
        {"/health": {"status": "ok", "healthy": True, "version": "0.5.2", "auth_mode": "dev"}},
        root="viking://resources/memhooks",
    ),
    "fake": _fake,
}


@pytest.fixture(params=sorted(ADAPTERS))
def opened(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Opened]:
    adapter = ADAPTERS[request.param](tmp_path, monkeypatch)
    yield next(adapter)
    next(adapter, None)


def test_every_registered_backend_is_held_to_the_contract() -> None:
    assert set(ADAPTERS) - {"fake"} == set(BACKENDS)
    assert set(CONTRACT["capabilities"]) == set(ADAPTERS)


def test_a_search_answers_hits_carrying_the_memory_and_where_it_lives(opened: Opened) -> None:
    backend, request = opened.backend, opened.request()
    hits = backend.search(request)
    try:
        assert isinstance(hits, list) and all(isinstance(hit, Hit) for hit in hits)
        assert all(hit.id and isinstance(hit.id, str) for hit in hits)
        assert all(hit.text.strip() and isinstance(hit.score, float) for hit in hits)
        assert len({hit.id for hit in hits}) == len(hits) <= request.limit
        rotate = next(hit for hit in hits if hit.text.strip() == ROTATE["text"])
        assert rotate.scope == ROTATE["scope"]
    finally:
        backend.close()


def test_a_failing_memory_system_raises_backend_error_and_closes(opened: Opened) -> None:
    opened.fail()
    with pytest.raises(BackendError):
        opened.backend.search(opened.request())
    opened.backend.close()  # after a failure, closing does not raise


def test_the_capabilities_offered_are_the_declared_ones_and_answer(opened: Opened) -> None:
    backend = opened.backend
    name = backend.name
    try:
        offered = sorted(c.__name__ for c in CAPABILITIES if isinstance(backend, c))
        assert offered == CONTRACT["capabilities"][name]
        if isinstance(backend, ChecksHealth):
            health = backend.health()
            assert isinstance(health, Health) and health.ok, health.detail
        if isinstance(backend, Counts):
            assert backend.count(opened.project) == len(SCENARIO["memories"])
        if isinstance(backend, AnchorsFiles):
            found = backend.anchored_files(opened.project, "src/auth", besides=set(), limit=5)
            assert found == ["src/auth/tokens.py"]
        if isinstance(backend, FrequentWords):  # the scenario is too small to count words
            assert backend.word_shares(opened.project, "rotate the tokens") == {}
        if isinstance(backend, Adopts):
            assert backend.adopt(opened.project, ("an-earlier-id",)) == 0
        if isinstance(backend, Remembers) and name in CONTRACT["remembers_here"]:
            draft = Draft("Sessions expire after 30 minutes.", project=opened.project, scope="src")
            assert backend.remember(draft)
    finally:
        backend.close()


def test_recall_through_it_keeps_the_scenario(opened: Opened, tmp_path: Path) -> None:
    """The scenario every backend runs (``backend_scenario.check``): the hook's query
    first, its memory first, the excluded one left out."""
    name = opened.backend.name
    if name not in CONTRACT["scenario_recorded"]:
        pytest.skip(f"{name}: its recorded answers are not the scenario's (data/contract.json)")
    result = recall(str(make_project(tmp_path) / SCENARIO["target"]), backend=opened.backend)
    opened.backend.close()
    check(result)
