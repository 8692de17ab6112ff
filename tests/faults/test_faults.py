"""Clean by default, never silent, nothing accepted then lost — under faults (issue 22
items 1-3). See conftest.py for how to run it and what it reports."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from permissions import fill

ROOT_HOOK = (
    '---\nschema: memhooks/v2\nrecall_queries: ["What constraints apply to every change?"]\n---\n'
)
MARKER = "FAULT-MARK"
FOLDERS = [
    "src/requests",
    "src/requests/adapters",
    ".github/workflows",
    "docs",
    "tests/unit",
    "tools",
]
HOOK = [sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"]
#: Sessions whose every other write is killed at a random moment.
KILL_ROUNDS = int(os.environ.get("MEMHOOKS_FAULTS_KILL_ROUNDS", "8"))


class Figures:
    def __init__(self) -> None:
        self.faults = 0
        self.killed = 0  # hook processes SIGKILLed while they ran
        self.accepted = 0
        self.lost: list[str] = []
        self.tracebacks: list[str] = []
        self.extra_git: list[str] = []
        self.silent: list[str] = []  # a fault the user could not see (no stderr, no reply)

    def report(self) -> str:
        return (
            f"faults tried: {self.faults} ({self.killed} hook processes killed or out of time"
            " mid-call); "
            f"updates accepted: {self.accepted}; "
            f"updates lost: {len(self.lost)}; tracebacks: {len(self.tracebacks)}; "
            f"git status lines beyond the agent's edits: {len(self.extra_git)}; "
            f"silent failures: {len(self.silent)}"
        )


FIGURES = Figures()


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), "-c", "user.name=f", "-c", "user.email=f@f", *args],
                          capture_output=True, text=True, check=True).stdout  # fmt: skip


def project(base: Path) -> tuple[Path, dict[str, str]]:
    from memhooks.store import MemoryStore, project_id

    root = base / "proj"
    root.mkdir()
    git(root, "init", "-q")
    (root / "MEMHOOKS.md").write_text(ROOT_HOOK, encoding="utf-8")
    (root / "README.md").write_text("readme\n", encoding="utf-8")
    for folder in FOLDERS:
        (root / folder).mkdir(parents=True, exist_ok=True)
        (root / folder / "keep.txt").write_text("x\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    store = base / "store" / "memories.sqlite3"
    with MemoryStore(str(store)) as s:
        s.add(project_id(str(root.resolve())), f"{MARKER}: every change needs a changelog line")
    home = base / "home"
    home.mkdir()
    run = base / "run"
    run.mkdir(mode=0o700)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMHOOKS_", "XDG_"))}
    env.update(HOME=str(home), XDG_RUNTIME_DIR=str(run), MEMHOOKS_STORE=str(store),
               MEMHOOKS_STATE_DIR=str(base / "state"), MEMHOOKS_HOOK_TIMEOUT_MS="10000",
               MEMHOOKS_AUTO_PATHS="256")  # a cue keeps every file: none drops out by the cap  # fmt: skip
    (base / "state").mkdir()
    return root.resolve(), env


def call(
    root: Path, env: dict[str, str], payload: dict[str, object], kill_after: float | None = None
) -> tuple[str, str, bool]:
    """One hook call as the host makes it: (stdout, stderr, killed)."""
    body = json.dumps(
        {"session_id": "S", "cwd": str(root), "transcript_path": "/dev/null", **payload}
    )
    proc = subprocess.Popen(HOOK, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, cwd=root, text=True)  # fmt: skip
    if kill_after is None:
        out, err = proc.communicate(body, timeout=120)
        killed = False
    else:
        assert proc.stdin is not None
        proc.stdin.write(body)
        proc.stdin.close()
        proc.stdin = None  # written and closed: communicate() only reads
        time.sleep(kill_after)
        killed = proc.poll() is None
        if killed:
            proc.send_signal(signal.SIGKILL)
            FIGURES.killed += 1
        out, err = proc.communicate(timeout=120)
    if "Traceback" in err or "Traceback" in out:
        FIGURES.tracebacks.append(err[-500:])
    return out, err, killed


def write(
    root: Path, env: dict[str, str], rel: str, session: str, kill_after: float | None = None
) -> tuple[str, str, bool]:
    """The agent writes ``rel``, then the host runs the hook's PostToolUse."""
    path = root / rel
    path.write_text(f"# {rel}\n", encoding="utf-8")
    payload = {"hook_event_name": "PostToolUse", "tool_name": "Write", "session_id": session,
               "tool_input": {"file_path": str(path), "content": f"# {rel}\n"},
               "tool_response": {"type": "create", "filePath": str(path)}}  # fmt: skip
    return call(root, env, payload, kill_after)


def prompt(
    root: Path, env: dict[str, str], text: str, session: str = "S", cwd: str = ""
) -> tuple[str, str]:
    payload = {"hook_event_name": "UserPromptSubmit", "prompt": text, "session_id": session,
               "cwd": str(root / cwd) if cwd else str(root)}  # fmt: skip
    out, err, _ = call(root, env, payload)
    return out, err


