"""Measure what the development set's decisions do for a later session, through the real hook.

    python bench/conversations/measure.py [--json OUT] [--env KEY=VALUE]...

1. Plant the development set (``plant.py``): the project as the recorded sessions left
   it, and the hosts' session files in a sandboxed HOME.
2. ``memhooks transcripts import`` it (the real command) into a fresh store.
3. ``memhooks agents install --agent claude-code`` (the real installer, its default
   level: the user's settings); the hook commands it writes into
   ``~/.claude/settings.json`` are what each event runs, only for the events and tools it
   wires, each a fresh process in the launch folder.
4. For each task of ``tasks.json`` (one per decision) and each prompt — the bug report
   (shares words with the decision's chat) and the terse one (names only a failing test)
   — one Claude Code session launched at the root, on its own copy of the project:
   ``SessionStart``, ``UserPromptSubmit``, a ``Read`` of the test, a ``Read`` of the code,
   then the ``Edit`` of the decision's lines (``PreToolUse`` and ``PostToolUse``). What
   the model receives is read from each hook's stdout as Claude Code reads it
   (``bench/claude_host.py``). A third run per task, ``tool time only``, leaves the
   prompt's hook out: what the anchors alone bring when the Read and the Edit happen.

Per session: whether the current rule reached the model and at which step; **whole** (the
piece holding the rule arrived) or **partial** (some piece of the decision's sessions
arrived, the rule did not); a **stale** rule (the superseded one) arriving, and whether it
came before the current rule or without it; the conversation pieces of *other* sessions
delivered (noise), in the whole session and at the prompt alone; the characters the model
received in the session, and at the prompt alone. ``--env MEMHOOKS_RELEVANCE_FLOOR=off``
measures without the prompt-time floor (``memhooks.recall.floor``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import claude_host
from plant import plant

STEPS = ("SessionStart", "prompt", "Read test", "Read code", "PreToolUse Edit", "PostToolUse Edit")


def memhooks(env: dict[str, str], *args: str, cwd: Path) -> str:
    exe = Path(sys.executable).with_name("memhooks")
    done = subprocess.run(
        [str(exe), *args], env=env, cwd=cwd, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"memhooks {' '.join(args)} failed:\n{done.stderr}")
    return done.stdout


def environment(base: Path, home: Path, store: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMHOOKS_", "CLAUDE"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share"),
               XDG_STATE_HOME=str(home / ".local/state"), XDG_CACHE_HOME=str(base / "cache"),
               MEMHOOKS_STORE=str(store), GIT_CONFIG_NOSYSTEM="1")  # fmt: skip
    return env


def wired(home: Path) -> dict[str, list[tuple[str, str]]]:
    """``{event: [(matcher, command)]}`` from the user's ``~/.claude/settings.json``."""
    settings = json.loads((home / ".claude" / "settings.json").read_text(encoding="utf-8"))
    out: dict[str, list[tuple[str, str]]] = {}
    for event, groups in settings.get("hooks", {}).items():
        for group in groups:
            for hook in group.get("hooks", []):
                out.setdefault(event, []).append((group.get("matcher", ""), hook["command"]))
    return out


def fires(matcher: str, tool: str | None) -> bool:
    return tool is None or matcher in ("", "*") or re.fullmatch(matcher, tool) is not None


