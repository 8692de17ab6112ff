"""Agent hook benchmark (issue 5): ``memhooks hook`` exactly as a host runs it.

A fresh process per call with a Claude Code ``UserPromptSubmit`` payload on stdin, for
the deepest folder of a 6-hook chain in a project whose store holds 10,000 memories (the
synthetic project of ``bench_recall.py``, built in a temporary directory, a git work
tree so the root is found as a host would find it; no ``MEMHOOKS_ROOT``). Reported:

* ``hook_ms`` / ``hook_p90_ms``: wall time of the hook process (spawn to exit), with the
  recall search lists cached (``warm``, the usual case: the store has not changed since
  the last prompt), right after a memory was remembered (``changed``: the writer
  recomputed the hooks' lists, :func:`memhooks.backends.embedded.refresh`) and with the
  lists dropped (``cold``: the first prompt ever with these hooks);
* ``peak_rss_mb``: the largest peak RSS of any hook process (``wait4``);
* the same as ratios to a bare ``python -c pass`` measured in the same run, interleaved,
  and the fastest run of each (``min``): on a loaded machine the minimum approximates
  an idle one better than the median;
* ``hermes_plugin_ms``: the in-process Hermes plugin's ``pre_llm_call`` (no process);
* ``context_chars``: what the hook injected (checked non-empty).

Targets: median < 60 ms, peak RSS < 60 MB, ratio <= 3. Run it with the interpreter of the
virtualenv memhooks is installed in (bytecode compiled, as after a normal install)::

    .venv/bin/python bench/bench_hook.py [--runs 21] [--json OUT]
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
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TIME = "/usr/bin/time"
sys.path.insert(0, HERE)

from bench_recall import PROMPTS, Writer, age_hooks, build_synthetic, forget_searches, remember_one


def child(argv: list[str], env: dict[str, str], stdin: bytes = b"") -> tuple[float, int, bytes]:
    """Like :func:`run`, with the peak RSS of that process alone (``wait4``)."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write(stdin)
    proc.stdin.close()
    out = proc.stdout.read()
    err = proc.stderr.read()
    _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    elapsed = (time.perf_counter() - started) * 1000
    proc.stdout.close()
    proc.stderr.close()
    if proc.returncode != 0 or err:
        raise SystemExit(f"{argv} -> {proc.returncode}: {err.decode(errors='replace')}")
    return elapsed, usage.ru_maxrss, out


def peak_rss_kib(argv: list[str], env: dict[str, str], stdin: bytes = b"") -> int:
    """Peak RSS of ``argv`` alone, via GNU time: ``wait4`` on a child forked from this
    (large) benchmark process would count the parent's pages copied before ``exec``."""
    if not os.path.exists(TIME):
        return child(argv, env, stdin)[1]
    with tempfile.NamedTemporaryFile("r") as out:
        child([TIME, "-f", "%M", "-o", out.name, *argv], env, stdin)
        return int(out.read().split()[-1])


def payload(cwd: str, prompt: str) -> bytes:
    return json.dumps({
        "session_id": "bench", "transcript_path": "/dev/null", "cwd": cwd, "permission_mode": "default",
        "hook_event_name": "UserPromptSubmit", "prompt": prompt,
    }).encode()  # fmt: skip


