"""The symbol cue on the conversations' development set (bench/conversations: recorded
agent sessions of a small uptime project and the decisions they reached, tasks.json):
for each decision, the names of the lines its task edits (the enclosing function, the
file's constants they use) find a piece of that decision's sessions among the two told —
by those names alone, with every piece's file anchors taken away (a note or a chat about
another checkout names no file here) — and never the pieces of sessions that decided
nothing a task is about."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from memhooks.backends.embedded import EmbeddedBackend
from memhooks.recall.symbol_recall import LIMIT, Cue, find
from memhooks.store import MemoryStore, identify
from memhooks.symbols import symbols_at
from memhooks.transcripts import import_transcripts
from memhooks.workspace import locate

BENCH = Path(__file__).parents[2] / "bench" / "conversations"
TASKS = json.loads((BENCH / "tasks.json").read_text(encoding="utf-8"))
MANIFEST = json.loads((BENCH / "recorded" / "manifest.json").read_text(encoding="utf-8"))
SESSION_OF = {entry["session"]: name for name, entry in MANIFEST.items()}
#: Sessions that reached no decision of the tasks (a CI workflow, README typos, type hints,
#: an explanation, a version bump and "why is Window a dataclass?").
UNRELATED = set(MANIFEST) - {name for task in TASKS for name in task["sessions"]}


@pytest.fixture(scope="module")
def devset(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, MemoryStore]:
    sys.path.insert(0, str(BENCH))
    from plant import plant

    base = tmp_path_factory.mktemp("devset")
    project, home = plant(base)
    where = locate(str(project))
    with MemoryStore(str(base / "imported.sqlite3")) as imported:
        import_transcripts(imported, where, env={"HOME": str(home)})
        live = imported.list(where.project, limit=None)
    store = MemoryStore(str(base / "store.sqlite3"))  # the same live pieces, with no file
    for piece in live:
        store.add(where.project, piece.text, kind=piece.kind, entities=piece.entities,
                  source=piece.source, id=piece.id)  # fmt: skip
    return project.resolve(), store


def _source(store: MemoryStore, project: Path, id: str) -> str:
    memory = store.get(id, project=identify(str(project)).id)
    assert memory is not None
    return memory.source.split(":", 2)[2]  # transcript:<host>:<session>


@pytest.mark.parametrize("task", TASKS, ids=[t["id"] for t in TASKS])
def test_the_names_of_the_edited_lines_find_the_decision(
    task: dict[str, str], devset: tuple[Path, MemoryStore]
) -> None:
    project, store = devset
    text = (project / task["code"]).read_text(encoding="utf-8")
    first = text[: text.index(task["old"])].count("\n") + 1
    lines = [(first, first + task["old"].count("\n") - 1)]
    cue = Cue.of(task["code"], symbols_at(task["code"], text, lines))
    assert cue is not None
    found = find(EmbeddedBackend(store), identify(str(project)).id, cue)
    sessions = [SESSION_OF[_source(store, project, m.id)] for m in found]
    assert len(found) <= LIMIT
    assert set(sessions) & set(task["sessions"]), (cue.names, sessions)
    assert not set(sessions) & UNRELATED
