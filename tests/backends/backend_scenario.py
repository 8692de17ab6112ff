"""The recall scenario every server backend runs (``data/scenario.json``), and the replay
of SDK responses recorded from real servers (``data/<backend>_responses.json``, written by
``servers/record.py``)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from memhooks.backends.base import Draft

DATA = Path(__file__).parent / "data"
SCENARIO: dict[str, Any] = json.loads((DATA / "scenario.json").read_text(encoding="utf-8"))
TEXTS = {m["text"]: m["key"] for m in SCENARIO["memories"]}


def make_project(tmp_path: Path) -> Path:
    """A git project with the scenario's hook chain and files; returns its root."""
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    for rel, body in SCENARIO["hooks"].items():
        (root / rel).mkdir(parents=True, exist_ok=True)
        (root / rel / "MEMHOOKS.md").write_text(body, encoding="utf-8")
    for rel in SCENARIO["files"]:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x\n", encoding="utf-8")
    for memory in SCENARIO["memories"]:
        (root / memory["scope"]).mkdir(parents=True, exist_ok=True)
    return root


def cli_remember_args(memory: dict[str, Any], root: Path) -> list[str]:
    """``memhooks remember`` arguments that store one scenario memory."""
    args = ["remember", memory["text"], "--cwd", str(root / memory["scope"])]
    if memory.get("kind"):
        args += ["--kind", memory["kind"]]
    for flag, key in (("--tag", "tags"), ("--entity", "entities"), ("--file", "files")):
        for value in memory.get(key, []):
            args += [flag, str(root / value) if key == "files" else value]
    return args


def drafts(project: str) -> list[Draft]:
    """The scenario's memories as drafts for ``remember``."""
    return [
        Draft(
            m["text"],
            project=project,
            scope=m["scope"],
            files=m.get("files", []),
            kind=m.get("kind"),
            tags=m.get("tags", []),
            entities=m.get("entities", []),
            source="test",
        )
        for m in SCENARIO["memories"]
    ]


def keys(result: dict[str, Any]) -> list[str]:
    """The scenario keys of a recall result's memories, in order (unknown texts kept)."""
    return [TEXTS.get(m["text"].strip(), m["text"]) for m in result["memories"]]


def check(result: dict[str, Any]) -> None:
    """Assert the scenario's expectations on a recall result of its target."""
    expect = SCENARIO["expect"]
    found = keys(result)
    assert result["status"] == "ok", result
    assert found and found[0] == expect["first"], found
    assert set(expect["present"]) <= set(found), found
    assert not set(expect["absent"]) & set(found), found
    # Nothing excluded leaks, by text, tag or entity.
    for memory in result["memories"]:
        blob = " ".join([memory["text"], *memory.get("tags", []), *memory.get("entities", [])])
        assert "obsolete oauth prototype" not in blob.lower()
    assert result["dropped"]["excluded"] >= 1
    first = result["memories"][0]["recalled_by"][0]
    assert first["source"] and first["priority"] == 0.9


def first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


class Replay:
    """A stand-in SDK client that answers from recorded calls.

    ``calls``: ``[{"method", "query", "response"}]``; a call is answered with the
    recorded response of the same method whose query's first line (the hook's query,
    before any hint lines) is the same, else ``empty``. Every call is kept in
    ``self.seen`` as ``(method, kwargs)``. ``delay`` seconds are slept before answering,
    ``error`` is raised instead of answering.
    """

    def __init__(
        self,
        calls: list[dict[str, Any]],
        empty: Any = None,
        *,
        delay: float = 0.0,
        error: BaseException | None = None,
    ) -> None:
        self.calls = calls
        self.empty = empty
        self.delay = delay
        self.error = error
        self.seen: list[tuple[str, dict[str, Any]]] = []
        self.closed = False

    def __getattr__(self, method: str) -> Any:
        if method.startswith("__"):
            raise AttributeError(method)

        async def call(*args: Any, **kwargs: Any) -> Any:
            self.seen.append((method, {"args": list(args), **kwargs}))
            if self.delay:
                await asyncio.sleep(self.delay)
            if self.error is not None:
                raise self.error
            query = first_line(str(kwargs.get("query", "")))
            for recorded in self.calls:
                if recorded["method"] == method and first_line(recorded.get("query", "")) == query:
                    return recorded["response"]
            return self.empty

        return call

    async def aclose(self) -> None:
        self.closed = True


def recorded(backend: str) -> list[dict[str, Any]]:
    """The calls recorded from ``backend``'s real server."""
    data: dict[str, Any] = json.loads(
        (DATA / f"{backend}_responses.json").read_text(encoding="utf-8")
    )
    calls: list[dict[str, Any]] = data["calls"]
    return calls
