"""The recall scenario every server backend runs (``data/scenario.json``). The answers
real servers gave to it are replayed by ``http_stub.py`` (``data/<backend>_http.json``,
written by ``servers/record.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memhooks.store.memory import Draft

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