def stats(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[
        min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--runs", type=int, default=21, help="hook processes per measurement (default 21)"
    )
    parser.add_argument("--json", metavar="OUT")
    args = parser.parse_args()
    exe = os.path.join(os.path.dirname(sys.executable), "memhooks")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMHOOKS_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    from memhooks.store import MemoryStore, project_id

    with tempfile.TemporaryDirectory() as tmp:
        tmp = os.path.realpath(tmp)
        store = os.path.join(tmp, "memories.sqlite3")
        for key, value in (
            ("XDG_CACHE_HOME", os.path.join(tmp, "cache")),
            ("MEMHOOKS_STORE", store),
            ("HOME", tmp),
        ):
            os.environ[key] = env[key] = value
        project = os.path.join(tmp, "synthetic")
        deepest, lines = build_synthetic(project, Writer(random.Random(4)))
        subprocess.run(["git", "init", "-q", project], check=True)
        age_hooks(project)
        with MemoryStore(store) as opened:
            opened.import_jsonl(project_id(project), [json.dumps(line) for line in lines])
            memories = opened.count(project_id(project))
        hook = [exe, "hook", "--agent", "claude-code"]
        bare = [sys.executable, "-c", "pass"]
        for number in range(3):  # bytecode, parsed-hook cache, search lists
            child(hook, env, payload(deepest, PROMPTS[number % len(PROMPTS)]))
        times: dict[str, list[float]] = {"warm": [], "changed": [], "cold": [], "bare": []}
        rss: dict[str, list[int]] = {"hook": [], "bare": []}
        chars = 0
        for number in range(args.runs):
            prompt = PROMPTS[number % len(PROMPTS)]
            times["bare"].append(child(bare, env)[0])
            for kind in ("cold", "changed", "warm"):
                if kind == "cold":
                    forget_searches()
                elif kind == "changed":
                    remember_one(store, project, number)
                elapsed, _, out = child(hook, env, payload(deepest, prompt))
                times[kind].append(elapsed)
                context = json.loads(out)["hookSpecificOutput"]["additionalContext"]  # fmt: skip
                assert context.startswith("[MemHooks"), context[:80]
                chars = max(chars, len(context))
        for number in range(5):
            rss["bare"].append(peak_rss_kib(bare, env))
            if number == 0:
                forget_searches()
            rss["hook"].append(peak_rss_kib(hook, env, payload(deepest, PROMPTS[number])))
        plugin_ms = in_process_plugin(deepest, args.runs)
    bare_ms = statistics.median(times["bare"])
    report: dict[str, object] = {
        "memories": memories,
        "hook_chain": 6,
        "runs": args.runs,
        "bare_python_ms": round(bare_ms, 2),
        "bare_python_min_ms": round(min(times["bare"]), 2),
        "bare_python_peak_rss_mb": round(max(rss["bare"]) / 1024, 1),
    }
    for kind in ("warm", "changed", "cold"):
        median, p90 = stats(times[kind])
        report[f"hook_{kind}_ms"] = round(median, 2)
        report[f"hook_{kind}_p90_ms"] = round(p90, 2)
        report[f"hook_{kind}_ratio_to_bare"] = round(median / bare_ms, 2)
        # The fastest runs approximate an idle machine on a loaded one (shared CI, laptops).
        report[f"hook_{kind}_min_ms"] = round(min(times[kind]), 2)
        report[f"hook_{kind}_min_ratio_to_bare_min"] = round(
            min(times[kind]) / min(times["bare"]), 2
        )
    report["peak_rss_mb"] = round(max(rss["hook"]) / 1024, 1)
    report["peak_rss_ratio_to_bare"] = round(max(rss["hook"]) / max(rss["bare"]), 2)
    report["hermes_plugin_ms"] = round(plugin_ms, 2)
    report["context_chars"] = chars
    print(json.dumps(report, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fp:
            json.dump(report, fp, indent=2)
    return 0


def in_process_plugin(folder: str, runs: int) -> float:
    """Median ms of the Hermes plugin's ``pre_llm_call`` (library call, no process)."""
    from memhooks.integrations.hermes import Plugin

    plugin = Plugin()
    os.environ["TERMINAL_CWD"] = folder
    samples = []
    for number in range(runs):
        started = time.perf_counter()
        reply = plugin.pre_llm_call(session_id="bench", user_message=PROMPTS[number % len(PROMPTS)])
        samples.append((time.perf_counter() - started) * 1000)
        assert reply is not None and reply["context"].startswith("[MemHooks")
    return statistics.median(samples)


if __name__ == "__main__":
    raise SystemExit(main())
