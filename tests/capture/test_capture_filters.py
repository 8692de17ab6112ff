"""The filters: minimum length, cooldown per kind and folder, duplicates — across processes."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from capture_support import memories

from memhooks.agents import NormalizedEvent
from memhooks.capture import DEFAULT_POLICY, Policy, observe, record, similar
from memhooks.store import MemoryStore

Claude = Callable[..., NormalizedEvent]
PAIRS = json.loads((Path(__file__).parent / "data" / "near_duplicates.json").read_text("utf-8"))[
    "pairs"
]


def test_the_same_prompt_ten_times_is_one_memory(
    claude: Claude, store_path: str, project: Path, capture_on: str
) -> None:
    prompt = "Never commit generated protobuf files; regenerate them in CI instead."
    written = [
        observe(
            claude("UserPromptSubmit", prompt=prompt), store_path=store_path, now=1000.0 + 45 * i
        )
        for i in range(10)
    ]
    assert [len(ids) for ids in written] == [1] + [0] * 9
    assert len(memories(store_path, project)) == 1


def test_reworded_copy_is_a_duplicate_and_a_new_fact_is_not(
    claude: Claude, store_path: str, project: Path, capture_on: str
) -> None:
    first = record(
        claude("UserPromptSubmit", prompt="Never commit .env files."),
        store_path=store_path,
        now=1000.0,
    )
    again = record(
        claude("UserPromptSubmit", prompt="never commit .ENV files!"),
        store_path=store_path,
        now=2000.0,
    )
    other = record(
        claude("UserPromptSubmit", prompt="Never commit node_modules."),
        store_path=store_path,
        now=3000.0,
    )
    assert len(first.ids) == 1
    assert again.ids == [] and again.dropped == [
        ("constraint", "duplicate", "never commit .ENV files!")
    ]
    assert len(other.ids) == 1


def _observe_in_a_new_process(
    project: Path, store_path: str, settings: str, prompt: str, now: float
) -> dict[str, object]:
    script = (
        "import json, sys\n"
        "from memhooks.agents import normalize\n"
        "from memhooks.capture import record\n"
        "payload, store, settings, now = json.loads(sys.argv[1])\n"
        "o = record(normalize(payload, host='claude-code'), store_path=store, now=now, settings_path=settings)\n"
        "print(json.dumps({'ids': o.ids, 'dropped': [d[1] for d in o.dropped]}))\n"
    )
    payload = {
        "hook_event_name": "UserPromptSubmit",
        "session_id": "p",
        "cwd": str(project),
        "prompt": prompt,
    }
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps([payload, store_path, settings, now])],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_cooldown_holds_across_separate_processes(
    project: Path, store_path: str, capture_on: str
) -> None:
    first = _observe_in_a_new_process(
        project, store_path, capture_on, "We decided to use Redis for the limiter.", 1000.0
    )
    soon = _observe_in_a_new_process(
        project, store_path, capture_on, "Always run ruff format before committing.", 1010.0
    )
    other_kind = _observe_in_a_new_process(
        project, store_path, capture_on, "We decided to keep Postgres for billing.", 1020.0
    )
    later = _observe_in_a_new_process(
        project, store_path, capture_on, "Never log the raw Authorization header.", 1045.0
    )
    assert len(first["ids"]) == 1  # type: ignore[arg-type]
    assert len(soon["ids"]) == 1  # type: ignore[arg-type]  # a constraint: a kind of its own
    assert other_kind == {
        "ids": [],
        "dropped": ["cooldown"],
    }  # a second decision 20 s after the first
    assert len(later["ids"]) == 1  # type: ignore[arg-type]


def test_cooldown_is_per_folder(
    claude: Claude, store_path: str, project: Path, capture_on: str
) -> None:
    (project / "api").mkdir()
    root = claude("UserPromptSubmit", prompt="We decided to use Redis for the limiter.")
    sub = claude(
        "UserPromptSubmit",
        prompt="We decided to keep Postgres for billing.",
        cwd=str(project / "api"),
    )
    assert len(observe(root, store_path=store_path, now=1000.0)) == 1
    assert len(observe(sub, store_path=store_path, now=1005.0)) == 1
    assert [m.scope for m in memories(store_path, project)] == ["", "api"]


def test_short_statements_are_dropped_as_too_short(
    claude: Claude, store_path: str, capture_on: str
) -> None:
    strict = Policy({**DEFAULT_POLICY.min_chars, "constraint": 300}, DEFAULT_POLICY.cooldown_s)
    outcome = record(
        claude("UserPromptSubmit", prompt="Never commit .env files."),
        store_path=store_path,
        now=1.0,
        policy=strict,
    )
    assert outcome.ids == [] and outcome.dropped == [
        ("constraint", "short", "Never commit .env files.")
    ]


def test_forgotten_memories_are_not_captured_again(
    claude: Claude, store_path: str, project: Path, capture_on: str
) -> None:
    event = claude("UserPromptSubmit", prompt="Never commit .env files.")
    [memory_id] = observe(event, store_path=store_path, now=1000.0)
    with MemoryStore(store_path) as store:
        assert store.forget(memory_id)
    assert observe(event, store_path=store_path, now=5000.0) == []


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{p['same']}:{p['a'][:30]}")
def test_near_duplicate_pairs_at_the_shipped_threshold(pair: dict[str, object]) -> None:
    a, b = str(pair["a"]), str(pair["b"])
    if a.startswith("Session of"):
        a = a.split("\n", 1)[1]  # records are compared without their heading line
    estimated = similar.similarity(similar.sketch(a), similar.sketch(b))
    assert estimated == pytest.approx(similar.jaccard(a, b))  # short texts: the sketch is exact
    if pair["same"]:
        # Known misses (documented): a changed word in a very short sentence, an IP and port.
        if estimated <= similar.THRESHOLD:
            pytest.xfail(f"near-duplicate below the threshold ({estimated:.2f})")
    else:
        assert estimated <= similar.THRESHOLD, "a pair that says something new must never merge"


def test_sketch_estimate_is_close_for_long_texts() -> None:
    words = [f"w{i}" for i in range(400)]
    a = " ".join(words)
    b = " ".join(words[:380] + [f"x{i}" for i in range(20)])
    assert similar.similarity(similar.sketch(a), similar.sketch(b)) == pytest.approx(
        similar.jaccard(a, b), abs=0.1
    )


def test_parallel_processes_capture_one_copy(
    project: Path, store_path: str, capture_on: str
) -> None:
    script = (
        "import json, sys\n"
        "from memhooks.agents import normalize\n"
        "from memhooks.capture import observe\n"
        "payload, store, settings = json.loads(sys.argv[1])\n"
        "print(len(observe(normalize(payload, host='claude-code'), store_path=store, now=1000.0, settings_path=settings)))\n"
    )
    payload = {
        "hook_event_name": "UserPromptSubmit",
        "session_id": "p",
        "cwd": str(project),
        "prompt": "Never commit generated protobuf files.",
    }
    argv = [sys.executable, "-c", script, json.dumps([payload, store_path, capture_on])]
    MemoryStore(
        store_path
    ).close()  # the file exists, so the processes race on the capture tables too
    running = [subprocess.Popen(argv, stdout=subprocess.PIPE, text=True) for _ in range(8)]
    written = sorted(int(p.communicate()[0]) for p in running)
    assert written == [0] * 7 + [1]
    assert len(memories(store_path, project)) == 1
