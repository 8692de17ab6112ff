"""A FIFO in place of any file memhooks keeps — in its state folder (a blame entry, its
text, what its commits said, the names of its code, a session's snapshot and settled
cues, the chains, the store's marks), its cache folder (search lists, docstring-free
bytecode) or the clone's ``.git/memhooks`` (the root commit) — is a miss, not a wait
(newcomer17, newcomer18): each hook call still answers at once — they gave up at the
deadline on every call (MH043, "find what is slow") until the FIFO was removed by hand,
and ``memhooks why`` or ``recall`` hung for good."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

DATA = Path(__file__).parent / "data"
PAYLOADS = json.loads((DATA / "hook_payloads.json").read_text(encoding="utf-8"))


def _hook(project: dict[str, object], payload: str | dict[str, object], session: str) -> tuple[str, str, float]:  # fmt: skip
    raw = json.dumps(PAYLOADS[payload] if isinstance(payload, str) else payload)
    raw = raw.replace("{root}", str(project["root"])).replace("{session}", session)
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
        input=raw, capture_output=True, text=True, check=True, cwd=project["root"], timeout=60,
        env={**project["env"], "MEMHOOKS_HOOK_TIMEOUT_MS": "20000"},  # type: ignore[dict-item]
    )  # fmt: skip
    return done.stdout, done.stderr, time.monotonic() - started


def _import_history(project: dict[str, object]) -> None:
    env = project["env"]
    assert isinstance(env, dict)
    imported = subprocess.run([sys.executable, "-m", "memhooks", "history", "import"],
                              cwd=project["root"], env=env, capture_output=True, text=True,
                              check=False)  # fmt: skip
    assert imported.returncode == 0, imported.stderr
    past = os.stat(env["MEMHOOKS_STORE"]).st_mtime - 60  # settled, as minutes after it
    os.utime(env["MEMHOOKS_STORE"], (past, past))


def test_a_fifo_in_place_of_any_kept_state_file_is_a_miss_not_a_wait(
    project: dict[str, object], hashes: dict[str, str], tmp_path: Path
) -> None:
    _import_history(project)
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


PROMPT = {"session_id": "{session}", "cwd": "{root}", "hook_event_name": "UserPromptSubmit",
          "prompt": "why is the retry budget capped at four attempts?"}  # fmt: skip
EDITED = {**PAYLOADS["claude-pre-edit"], "hook_event_name": "PostToolUse", "tool_response": {}}


def test_a_fifo_in_place_of_cached_lists_the_root_commit_or_settled_cues_is_not_waited_for(
    project: dict[str, object], tmp_path: Path
) -> None:
    """newcomer18: the search lists (a prompt and a Read), ``.git/memhooks/root-commit``
    (every call that names the project) and a session's settled cues (an edit's
    maintenance) each made every call wait for the deadline."""
    _import_history(project)
    root, cache = Path(str(project["root"])), Path(os.environ["XDG_CACHE_HOME"]) / "memhooks"
    events = (PROMPT, "claude-read", "claude-pre-edit", EDITED)
    for payload in events:
        _hook(project, payload, "s0")
    past = time.time() - 60  # the hooks outside the racy window: the next edit settles
    for hook in (root / "MEMHOOKS.md", root / "retryx" / "MEMHOOKS.md"):
        os.utime(hook, (past, past))
    _hook(project, EDITED, "s0")
    kept = [*(cache / "search").glob("*.json"), root / ".git" / "memhooks" / "root-commit",
            *(tmp_path / "state" / "sessions").glob("*.cues")]  # fmt: skip
    assert len(kept) >= 3 and all(p.is_file() for p in kept), kept
    for file in kept:
        file.unlink()
        os.mkfifo(file)
    for payload in events:
        _out, err, took = _hook(project, payload, "s1")
        assert "MH043" not in err and took < 15, (payload, err)
    done = subprocess.run([sys.executable, "-m", "memhooks", "why", "retryx/retry.py:9-10"],
                          cwd=root, env=project["env"], capture_output=True, text=True,  # type: ignore[arg-type]
                          timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0 and "retryx/retry.py 9–10" in done.stdout, done.stderr
