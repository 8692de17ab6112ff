"""Launcher benchmark (issue 24): the hook command ``memhooks agents install`` writes
(the per-user launcher, ``memhooks.install.launcher``: ``/bin/sh`` then the interpreter
with ``-S`` on ``__main__.py``) against the direct command it replaced (the interpreter
with ``-S`` on ``__main__.py``, named in the host's config).

Interleaved in one run, fresh processes with a Claude Code payload on stdin, in the
synthetic project of ``bench_recall.py`` (10,000 memories, a 6-hook chain to the deepest
folder; built in a temporary directory, as ``bench_hook.py`` does): a bare ``python -c
pass`` of the same interpreter, then per command the ``PreToolUse`` no-op (the floor
every hook call pays) and the first prompt of a fresh session in the deepest folder
(``warm``: the usual prompt). Reported: median and fastest wall ms of each, and ratios
to the bare interpreter's median and fastest; the same for CPU ms (user + system of the
process, by ``wait4``: on a machine shared with other jobs the wall time mostly measures
the queue, the CPU time what the command itself costs); the load average::

    .venv/bin/python bench/bench_launcher.py [--runs 61] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench_hook import child, spawn
from bench_recall import PROMPTS, Writer, age_hooks, build_synthetic
from claude_host import Session, recorded

COMMANDS = ("direct", "launcher")
CASES = ("noop", "warm")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=61)
    parser.add_argument("--json", metavar="OUT")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMHOOKS_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    from memhooks.install import Context, launcher
    from memhooks.install.command import hook_program
    from memhooks.store import MemoryStore, project_id

    with tempfile.TemporaryDirectory() as tmp:
        tmp = os.path.realpath(tmp)
        store = os.path.join(tmp, "memories.sqlite3")
        for key, value in (
            ("XDG_CACHE_HOME", os.path.join(tmp, "cache")),
            ("XDG_DATA_HOME", os.path.join(tmp, "data")),
            ("MEMHOOKS_STORE", store),
            ("MEMHOOKS_STATE_DIR", os.path.join(tmp, "state")),
            ("HOME", tmp),
        ):
            os.environ[key] = env[key] = value
        project = os.path.join(tmp, "synthetic")
        deepest, lines = build_synthetic(project, Writer(random.Random(4)))
        subprocess.run(["git", "init", "-q", project], check=True)
        age_hooks(project)
        with MemoryStore(store) as opened:
            opened.import_jsonl(project_id(project), [json.dumps(line) for line in lines])
        ctx = Context(project, "user", home=tmp, env=env)
        from memhooks.install import apply

        apply(launcher.plan(ctx))
        assert ctx.launcher is not None and launcher.state(ctx.launcher, env) == launcher.OK
        argv = {
            "direct": [
                *hook_program([sys.executable, "-m", "memhooks"]),
                "hook",
                "--agent",
                "claude-code",
            ],
            "launcher": [ctx.launcher, "hook", "--agent", "claude-code"],
        }
        noop = dict(recorded("PreToolUse"), cwd=deepest)
        for command in COMMANDS:  # bytecode, caches
            for number in range(3):
                child(argv[command], dict(env, MEMHOOKS_HOOK_TIMEOUT_MS="60000"),
                      Session(deepest).prompt(PROMPTS[number]), notes_ok=True)  # fmt: skip
        times: dict[str, list[float]] = {"bare": []}
        cpu: dict[str, list[float]] = {"bare": []}

        def timed(key: str, command: list[str], stdin: bytes = b"", notes_ok: bool = False) -> bytes:
            wall, usage, out, _ = spawn(command, env, stdin, notes_ok)
            times.setdefault(key, []).append(wall)
            cpu.setdefault(key, []).append((usage.ru_utime + usage.ru_stime) * 1000)
            return out

        # a loaded machine must not turn a timed prompt into the deadline's no-op
        env["MEMHOOKS_HOOK_TIMEOUT_MS"] = "60000"
        load = [os.getloadavg()[0]]
        for number in range(args.runs):
            timed("bare", [sys.executable, "-c", "pass"])
            for command in COMMANDS:
                timed(f"{command}_noop", argv[command], json.dumps(noop).encode())
                prompt = Session(deepest).prompt(PROMPTS[number % len(PROMPTS)])
                out = timed(f"{command}_warm", argv[command], prompt, notes_ok=True)
                assert out, "the prompt hook recalled nothing"
        load.append(os.getloadavg()[0])
    report: dict[str, object] = {"runs": args.runs, "load_average": [round(x, 2) for x in load]}
    for unit, figures in (("", times), ("cpu_", cpu)):
        bare, fastest = statistics.median(figures["bare"]), min(figures["bare"])
        report[f"bare_python_{unit}ms"] = round(bare, 2)
        report[f"bare_python_{unit}min_ms"] = round(fastest, 2)
        for key, samples in figures.items():
            if key == "bare":
                continue
            report[f"{key}_{unit}ms"] = round(statistics.median(samples), 2)
            report[f"{key}_{unit}ratio_to_bare"] = round(statistics.median(samples) / bare, 3)
            report[f"{key}_{unit}min_ms"] = round(min(samples), 2)
            report[f"{key}_{unit}min_ratio_to_bare_min"] = round(min(samples) / fastest, 3)
    print(json.dumps(report, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fp:
            json.dump(report, fp, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
