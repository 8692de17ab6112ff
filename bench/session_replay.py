"""Replay benchmark tasks as Claude Code sessions through the real hook handler.

A task becomes one session with a fresh ``session_id`` (its own, never shared with
another task): ``UserPromptSubmit`` with the task's prompt, launched at the project
root, then a ``PostToolUse`` of a Read of each file the change touches (the task's
``active_files`` that exist at the split, in their order). Every payload goes through
:func:`call_hook` — the hook's fail-open entry, exactly the stdout a host reads — and
memory ids are read from that stdout as the model would see them
(:mod:`claude_host`). Variants, each with its own state directory:

* ``session``: the whole session, launched at the root (what a user gets);
* ``root``: the same ``UserPromptSubmit`` alone (today's prompt-time recall);
* ``oracle``: the same prompt with ``cwd`` = the task's folder, which no agent knows at
  prompt time: an upper bound, not a result.

Figures per variant (:func:`summarize`): ``delivered`` — the share of a task's cited
memories that reached the model at any point of the session (mean over tasks);
``mrr`` — over delivery order (every memory in the order it reached the model, across
all the session's hook outputs, first delivery only); ``recall@5`` / ``recall@10`` over
the same order; ``chars_mean`` / ``chars_median`` — characters of context delivered per
session (every delivery counted, repeats included); what the Reads added; repeats of one
memory in a session; hook calls, their median and slowest milliseconds, fail-open notes, and calls
slower than the host-side default deadline.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import claude_host

#: Seconds each in-process call may take: generous, so the deadline decides no figure.
TIME_S = 60.0
#: The hook's own default deadline (``memhooks.hook.deadline.DEFAULT_MS``), seconds.
HOST_DEADLINE_S = 3.0
#: ``MEMHOOKS_HOOK_TIMEOUT_MS`` for the subprocess variant (its allowed maximum).
PROCESS_TIMEOUT_MS = "60000"
VARIANTS = ("session", "root", "oracle")
_IDS = uuid.UUID("5e55104b-e4c8-4d0b-9a51-6d656d686f6b")


def call_hook(raw: bytes, env: dict[str, str], time_s: float = TIME_S) -> tuple[str, str | None]:
    """(stdout, stderr note) of one Claude Code hook call, in-process, through the
    hook's public fail-open entry (the one ``memhooks hook`` serves)."""
    from memhooks.hook.handler import handle

    reply = handle(raw, agent="claude-code", env=env, time_s=time_s)
    return reply.stdout, reply.note


def call_process(raw: bytes, env: dict[str, str], cwd: str) -> tuple[str, str | None]:
    """(stdout, stderr) of the real ``memhooks hook --agent claude-code`` command run
    as Claude Code runs it (fresh process in the project folder, payload on stdin)."""
    exe = os.path.join(os.path.dirname(sys.executable), "memhooks")
    done = subprocess.run(
        [exe, "hook", "--agent", "claude-code"], input=raw, env=env, cwd=cwd,
        capture_output=True, check=False,
    )  # fmt: skip
    return done.stdout.decode("utf-8"), done.stderr.decode("utf-8", "replace").strip() or None


def hook_env(base: dict[str, str], tmp: str, root: str, store: str) -> dict[str, str]:
    """The environment of every hook call: no inherited ``MEMHOOKS_*``, a sandboxed home,
    the bench's root and store, and ``CLAUDE_PROJECT_DIR`` as Claude Code sets it."""
    env = {k: v for k, v in base.items() if not k.startswith("MEMHOOKS_")}
    home = os.path.join(tmp, "home")
    for key, value in (
        ("HOME", home), ("XDG_CONFIG_HOME", os.path.join(home, ".config")),
        ("XDG_DATA_HOME", os.path.join(home, ".local", "share")),
        ("XDG_STATE_HOME", os.path.join(home, ".local", "state")),
        ("XDG_CACHE_HOME", os.path.join(tmp, "cache")),
        ("MEMHOOKS_ROOT", root), ("MEMHOOKS_STORE", store), ("CLAUDE_PROJECT_DIR", root),
        ("MEMHOOKS_HOOK_TIMEOUT_MS", PROCESS_TIMEOUT_MS),
    ):  # fmt: skip
        env[key] = value
    if base.get("MEMHOOKS_SEARCH"):
        env["MEMHOOKS_SEARCH"] = base["MEMHOOKS_SEARCH"]
    os.makedirs(home, exist_ok=True)
    return env


def payloads(variant: str, task: dict, root: str, folder: str) -> list[bytes]:
    """The payloads of ``task``'s session for ``variant``, in order."""
    session = claude_host.Session(
        folder if variant == "oracle" else root,
        session_id=str(uuid.uuid5(_IDS, f"{variant}/{task['id']}")),
    )
    out = [session.prompt(task["prompt"])]
    if variant == "session":
        out += [session.read(path) for path in reads(task, root)]
    return out


