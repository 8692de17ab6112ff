"""Record a real server's SDK responses to the backend scenario, for the default suite's
replay tests (``tests/backends/data/<backend>_responses.json``).

    . /tmp/memhooks-servers/env      # after tests/backends/servers/start.sh
    /tmp/memhooks-servers/venvs/clients/bin/python tests/backends/servers/record.py hindsight|openviking

Remembers the scenario's memories into a fresh bank / URI, runs ``memhooks recall`` of
the scenario's target through the adapter with a recording proxy around the SDK client,
and writes every call the adapter made with the server's answer as plain JSON.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from backend_scenario import DATA, SCENARIO, drafts, make_project

from memhooks.recall import recall
from memhooks.store import project_id


def plain(value: Any) -> Any:
    """An SDK response as JSON data."""
    for name in ("to_dict", "model_dump"):
        method = getattr(value, name, None)
        if callable(method):
            return plain(method())
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value if isinstance(value, (str, int, float, bool, type(None))) else str(value)


class Recorder:
    """Wraps an async SDK client; keeps ``(method, query, response)`` of named calls."""

    def __init__(self, client: Any, methods: tuple[str, ...]) -> None:
        self._client = client
        self._methods = methods
        self.calls: list[dict[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._client, name)
        if name not in self._methods:
            return attr

        async def call(*args: Any, **kwargs: Any) -> Any:
            response = await attr(*args, **kwargs)
            self.calls.append({"method": name, "query": kwargs.get("query", ""), "kwargs": plain(kwargs),
                               "response": plain(response)})  # fmt: skip
            return response

        return call


def backend_for(name: str) -> tuple[Any, Recorder]:
    tag = uuid.uuid4().hex[:8]
    if name == "hindsight":
        from memhooks.backends.hindsight import HindsightBackend

        backend: Any = HindsightBackend.open(
            {"url": os.environ["MEMHOOKS_TEST_HINDSIGHT_URL"], "bank": f"memhooks-record-{tag}"}
        )
        methods: tuple[str, ...] = ("arecall",)
    else:
        from memhooks.backends.openviking import OpenVikingBackend

        uri = f"viking://resources/memhooks-record-{tag}"
        backend = OpenVikingBackend.open(
            {"url": os.environ["MEMHOOKS_TEST_OPENVIKING_URL"], "memory_uri": uri}
        )
        methods = ("find", "search", "search_context")
    recorder = Recorder(backend.client, methods)
    return backend, recorder


def main(name: str) -> None:
    backend, recorder = backend_for(name)
    with tempfile.TemporaryDirectory() as tmp:
        root = make_project(Path(tmp))
        for draft in drafts(project_id(str(root))):
            backend.remember(draft)
        backend.client = recorder
        result = recall(str(root / SCENARIO["target"]), backend=backend)
        backend.close()
    out = {"about": f"{name} SDK calls of the scenario, answered by a real server (servers/record.py)",
           "calls": recorder.calls, "recall_status": result["status"]}  # fmt: skip
    path = DATA / f"{name}_responses.json"
    path.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(
        f"{path}: {len(recorder.calls)} calls, recall {result['status']}, {len(result['memories'])} memories"
    )


if __name__ == "__main__":
    main(sys.argv[1])