class Replay:
    """One session's payloads for a task, built from the recorded Claude Code ones."""

    def __init__(self, root: Path, task: dict[str, str], prompt: str) -> None:
        self.session = claude_host.Session(str(root), session_id=str(uuid.uuid4()))
        self.root, self.task, self.prompt = root, task, prompt

    def steps(self) -> list[tuple[str, str | None, bytes]]:
        """``(step label, tool name or None, payload)`` in order."""
        s, root, task = self.session, self.root, self.task
        start = claude_host.recorded("SessionStart")
        start.update(
            session_id=s.session_id, transcript_path=s.transcript, cwd=str(root), source="startup"
        )
        code = str(root / task["code"])
        edit = {
            "file_path": code,
            "old_string": task["old"],
            "new_string": task["new"],
            "replace_all": False,
        }
        pre = claude_host.recorded("PreToolUse")
        pre.update(session_id=s.session_id, transcript_path=s.transcript, cwd=str(root), tool_name="Edit",
                   tool_input=edit, prompt_id=s.prompt_id)  # fmt: skip
        post = dict(pre, hook_event_name="PostToolUse",
                    tool_response={"filePath": code, "oldString": task["old"], "newString": task["new"],
                                   "originalFile": "", "structuredPatch": [], "userModified": False})  # fmt: skip
        return [
            ("SessionStart", None, claude_host.encode(start)),
            ("prompt", None, s.prompt(self.prompt)),
            ("Read test", "Read", s.read(str(root / task["test"]))),
            ("Read code", "Read", s.read(code)),
            ("PreToolUse Edit", "Edit", claude_host.encode(pre)),
            ("PostToolUse Edit", "Edit", claude_host.encode(post)),
        ]


def run_session(
    project: Path, base: Path, env: dict[str, str], hooks: dict[str, list[tuple[str, str]]],
    task: dict[str, str], prompt: str, n: int, skip: tuple[str, ...] = (),
) -> list[dict[str, object]]:  # fmt: skip
    """Play one session on a fresh copy of the project; one row per hook output the model
    received: ``{step, text, ms}``."""
    root = base / f"session-{n}" / "uptime"
    shutil.copytree(project, root, symlinks=True)
    env = dict(env, CLAUDE_PROJECT_DIR=str(root), MEMHOOKS_STATE_DIR=str(base / f"state-{n}"))
    got: list[dict[str, object]] = []
    for step, tool, raw in Replay(root, task, prompt).steps():
        if step in skip:
            continue
        event = claude_host.event_of(raw)
        if step == "PostToolUse Edit":  # the edit happened between the two events
            path = root / task["code"]
            path.write_text(
                path.read_text(encoding="utf-8").replace(task["old"], task["new"]), encoding="utf-8"
            )
        for matcher, command in hooks.get(event, []):
            if not fires(matcher, tool):
                continue
            started = time.perf_counter()
            done = subprocess.run(
                ["bash", "-c", command],
                input=raw,
                env=env,
                cwd=root,
                capture_output=True,
                check=False,
            )
            ms = (time.perf_counter() - started) * 1000
            text = claude_host.model_text(done.stdout.decode("utf-8"), event)
            got.append({"step": step, "text": text or "", "ms": ms})
    return got


def score(
    task: dict[str, str], got: list[dict[str, object]], pieces: dict[str, dict[str, str]]
) -> dict[str, object]:
    """The figures of one session (see the module docstring)."""
    ids_seen: list[tuple[str, str]] = []
    for row in got:
        for memory_id in claude_host.memory_ids(str(row["text"])):
            ids_seen.append((memory_id, str(row["step"])))
    order = [m for m, _ in ids_seen]
    mine = [m for m in order if pieces.get(m, {}).get("session") in task["sessions"]]
    rule_at = next(
        (i for i, m in enumerate(order) if task["rule"] in pieces.get(m, {}).get("text", "")), None
    )
    stale_at = None
    if task.get("stale"):
        stale_at = next(
            (i for i, m in enumerate(order) if task["stale"] in pieces.get(m, {}).get("text", "")),
            None,
        )
    noise = [m for m in order if m in pieces and pieces[m]["session"] not in task["sessions"]]
    at_prompt = {m for m, step in ids_seen if step == "prompt"}
    return {
        "delivered": rule_at is not None,
        "step": ids_seen[rule_at][1] if rule_at is not None else None,
        "partial": rule_at is None and bool(mine),
        "stale": stale_at is not None,
        "stale_first": stale_at is not None and (rule_at is None or stale_at < rule_at),
        "noise": len(set(noise)),
        "noise_at_prompt": len(set(noise) & at_prompt),
        "prompt_chars": sum(len(str(r["text"])) for r in got if r["step"] == "prompt"),
        "pieces": len(set(order) & set(pieces)),
        "memories": len(set(order)),
        "chars": sum(len(str(r["text"])) for r in got),
        "ms": [float(r["ms"]) for r in got],  # type: ignore[arg-type]
    }


