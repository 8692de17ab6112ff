"""Capture benchmark (issue 7): the noise the filters leave, and what capture costs a hook.

**Noise** — replays the recorded hook payloads (``tests/agents/data/payloads``) through
capture with several filter settings (``tests/capture/capture_replay.py`` explains the replay
and the score) and scores the prompt detector on the hand-labelled prompt sets:

* replay: live captured memories, noise (kept but not wanted by
  ``tests/capture/data/labels.json``), noise rate, misses — once plain and once with
  every prompt sent 10 times and every edit and command 3 times;
* prompts: precision (1 − noise rate) and recall of the decision/constraint detector on
  ``prompts.json`` (tuning set), ``prompts_heldout.json`` (tuned once after a first
  measurement) and ``prompts_blind.json`` (never tuned on).

**Near duplicates** — on the hand-labelled pairs (``near_duplicates.json``), per measure
and threshold: pairs merged that say something new (lost knowledge) / pairs of the same
fact kept apart (noise). The shipped measure is word bigrams; character 5-grams and word
unigrams are shown for comparison.

**Latency** — ``memhooks hook`` as a fresh process with a Claude Code ``UserPromptSubmit``
payload (a decision, so capture writes state and checks a memory) on a store holding one
memory, capture off and capture on, median of ``--runs``, as ratios
to a bare ``python -c pass`` measured in the same run; plus in-process
:func:`memhooks.capture.observe` per event.

    .venv/bin/python bench/bench_capture.py [--runs 15] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "capture"))

import capture_replay as replay

from memhooks.capture.candidate import KINDS
from memhooks.capture.filters import DEFAULT, Policy
from memhooks.statements import sentences, statement_kind


def policies() -> dict[str, Policy]:
    def uniform(chars: int, cooldown: float, threshold: float) -> Policy:
        return Policy(dict.fromkeys(KINDS, chars), dict.fromkeys(KINDS, cooldown), threshold)

    return {
        "shipped default": DEFAULT,
        "seed 004 (300 chars, >0.85, 30 s)": uniform(300, 30, 0.85),
        "no filters": uniform(0, 0, 1.01),
        "uniform 50 chars": uniform(50, 30, 0.85),
        "uniform 100 chars": uniform(100, 30, 0.85),
        "uniform 150 chars": uniform(150, 30, 0.85),
        "default, similarity > 0.7": Policy(DEFAULT.min_chars, DEFAULT.cooldown_s, 0.7),
        "default, similarity > 0.95": Policy(DEFAULT.min_chars, DEFAULT.cooldown_s, 0.95),
        "default, exact duplicates only": Policy(DEFAULT.min_chars, DEFAULT.cooldown_s, 1.0),
        "default, no cooldown": Policy(
            DEFAULT.min_chars, dict.fromkeys(KINDS, 0), DEFAULT.threshold
        ),
        "default, no de-duplication": Policy(DEFAULT.min_chars, DEFAULT.cooldown_s, 1.01),
        "default, no cooldown, no de-duplication": Policy(
            DEFAULT.min_chars, dict.fromkeys(KINDS, 0), 1.01
        ),
    }


def noise(tmp: Path) -> dict[str, object]:
    out: dict[str, object] = {}
    for number, (name, policy) in enumerate(policies().items()):
        row = {}
        for repeat in (False, True):
            live = replay.replay(
                tmp / f"p{number}{repeat:d}", str(tmp / f"s{number}{repeat:d}.db"), policy, repeat
            )
            score = replay.score(live)
            row["repeat" if repeat else "plain"] = {
                k: v for k, v in score.items() if not k.endswith("_items")
            }
        out[name] = row
    return out


def prompts() -> dict[str, dict[str, float]]:
    out = {}
    for name in ("prompts.json", "prompts_heldout.json", "prompts_blind.json"):
        data = json.loads((ROOT / "tests" / "capture" / "data" / name).read_text("utf-8"))[
            "prompts"
        ]
        tp = fp = fn = 0
        for item in data:
            got = any(statement_kind(s) for s in sentences(item["text"]))
            tp += bool(got and item["kind"])
            fp += bool(got and not item["kind"])
            fn += bool(not got and item["kind"])
        out[name] = {
            "prompts": len(data),
            "captured": tp + fp,
            "precision": tp / (tp + fp) if tp + fp else 1.0,
            "recall": tp / (tp + fn) if tp + fn else 1.0,
        }
    return out


def duplicates() -> dict[str, dict[str, str]]:
    from memhooks.capture import similar

    data = json.loads(
        (ROOT / "tests" / "capture" / "data" / "near_duplicates.json").read_text("utf-8")
    )

    def chars(text: str) -> set[str]:
        norm = " ".join(similar.words(text))
        return {norm[i : i + 5] for i in range(max(1, len(norm) - 4))}

    measures = {
        "word bigrams (shipped)": similar.shingles,
        "word unigrams": lambda text: set(similar.words(text)),
        "character 5-grams": chars,
    }
    out = {}
    for name, shingles in measures.items():
        sims = []
        for pair in data["pairs"]:
            a, b = shingles(pair["a"]), shingles(pair["b"])
            sims.append((len(a & b) / len(a | b), pair["same"]))
        out[name] = {
            f"{t:.2f}": f"{sum(s > t and not same for s, same in sims)}/{sum(s <= t and same for s, same in sims)}"
            for t in (0.7, 0.75, 0.8, 0.85, 0.9, 0.95)
        }
    return out


def latency(tmp: Path, runs: int) -> dict[str, float]:
    project = tmp / "latency-proj"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMHOOKS_")}
    env.update(
        HOME=str(tmp / "lhome"),
        XDG_CONFIG_HOME=str(tmp / "lhome" / ".config"),
        XDG_DATA_HOME=str(tmp / "lhome" / ".local" / "share"),
        MEMHOOKS_STORE=str(tmp / "latency.sqlite3"),
    )
    payload = json.dumps(
        {
            "hook_event_name": "UserPromptSubmit",
            "session_id": "bench",
            "cwd": str(project),
            "prompt": "Fix the limiter. We decided to keep the sliding window because bursts must be smoothed.",
        }
    ).encode()
    hook = [sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"]

    def timed(argv: list[str], data: bytes = b"") -> float:
        samples = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(argv, input=data, env=env, cwd=project, capture_output=True, check=True)
            samples.append(time.perf_counter() - start)
        return statistics.median(samples) * 1000

    # The same store in both runs (recall reads it either way): capture is the only difference.
    seed = [*hook[:3], "remember", "The limiter keeps its buckets in Redis.", "--cwd", str(project)]
    subprocess.run(seed, env=env, cwd=project, capture_output=True, check=True)
    # Once more to write the bytecode.
    subprocess.run(hook, input=payload, env=env, cwd=project, capture_output=True, check=True)
    bare = timed([sys.executable, "-c", "pass"])
    off = timed(hook, payload)
    subprocess.run(
        [*hook[:3], "capture", "on", "--user"],
        env=env,
        cwd=project,
        capture_output=True,
        check=True,
    )
    on = timed(hook, payload)

    sys.path.insert(0, str(ROOT / "src"))
    os.environ.update(XDG_CONFIG_HOME=env["XDG_CONFIG_HOME"])
    from memhooks.agents import normalize
    from memhooks.capture.observer import observe

    event = normalize(json.loads(payload), host="claude-code")
    samples = []
    for i in range(runs * 4):
        start = time.perf_counter()
        observe(event, store_path=env["MEMHOOKS_STORE"], now=2e9 + i * 60)
        samples.append(time.perf_counter() - start)
    return {
        "bare_python_ms": round(bare, 1),
        "hook_capture_off_ms": round(off, 1),
        "hook_capture_on_ms": round(on, 1),
        "ratio_off": round(off / bare, 2),
        "ratio_on": round(on / bare, 2),
        "observe_in_process_ms": round(statistics.median(samples) * 1000, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--latency-only", action="store_true", help="skip the noise replays")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        results = {
            "noise": {} if args.latency_only else noise(tmp),
            "prompts": prompts(),
            "duplicates": duplicates(),
            "latency": latency(tmp, args.runs),
        }
    print(f"{'policy':44} {'plain kept/noise/missed':>24} {'x10 prompts kept/noise/missed':>30}")
    for name, row in results["noise"].items():  # type: ignore[union-attr]
        cells = [
            f"{r['kept']}/{r['noise']}/{r['missed']} ({r['noise_rate']:.0%})" for r in row.values()
        ]
        print(f"{name:44} {cells[0]:>24} {cells[1]:>30}")
    for name, row in results["prompts"].items():
        print(
            f"{name:24} {row['captured']:3}/{row['prompts']} captured  precision {row['precision']:.2f}  recall {row['recall']:.2f}"
        )
    print("near duplicates, merged-but-new / same-but-kept, by threshold:")
    for name, row in results["duplicates"].items():  # type: ignore[union-attr]
        print(f"  {name:24} " + "  ".join(f">{t}: {v}" for t, v in row.items()))
    print(json.dumps(results["latency"], indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
