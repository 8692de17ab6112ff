"""A FIFO in place of any file memhooks keeps in its state folder (a blame entry, its
text, what its commits said, the names of its code, a session's snapshot, the chains and
the store's marks) is a miss, not a wait (newcomer17): the pre-tool Edit still tells the
decision behind the lines, at once — it gave up at the deadline on every call (MH043,
"find what is slow") until the FIFO was removed by hand — and the blame entry is kept
again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

DATA = Path(__file__).parent / "data"
PAYLOADS = json.loads((DATA / "hook_payloads.json").read_text(encoding="utf-8"))


def _hook(project: dict[str, object], name: str, session: str) -> tuple[str, str, float]:
    raw = json.dumps(PAYLOADS[name]).replace("{root}", str(project["root"]))
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
        input=raw.replace("{session}", session), capture_output=True, text=True, check=True,
        env={**project["env"], "MEMHOOKS_HOOK_TIMEOUT_MS": "20000"},  # type: ignore[dict-item]
        cwd=project["root"], timeout=60,
    )  # fmt: skip
    return done.stdout, done.stderr, time.monotonic() - started


def test_a_fifo_in_place_of_any_kept_file_is_a_miss_not_a_wait(
    project: dict[str, object], hashes: dict[str, str], tmp_path: Path
) -> None:
    imported = subprocess.run(
        [sys.executable, "-m", "memhooks", "history", "import"], cwd=project["root"],
        env=project["env"], capture_output=True, text=True, check=False,  # type: ignore[arg-type]
    )  # fmt: skip
    assert imported.returncode == 0, imported.stderr
    store = str(project["env"]["MEMHOOKS_STORE"])  # type: ignore[index]
    past = os.stat(store).st_mtime - 60  # settled, as minutes after the import
    os.utime(store, (past, past))
    _hook(project, "claude-read", "s0")
    _hook(project, "claude-pre-edit", "s1")  # the edit's own caches kept too
    state = tmp_path / "state"
    kept = sorted(
        p for p in state.rglob("*") if p.is_file() and not p.name.startswith("state.sqlite3")
    )
    names = {p.name for p in kept} | {p.suffix for p in kept}
    assert {".json", ".text", ".names", "_marks.json", "_quiet.json"} <= names, names
    for number, file in enumerate(kept):
        file.unlink()
        os.mkfifo(file)
        out, err, took = _hook(project, "claude-pre-edit", f"fifo{number}")
        assert "MH043" not in err and took < 15, (file.relative_to(state), err)
        assert hashes["decision"][:12] in out, (file.relative_to(state), err)
        if file.suffix == ".json" and file.parent.name == "blame":
            assert file.is_file(), file.name  # blamed again, and kept