def summarize(rows: list[dict[str, object]]) -> dict[str, object]:
    n = len(rows)
    ms = sorted(m for r in rows for m in r["ms"])  # type: ignore[attr-defined]
    steps = {s: sum(r["step"] == s for r in rows) for s in STEPS}
    return {
        "sessions": n,
        "delivered": sum(bool(r["delivered"]) for r in rows),
        "by_step": {k: v for k, v in steps.items() if v},
        "partial": sum(bool(r["partial"]) for r in rows),
        "stale": sum(bool(r["stale"]) for r in rows),
        "stale_first_or_alone": sum(bool(r["stale_first"]) for r in rows),
        "noise_pieces_mean": round(statistics.mean(r["noise"] for r in rows), 2),  # type: ignore[misc]
        "noise_at_prompt_mean": round(statistics.mean(r["noise_at_prompt"] for r in rows), 2),  # type: ignore[misc]
        "prompt_chars_mean": round(statistics.mean(r["prompt_chars"] for r in rows)),  # type: ignore[misc]
        "chars_mean": round(statistics.mean(r["chars"] for r in rows)),  # type: ignore[misc]
        "chars_median": statistics.median(r["chars"] for r in rows),  # type: ignore[misc]
        "hook_ms_p50": round(statistics.median(ms), 1) if ms else None,
        "hook_ms_max": round(ms[-1], 1) if ms else None,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="write every session's figures here")
    parser.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                        help="a setting for every memhooks process (repeatable)")  # fmt: skip
    args = parser.parse_args()
    tasks = json.loads((HERE / "tasks.json").read_text(encoding="utf-8"))
    manifest = json.loads((HERE / "recorded" / "manifest.json").read_text(encoding="utf-8"))
    by_session = {v["session"]: k for k, v in manifest.items()}
    with tempfile.TemporaryDirectory(prefix="memhooks-measure-") as tmp:
        base = Path(tmp)
        project, home = plant(base)
        env = environment(base, home, base / "store.sqlite3")
        env.update(item.split("=", 1) for item in args.env)
        imported = json.loads(
            memhooks(env, "transcripts", "import", str(project), "--format", "json", cwd=project)
        )
        memhooks(
            env, "agents", "install", "--agent", "claude-code", "--cwd", str(project), cwd=project
        )
        hooks = wired(home)
        listing = json.loads(
            memhooks(
                env,
                "memories",
                "list",
                "--all",
                "--limit",
                "0",
                "--format",
                "json",
                "--cwd",
                str(project),
                cwd=project,
            )
        )
        pieces = {m["id"]: {"text": m["text"], "session": by_session.get(m["source"].split(":", 2)[2], "?")}
                  for m in listing if m.get("kind") == "conversation"}  # fmt: skip
        rows: dict[str, list[dict[str, object]]] = {
            "bug report": [],
            "terse": [],
            "tool time only": [],
        }
        detail = []
        n = 0
        for task in tasks:
            for variant, key in (
                ("bug report", "bug"),
                ("terse", "terse"),
                ("tool time only", "terse"),
            ):
                n += 1
                skip = ("prompt",) if variant == "tool time only" else ()
                got = run_session(project, base, env, hooks, task, task[key], n, skip)
                figures = score(task, got, pieces)
                rows[variant].append(figures)
                detail.append(
                    {
                        "task": task["id"],
                        "variant": variant,
                        **{k: v for k, v in figures.items() if k != "ms"},
                    }
                )
    out = {
        "import": {k: imported[k] for k in ("sessions", "added", "superseded", "by_host")},
        "wired": {event: [m for m, _ in pairs] for event, pairs in hooks.items()},
        **{variant: summarize(r) for variant, r in rows.items()},
    }
    print(json.dumps(out, indent=1))
    for row in detail:
        print(json.dumps(row), file=sys.stderr)
    if args.json:
        args.json.write_text(
            json.dumps({"summary": out, "sessions": detail}, indent=1) + "\n", encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
