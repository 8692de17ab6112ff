"""Parallel ``memhooks note`` / ``memhooks event`` processes on one hook lose nothing, and
writers killed with SIGKILL at random moments never damage it.

Real subprocesses (``python -m memhooks``), real locks, real atomic replaces. Rounds and
time are bounded; the kill schedule uses a fixed seed.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import memhooks
from memhooks.maintain.atomic import is_temp_name
from memhooks.maintain.cues import auto_cue_text, file_name
from memhooks.maintain.roundtrip import load_hook
from memhooks.protocol.hookfile import validate_text

pytestmark = pytest.mark.skipif(os.name != "posix", reason="flock and SIGKILL")

ROOT_HOOK = "---\nschema: memhooks/v2\ninherits: true\n---\n"
NOTES_PER_ROUND = 32
ROUNDS = 2
MIXED_PER_ROUND = 12  # events and as many notes at once
KILLS = 24
KILL_BUDGET_S = 10.0


def env() -> dict[str, str]:
    full = dict(os.environ)
    src = str(Path(memhooks.__file__).resolve().parent.parent)
    full["PYTHONPATH"] = os.pathsep.join(filter(None, [src, full.get("PYTHONPATH")]))
    full["MEMHOOKS_AUTO_PATHS"] = "256"
    return full


def start(
    root: Path, *argv: str, payload: dict[str, object] | None = None
) -> subprocess.Popen[bytes]:
    """``python -m memhooks ARGV`` in ``root``, with ``payload`` as JSON on stdin."""
    if payload is None:
        stdin = subprocess.DEVNULL
    else:
        feed = root.parent / f"payload-{time.monotonic_ns()}.json"
        feed.write_text(json.dumps(payload), encoding="utf-8")
        stdin = feed.open("rb")  # type: ignore[assignment]
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "memhooks", *argv],
            cwd=root,
            env=env(),
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    finally:
        if payload is not None:
            stdin.close()  # type: ignore[union-attr]


def project(tmp_path: Path) -> Path:
    root = Path(os.path.realpath(tmp_path)) / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    return root


def queries(root: Path) -> list[object]:
    text = (root / "MEMHOOKS.md").read_text("utf-8")
    assert not [d for d in validate_text(text, "h") if d.is_error]
    _doc, tree = load_hook(text, "h")
    return list(tree.get("recall_queries") or [])


def texts(items: list[object]) -> set[str]:
    return {str(q["query"]) if isinstance(q, dict) else str(q) for q in items}


def test_parallel_notes_lose_nothing(tmp_path: Path) -> None:
    root = project(tmp_path)
    expected: set[str] = set()
    for round_ in range(ROUNDS):
        batch = [f"round {round_} note {i}: why?" for i in range(NOTES_PER_ROUND)]
        procs = [start(root, "note", "--query", text) for text in batch]
        for proc in procs:
            out, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err.decode()
            assert out.decode() == f"Updated {root}/MEMHOOKS.md\n"
        expected.update(batch)
        assert texts(queries(root)) == expected
    assert sorted(os.listdir(root)) == [".git", "MEMHOOKS.md"]


def test_parallel_events_and_notes_lose_nothing(tmp_path: Path) -> None:
    """Events anchoring distinct files of one folder race notes on the same hook (the
    root's, where only ``--anchor nearest`` puts a generated cue)."""
    root = project(tmp_path)
    files: list[str] = []
    notes: set[str] = set()
    for round_ in range(ROUNDS):
        batch = [f"r{round_}_{i}.py" for i in range(MIXED_PER_ROUND)]
        for name in batch:
            (root / name).write_text("x\n", encoding="utf-8")
        procs = [
            start(
                root,
                "event",
                "--anchor",
                "nearest",
                payload={"hook_event_name": "post_edit", "cwd": str(root), "files": [name]},
            )
            for name in batch
        ]
        fresh = {f"round {round_} mixed note {i}" for i in range(MIXED_PER_ROUND)}
        procs += [start(root, "note", "--query", text) for text in sorted(fresh)]
        for proc in procs:
            _out, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err.decode()
        files += batch
        notes |= fresh
        items = queries(root)
        cue = [q for q in items if isinstance(q, dict) and q["query"] == auto_cue_text(".")]
        assert len(cue) == 1
        assert sorted(n for n in map(file_name, cue[0]["resources"]) if n) == sorted(files)
        assert texts(items) == notes | {auto_cue_text(".")}


def test_killed_note_writers_leave_old_or_new(tmp_path: Path) -> None:
    """SIGKILL ``note`` processes at random moments: the hook always validates, holds every
    note whose process finished, and holds a killed process's note only whole."""
    root = project(tmp_path)
    # A larger hook makes each render and write take longer, so kills land mid-write.
    seed = [f"existing query {i} " + "padding " * 12 for i in range(150)]
    listed = "".join(f"  - {t.strip()}\n" for t in seed)
    (root / "MEMHOOKS.md").write_text(
        f"---\nschema: memhooks/v2\nrecall_queries:\n{listed}---\n", encoding="utf-8"
    )
    rng = random.Random(7)
    confirmed = {t.strip() for t in seed}
    # Kill moments spread over one whole run of `note`, measured here (machines differ).
    clock = time.monotonic()
    probe = start(root, "note", "--query", "probe")
    probe.communicate(timeout=60)
    span = time.monotonic() - clock
    confirmed.add("probe")
    started = time.monotonic()
    killed = landed = 0
    for i in range(KILLS):
        if time.monotonic() - started > KILL_BUDGET_S:
            break
        text = f"kill round {i}"
        proc = start(root, "note", "--query", text)
        time.sleep(rng.uniform(0.3, 1.2) * span)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            killed += 1
        proc.communicate(timeout=60)
        present = texts(queries(root))
        if proc.returncode == 0:
            confirmed.add(text)
        elif text in present:
            landed += 1  # killed after its rename: the new file, whole
            confirmed.add(text)
        assert present == confirmed
        leftovers = [n for n in os.listdir(root) if n not in (".git", "MEMHOOKS.md")]
        assert all(is_temp_name(n) for n in leftovers), leftovers
    assert killed >= 3
    # The next real write still works, whatever the kills left behind.
    done = start(root, "note", "--query", "after the kills")
    done.communicate(timeout=60)
    assert done.returncode == 0
    assert "after the kills" in texts(queries(root))
    print(f"{i + 1} note processes, {killed} killed, {landed} of them after their rename")
