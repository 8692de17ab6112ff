"""Launcher benchmark (issue 24): the hook command ``memhooks agents install`` writes
against the direct command it replaced, each run as the hosts run a hook command — in a
shell they start for it (Claude Code ``/bin/sh -c``; Codex, Gemini CLI, Copilot CLI
``bash -c``):

* ``direct``: the interpreter with ``-S`` on ``__main__.py``, named in the host's config
  (what ``agents install`` wrote before the launcher; its path changed with every
  virtualenv);
* ``program``: the per-user launcher (``memhooks.install.launcher``) run as a program:
  a second shell (dash, else ``/bin/sh``), then the interpreter importing
  ``memhooks.__main__`` from bytecode (what hosts without a shell still run);
* ``sourced``: the command hosts with a shell get now, ``set -- hook …; command .
  <launcher> || exit 0``: the launcher read into the host's shell, then the interpreter.

Interleaved in one run, fresh processes with a Claude Code payload on stdin, in the
synthetic project of ``bench_recall.py`` (10,000 memories, a 6-hook chain to the deepest
folder; built in a temporary directory, as ``bench_hook.py`` does): a bare ``python -c
pass`` of the same interpreter, then per command the ``PreToolUse`` no-op of a shell
command (the floor every hook call pays) and, with ``--warm``, the first prompt of a
fresh session in the deepest folder. Reported per command and case: median and fastest
CPU ms (user + system of the process and the processes it waited for, by ``wait4``: on a
machine shared with other jobs the wall time mostly measures the queue) and wall ms, as
ratios to the bare interpreter's; and the median over rounds of the CPU difference to
``direct`` in the same shell, measured side by side (``cpu_minus_direct_ms``); the load
average::

    .venv/bin/python bench/bench_launcher.py [--runs 101] [--warm] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench_hook import child, sandbox, spawn
from bench_recall import PROMPTS, Writer, age_hooks, build_synthetic
from claude_host import Session, recorded

SHELLS = ("/bin/sh", "/bin/bash")
COMMANDS = ("direct", "program", "sourced")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=101)
    parser.add_argument("--warm", action="store_true", help="also time a warm prompt")
    parser.add_argument("--json", metavar="OUT")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMHOOKS_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    from memhooks.install import Context, apply, launcher, launcher_state
    from memhooks.install.command import arguments, hook_program, sourcing
    from memhooks.store import MemoryStore, project_id

    with tempfile.TemporaryDirectory() as tmp:
        tmp = os.path.realpath(tmp)
        store = sandbox(tmp, env, XDG_DATA_HOME=os.path.join(tmp, "data"))
        project = os.path.join(tmp, "synthetic")
        deepest, lines = build_synthetic(project, Writer(random.Random(4)))
        subprocess.run(["git", "init", "-q", project], check=True)
        age_hooks(project)
        with MemoryStore(store) as opened:
            opened.import_jsonl(project_id(project), [json.dumps(line) for line in lines])
        ctx = Context(project, "user", home=tmp, env=env)
        apply(launcher.plan(ctx))
        assert ctx.launcher is not None and launcher_state.state(ctx.launcher, env) == launcher_state.OK
        words = arguments("claude-code")
        line = {
            "direct": shlex.join([*hook_program([sys.executable, "-m", "memhooks"]), *words]),
            "program": shlex.join([ctx.launcher, *words]),
            "sourced": sourcing(ctx.launcher, words),
        }
        argv = {
            f"{os.path.basename(sh)}:{c}": [sh, "-c", line[c]] for sh in SHELLS for c in COMMANDS
        }
        cases = ("noop", "warm") if args.warm else ("noop",)
        # a shell command: the PreToolUse that edits nothing, settled by the shortcut
        noop = json.dumps(dict(recorded("PreToolUse"), cwd=deepest, tool_name="Bash",
                               tool_input={"command": "ls"})).encode()  # fmt: skip
        for key, command in argv.items():  # bytecode, caches
            child(command, dict(env, MEMHOOKS_HOOK_TIMEOUT_MS="60000"),
                  Session(deepest).prompt(PROMPTS[0]), notes_ok=True)  # fmt: skip
            assert child(command, env, noop)[2] == b"", key
        times: dict[str, list[float]] = {"bare": []}
        cpu: dict[str, list[float]] = {"bare": []}

        def timed(
            key: str, command: list[str], stdin: bytes = b"", notes_ok: bool = False
        ) -> bytes:
            wall, usage, out, _ = spawn(command, env, stdin, notes_ok)
            times.setdefault(key, []).append(wall)
            cpu.setdefault(key, []).append((usage.ru_utime + usage.ru_stime) * 1000)
            return out

        # a loaded machine must not turn a timed prompt into the deadline's no-op
        env["MEMHOOKS_HOOK_TIMEOUT_MS"] = "60000"
        load = [os.getloadavg()[0]]
        order = list(argv)
        for number in range(args.runs):
            timed("bare", [sys.executable, "-c", "pass"])
            random.Random(number).shuffle(order)  # no command always first after the bare run
            for key in order:
                timed(f"{key}:noop", argv[key], noop)
                if "warm" in cases:
                    prompt = Session(deepest).prompt(PROMPTS[number % len(PROMPTS)])
                    out = timed(f"{key}:warm", argv[key], prompt, notes_ok=True)
                    assert out, "the prompt hook recalled nothing"
        load.append(os.getloadavg()[0])
    report: dict[str, object] = {"runs": args.runs, "load_average": [round(x, 2) for x in load]}
    bare, fastest = statistics.median(cpu["bare"]), min(cpu["bare"])
    bare_wall = statistics.median(times["bare"])
    report["bare_python"] = {"cpu_ms": round(bare, 2), "cpu_min_ms": round(fastest, 2),
                             "wall_ms": round(bare_wall, 2)}  # fmt: skip
    for key, samples in cpu.items():
        if key == "bare":
            continue
        sh, _, case = key.split(":")
        direct = cpu[f"{sh}:direct:{case}"]
        report[key] = {
            "cpu_ms": round(statistics.median(samples), 2),
            "cpu_ratio_to_bare": round(statistics.median(samples) / bare, 3),
            "cpu_min_ms": round(min(samples), 2),
            "cpu_min_ratio_to_bare_min": round(min(samples) / fastest, 3),
            "cpu_minus_direct_ms": round(
                statistics.median(a - b for a, b in zip(samples, direct)), 2
            ),
            "wall_ms": round(statistics.median(times[key]), 2),
            "wall_ratio_to_bare": round(statistics.median(times[key]) / bare_wall, 3),
        }
    print(json.dumps(report, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fp:
            json.dump(report, fp, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