def journaled(env: dict[str, str]) -> int:
    path = Path(env["MEMHOOKS_STATE_DIR"]) / "state.sqlite3"
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return int(conn.execute("SELECT count(*) FROM journal").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def settle_and_check(
    root: Path, env: dict[str, str], written: list[tuple[str, str]], edits: set[str]
) -> None:
    """After the faults: one more hook call of the project (it applies what is pending),
    then every accepted update is in its folder's hook or was reported lost; git status
    shows only the agent's files."""
    prompt(root, env, "and now?", session="S-final")
    for rel, said in written:
        hook = root / os.path.dirname(rel) / "MEMHOOKS.md"
        text = hook.read_text(encoding="utf-8") if hook.exists() else ""
        if f"name: {rel}\n" not in text and "lost" not in said:
            FIGURES.lost.append(f"{rel}: {said[-200:]}")
    status = [line[3:] for line in git(root, "status", "--porcelain", "-uall").splitlines()]
    FIGURES.extra_git += [s for s in status if s not in edits]


@contextmanager
def mounted(folder: Path, how: str) -> Iterator[None]:
    if how == "ro":
        subprocess.run(["mount", "--bind", str(folder), str(folder)], check=True)
        subprocess.run(["mount", "-o", "remount,ro,bind", str(folder)], check=True)
    else:  # a 256 KiB tmpfs, filled
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(folder)], check=True
        )
    try:
        yield
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


def session(
    root: Path, env: dict[str, str], tag: str, edits: set[str], kills: bool = False
) -> list[tuple[str, str]]:
    """A session: a prompt, then writes in every folder (and one at the root); with
    ``kills`` some hook processes are killed at a random moment. Returns (file, stderr)
    of each write whose update the hook accepted."""
    out, err = prompt(root, env, "what constraints apply to every change?", session=tag)
    if MARKER not in out:
        FIGURES.silent.append(f"{tag}: the prompt recalled nothing ({err.strip()[:200]})")
    accepted = []
    rng = random.Random(f"{os.environ.get('MEMHOOKS_FAULTS_SEED', '22')}:{tag}")
    for n, folder in enumerate([*FOLDERS, ""]):
        rel = f"{folder}/{tag}-{n}.py" if folder else f"{tag}-{n}.py"
        edits.add(rel)
        before = journaled(env)
        # A hook call takes some 50-100 ms here: most kills land inside it.
        kill_after = rng.uniform(0.005, 0.1) if kills and n % 2 == 0 else None
        if kill_after is not None:
            FIGURES.faults += 1
        _out, err, killed = write(root, env, rel, tag, kill_after)
        if killed and journaled(env) <= before:
            continue  # killed before it accepted anything: the host saw no answer
        if folder:  # the root folder gets no generated cue
            FIGURES.accepted += 1
            accepted.append((rel, err))
    return accepted


def deadline_writes(root: Path, env: dict[str, str], edits: set[str]) -> list[tuple[str, str]]:
    """Writes in folders whose hook lock another writer holds: the hook accepts the
    update, waits for the lock, and its watchdog ends the process at the deadline (as a
    host's timeout would). Returns the writes whose update the hook accepted."""
    import fcntl

    short = {**env, "MEMHOOKS_HOOK_TIMEOUT_MS": "1000"}
    accepted = []
    for n, folder in enumerate(FOLDERS):
        rel = f"{folder}/deadline-{n}.py"
        edits.add(rel)
        held = os.open(root / folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(held, fcntl.LOCK_EX)  # what memhooks' hook lock takes
            _out, err, _killed = write(root, short, rel, "deadline")
        finally:
            os.close(held)
        if "gave up after" in err:
            FIGURES.faults += 1
            FIGURES.killed += 1
        # counted accepted: the hook journals an update before it waits for the lock
        FIGURES.accepted += 1
        accepted.append((rel, err))
    return accepted


def test_sessions_under_faults_lose_nothing_and_leave_git_clean(tmp_path: Path) -> None:
    root, env = project(tmp_path)
    edits: set[str] = set()
    written: list[tuple[str, str]] = []
    written += session(root, env, "plain", edits)
    state = Path(env["MEMHOOKS_STATE_DIR"])
    store = Path(env["MEMHOOKS_STORE"]).parent

    FIGURES.faults += 1  # a read-only state folder
    with mounted(state, "ro"):
        written += session(root, env, "rostate", edits)
    FIGURES.faults += 1  # a full state disk
    with mounted(state, "full"):
        call(
            root, env, {"hook_event_name": "UserPromptSubmit", "prompt": "warm up"}
        )  # the state file made
        fill(state)
        written += session(root, env, "fullstate", edits)
    FIGURES.faults += 1  # a read-only store
    with mounted(store, "ro"):
        written += session(root, env, "rostore", edits)
    FIGURES.faults += 1  # a damaged state file between calls
    path = state / "state.sqlite3"
    if path.exists():
        with open(path, "r+b") as fp:
            fp.seek(100)
            fp.write(os.urandom(4096))
    written += session(root, env, "damaged", edits)
    FIGURES.faults += 1  # a broken hook in the chain
    bad = root / "docs" / "MEMHOOKS.md"
    saved = bad.read_bytes() if bad.exists() else None
    bad.write_bytes(os.urandom(300))
    out, err = prompt(
        root, env, "what constraints apply to every change?", session="S-bad", cwd="docs"
    )
    if MARKER not in out or "skipped an invalid hook" not in err:
        FIGURES.silent.append(f"broken hook: {err[:200]}")
    if saved is None:
        bad.unlink()
    else:
        bad.write_bytes(saved)
    for round_ in range(KILL_ROUNDS):  # SIGKILL at random moments
        written += session(root, env, f"kill{round_}", edits, kills=True)
    written += deadline_writes(root, env, edits)
    settle_and_check(root, env, written, edits)
    print("\n" + FIGURES.report())
    assert FIGURES.lost == [], FIGURES.lost
    assert FIGURES.tracebacks == [], FIGURES.tracebacks
    assert FIGURES.extra_git == [], FIGURES.extra_git
    assert FIGURES.silent == [], FIGURES.silent
