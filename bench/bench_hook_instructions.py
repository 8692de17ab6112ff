"""Hook instructions against another install (issue 21): ``bench_hook``'s cases, each call
counted by ``valgrind --tool=callgrind`` instead of timed.

Wall and CPU times of a ~10–30 ms process move by several percent with the load of a
shared machine, even paired (``bench_hook.py --baseline``: ``paired_cpu`` of 21 pairs
moves by ±0.03 between runs); the count of instructions a call executes does not depend
on the load, so it is the figure to read when a change is worth a few percent. It does
not count what instructions do not show (page faults, cache misses, the kernel's side of
a system call): read ``paired_cpu`` beside it.

The project, the sessions and the two installs are ``bench_hook``'s (:func:`bench_hook.build`:
10,000 memories, a 6-hook chain, each version with its own state folder, caches and a
store written by its own code, warmed up the same way); each case's untimed calls run
as ``bench_hook`` runs them, and its measured call runs under callgrind, through the
command ``agents install`` writes, with the hook's deadline raised (under callgrind a call
is ~50× slower) and ``PYTHONHASHSEED=0`` for both versions (a set's order must not move
the count). Versions take turns going first. Per case: each version's median instructions
(``Ir``, millions) over ``--runs`` calls, and ``ratio``: the median over the runs of
this version's call over the baseline's call of the same run (the same prompt or file:
prompts differ by run, by up to ~10 M)::

    .venv/bin/python bench/bench_hook_instructions.py --baseline ../house-base/.venv/bin/memhooks \\
        --env MEMHOOKS_LINE_RECALL=off --env MEMHOOKS_RELEVANCE_FLOOR=off [--runs 3] [--json OUT]

``--case NAME`` (repeatable) runs only those cases. ~5 minutes for every case at
``--runs 3`` on a 2-core machine (a cold prompt: ~10 s a call). A run-to-run spread of a
few hundred thousand instructions remains (fresh session ids, file names hashed from
them): the report gives each version's spread (``max - min``) beside the median.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench_blame import emit
from bench_hook import PROMPT_CASES, TOOL_CASES, bench_env, build

VALGRIND = "valgrind"


def instructions(out_file: str) -> int:
    """The instructions (``Ir``) a callgrind output file counts in all."""
    with open(out_file, encoding="utf-8") as fp:
        for line in fp:
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise SystemExit(f"{out_file}: no callgrind summary")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="EXE", required=True,
                        help="another install's memhooks, counted beside")  # fmt: skip
    parser.add_argument("--runs", type=int, default=3, help="calls per case and version")
    parser.add_argument("--case", action="append", choices=(*PROMPT_CASES, *TOOL_CASES))
    parser.add_argument("--json", metavar="OUT")
    parser.add_argument(
        "--env", metavar="NAME=VALUE", action="append", default=[],
        help="a setting for every hook call of both versions (e.g. MEMHOOKS_LINE_RECALL=off)",
    )  # fmt: skip
    args = parser.parse_args()
    if not shutil.which(VALGRIND):
        raise SystemExit("valgrind is not on PATH (apt-get install valgrind)")
    kinds = args.case or [*PROMPT_CASES, *TOOL_CASES]
    env = bench_env([*args.env, "PYTHONHASHSEED=0"])
    counts: dict[str, dict[str, list[int]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = os.path.realpath(tmp)
        project, cases, _memories, versions = build(tmp, env, args.baseline)
        counts = {name: {k: [] for k in kinds} for name in versions}
        for version in versions.values():
            version.warm_up(cases.deepest, cases)
        out_file = os.path.join(tmp, "callgrind.out")
        under = [VALGRIND, "--tool=callgrind", "-q", f"--callgrind-out-file={out_file}"]
        for number in range(args.runs):
            order = list(versions.items())[:: -1 if number % 2 else 1]
            for kind in kinds:
                for name, version in order:
                    version.case(kind, number, cases, project, under)
                    counts[name][kind].append(instructions(out_file))
                    os.unlink(out_file)
        notes = {name: v.notes for name, v in versions.items()}
    report: dict[str, object] = {"runs": args.runs, "baseline": args.baseline,
                                 "env": args.env, "load_average": os.getloadavg()}  # fmt: skip
    for kind in kinds:
        now, before = counts["current"][kind], counts["baseline"][kind]
        report[kind] = {
            # each call over the baseline's call of the same run (the same prompt, file)
            "ratio": round(statistics.median(a / b for a, b in zip(now, before)), 4),
            "current_M": round(statistics.median(now) / 1e6, 2),
            "baseline_M": round(statistics.median(before) / 1e6, 2),
            "current_spread_M": round((max(now) - min(now)) / 1e6, 2),
            "baseline_spread_M": round((max(before) - min(before)) / 1e6, 2),
            "current": now,
            "baseline": before,
        }
        for name in versions:
            if notes[name][kind]:
                report[kind][f"{name}_notes"] = notes[name][kind][:2]  # type: ignore[index]
    emit(report, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