def reads(task: dict, root: str) -> list[str]:
    """Absolute paths of the task's ``active_files`` that exist (a file the change
    created cannot be read before it)."""
    paths = [os.path.join(root, *rel.split("/")) for rel in task.get("active_files", [])]
    return [p for p in paths if os.path.isfile(p)]


class Call:
    """One hook call as the model saw it."""

    __slots__ = ("chars", "event", "ids", "ms", "note", "stdout")

    def __init__(self, raw: bytes, stdout: str, note: str | None, ms: float) -> None:
        self.event = claude_host.event_of(raw)
        self.stdout = stdout
        self.note = note
        self.ms = ms
        text = claude_host.model_text(stdout, self.event)
        self.chars = len(text or "")
        self.ids = claude_host.memory_ids(text)


def replay(
    variant: str, task: dict, root: str, folder: str, env: dict[str, str], process: bool = False
) -> list[Call]:
    """Every call of ``task``'s ``variant`` session, in-process or (``process``) as real
    hook processes started in the launch folder."""
    launch = folder if variant == "oracle" else root
    env = dict(env, CLAUDE_PROJECT_DIR=launch)  # Claude Code names its launch folder
    if not process:
        os.environ.update(env)  # code that reads os.environ sees what a hook process would
    calls = []
    for raw in payloads(variant, task, root, folder):
        started = time.perf_counter()
        if process:
            stdout, note = call_process(raw, env, launch)
        else:
            stdout, note = call_hook(raw, env)
        calls.append(Call(raw, stdout, note, (time.perf_counter() - started) * 1000))
    return calls


def score(calls: list[Call], relevant: list[str]) -> dict[str, float]:
    """One session's figures (see the module docstring)."""
    order: list[str] = []
    by_read: set[str] = set()
    repeats = 0
    for call in calls:
        for memory in call.ids:
            if memory in order:
                repeats += 1
                continue
            order.append(memory)
            if call.event != "UserPromptSubmit":
                by_read.add(memory)
    wanted = set(relevant)
    n = len(wanted) or 1
    return {
        "delivered": len(wanted.intersection(order)) / n,
        "recall@5": len(wanted.intersection(order[:5])) / n,
        "recall@10": len(wanted.intersection(order[:10])) / n,
        "mrr": next((1.0 / (i + 1) for i, m in enumerate(order) if m in wanted), 0.0),
        "by_reads": len(wanted.intersection(by_read)) / n,
        "chars": sum(c.chars for c in calls),
        "read_chars": sum(c.chars for c in calls if c.event != "UserPromptSubmit"),
        "memories": len(order),
        "repeats": repeats,
        "reads": sum(1 for c in calls if c.event != "UserPromptSubmit"),
    }


def summarize(rows: list[dict[str, float]], calls: list[Call]) -> dict[str, object]:
    """Figures over all sessions of one variant."""
    n = len(rows) or 1

    def mean(key: str) -> float:
        return round(sum(r[key] for r in rows) / n, 4)

    chars = [r["chars"] for r in rows] or [0]
    notes = [c.note for c in calls if c.note]
    return {
        "delivered": mean("delivered"),
        "mrr": mean("mrr"),
        "recall@5": mean("recall@5"),
        "recall@10": mean("recall@10"),
        "delivered_by_reads": mean("by_reads"),
        "chars_mean": round(statistics.mean(chars), 1),
        "chars_median": round(statistics.median(chars), 1),
        "read_chars_mean": mean("read_chars"),
        "memories_per_session": mean("memories"),
        "sessions_with_repeats": sum(1 for r in rows if r["repeats"]),
        "repeated_deliveries": int(sum(r["repeats"] for r in rows)),
        "reads": int(sum(r["reads"] for r in rows)),
        "sessions": len(rows),
        "hook_calls": len(calls),
        "calls_ms_median": round(statistics.median(c.ms for c in calls), 2) if calls else 0,
        "calls_ms_max": round(max(c.ms for c in calls), 2) if calls else 0,
        "calls_over_host_deadline": sum(1 for c in calls if c.ms > HOST_DEADLINE_S * 1000),
        "calls_at_bench_deadline": sum(1 for c in calls if c.ms >= (TIME_S - 0.25) * 1000),
        "notes": len(notes),
        "note_samples": sorted(set(notes))[:3],
    }


def compare(inproc: list[Call], procs: list[Call]) -> dict[str, int]:
    """How a session's subprocess replay matches its in-process one, call by call."""
    same_stdout = sum(1 for a, b in zip(inproc, procs) if a.stdout.strip() == b.stdout.strip())
    same_ids = sum(1 for a, b in zip(inproc, procs) if a.ids == b.ids)
    return {"calls": len(procs), "same_stdout": same_stdout, "same_ids": same_ids,
            "length_mismatch": int(len(inproc) != len(procs))}  # fmt: skip
