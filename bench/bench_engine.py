"""Engine benchmark (issue 2): resolve, explain and validate on a synthetic tree.

Builds a git work tree of depth 8 with 5,000 directories and 300 hooks (a 6-hook chain
to the deepest measured folder), then reports medians of

* in-process ``memhooks.resolve()`` warm (target < 0.5 ms for a 6-hook chain),
* ``memhooks explain --format json`` as a fresh process (target < 40 ms),
* ``memhooks validate --all`` as a fresh process (target < 1 s),

each also as a ratio to a bare ``python -c pass`` measured in the same run (ratios are
stable across machines; absolute times are not). Run it with the interpreter of the
virtualenv memhooks is installed in:

    .venv/bin/python bench/bench_engine.py [--runs 15] [--json OUT]
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

DEPTH = 8
DIRS = 5000
HOOKS = 300
CHAIN = 6

HOOK = """---
schema: memhooks/v2
scope: {scope}
recall_queries:
  - query: "What failed before in {scope}?"
    priority: 0.{p}
  - "Why is {scope} structured this way?"
entities:
  - name: {name}
    type: CONCEPT
tags: [{name}]
exclude:
  - obsolete {name} prototype
backends:
  mem0:
    top_k: {p}
---

Guidance for {scope}.
"""


def build_tree(base: str) -> str:
    """Create the synthetic project; returns the deepest folder of the 6-hook chain."""
    rng = random.Random(7)
    subprocess.run(["git", "init", "-q", base], check=True)
    dirs = [base]
    spine = [base]
    for level in range(1, DEPTH + 1):  # a spine of depth 8 holds the measured chain
        spine.append(os.path.join(spine[-1], f"level{level}"))
    dirs.extend(spine[1:])
    while len(dirs) < DIRS:
        parent = rng.choice(dirs)
        if parent.count(os.sep) - base.count(os.sep) >= DEPTH:
            continue
        dirs.append(os.path.join(parent, f"d{len(dirs)}"))
    for directory in dirs:
        os.makedirs(directory, exist_ok=True)
    hooked = spine[:CHAIN] + rng.sample([d for d in dirs if d not in spine], HOOKS - CHAIN)
    for number, directory in enumerate(hooked):
        rel = os.path.relpath(directory, base).replace(os.sep, "/")
        name = f"topic{number}"
        with open(os.path.join(directory, "MEMHOOKS.md"), "w", encoding="utf-8") as fp:
            fp.write(HOOK.format(scope=rel, name=name, p=number % 10))
    past = time.time() - 60  # outside the cache's racy window
    for directory in hooked:
        os.utime(os.path.join(directory, "MEMHOOKS.md"), (past, past))
    return spine[-1]


def median_ms(func, runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        func()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def run_process(argv: list[str]) -> None:
    subprocess.run(argv, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--json", metavar="OUT")
    args = parser.parse_args()

    import memhooks

    exe = os.path.join(os.path.dirname(sys.executable), "memhooks")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
        base = os.path.join(tmp, "project")
        deepest = build_tree(base)
        memhooks.resolve(deepest)  # warm the in-process cache
        plan = memhooks.resolve(deepest)
        assert len(plan.sources) == CHAIN, plan.sources
        run_process([exe, "explain", deepest, "--format", "json"])  # warm the disk cache
        bare = median_ms(lambda: run_process([sys.executable, "-c", "pass"]), args.runs)
        resolve_ms = median_ms(lambda: memhooks.resolve(deepest), max(args.runs, 200))
        explain_ms = median_ms(lambda: run_process([exe, "explain", deepest, "--format", "json"]), args.runs)
        validate_ms = median_ms(lambda: run_process([exe, "validate", base, "--all"]), max(3, args.runs // 3))
    result = {
        "tree": {"depth": DEPTH, "directories": DIRS, "hooks": HOOKS, "chain": CHAIN},
        "bare_python_ms": round(bare, 2),
        "resolve_warm_ms": round(resolve_ms, 4),
        "explain_process_ms": round(explain_ms, 2),
        "explain_ratio_to_bare": round(explain_ms / bare, 2),
        "validate_all_ms": round(validate_ms, 1),
        "validate_ratio_to_bare": round(validate_ms / bare, 2),
    }
    print(json.dumps(result, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fp:
            json.dump(result, fp, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
