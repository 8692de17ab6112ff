"""Many hook processes writing at once: no "database is locked", no lost writes."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import memhooks
from memhooks.errors import StoreError
from memhooks.store import MemoryStore

WRITERS = 16
WRITES = 20
READERS = 2

# Each write opens the store afresh, as a hook process does; all processes start at
# the same instant on a file that does not exist yet, so they also race to create it.
WORKER = """
import sys, time
from memhooks.store import MemoryStore
path, role, name, start, count = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), int(sys.argv[5])
while time.time() < start:
    time.sleep(0.001)
for i in range(count):
    with MemoryStore(path) as store:
        if role == "write":
            store.add("proj", f"{name} wrote note {i}", scope=name, tags=["load"], source=name)
        else:
            store.search("proj", "note wrote", limit=5)
            store.candidates_by_scope("proj", [name], [])
"""


def test_parallel_processes_never_lose_a_write(tmp_path: Path) -> None:
    path = tmp_path / "shared" / "memories.sqlite3"
    env = dict(os.environ)
    src = os.path.dirname(os.path.dirname(os.path.abspath(memhooks.__file__)))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [src, env.get("PYTHONPATH")]))
    start = time.time() + 1.0  # every interpreter is up and waiting by then
    roles = [("write", f"w{i}") for i in range(WRITERS)] + [
        ("read", f"r{i}") for i in range(READERS)
    ]
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(path), role, name, str(start), str(WRITES)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for role, name in roles
    ]
    failures = []
    for proc in procs:
        _, err = proc.communicate(timeout=60)
        if proc.returncode != 0:
            failures.append(err.strip().splitlines()[-1:])
    assert failures == []

    with MemoryStore(path) as store:
        memories = store.list("proj", limit=None)
        assert len(memories) == WRITERS * WRITES
        assert len({m.id for m in memories}) == WRITERS * WRITES
        for i in range(WRITERS):
            assert store.count("proj") == WRITERS * WRITES
            assert len(store.candidates_by_scope("proj", [f"w{i}"], [], limit=100)) == WRITES
        # The full-text index kept up with every write, too.
        assert len(store.search("proj", "wrote", limit=1000)) == WRITERS * WRITES


def test_many_first_opens_of_a_new_file_all_succeed(tmp_path: Path) -> None:
    # Threads, each with its own connection, hit the window between "is the file
    # empty?" and another opener's first migration far more often than processes do.
    errors: list[str] = []
    for attempt in range(30):
        path = tmp_path / f"new{attempt}.sqlite3"
        barrier = threading.Barrier(8)

        def open_once(path: Path = path, barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            try:
                MemoryStore(path).close()
            except StoreError as exc:
                errors.append(str(exc))

        threads = [threading.Thread(target=open_once) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
    assert errors == []
