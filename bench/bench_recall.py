"""Recall speed benchmark (issue 4): ``recall`` in-process and as a fresh process.

Builds, in a temporary directory (``XDG_CACHE_HOME`` and ``MEMHOOKS_STORE`` point there):

* **shop**: a copy of ``examples/shop`` with its ``memories.jsonl`` loaded;
* **synthetic**: a project whose deepest folder has a 6-hook chain (root and 5 nested
  folders, each hook with 2-3 recall queries, entities, tags and ``kind: file``
  resources) beside sibling folders, and 10,000 memories in one store file with the shop
  memories. Memory text is drawn from a deterministic word list with a Zipf-like
  distribution, so a few words are common (one prompt word can match thousands of rows),
  most are rare; scopes are spread over the tree and memories name files.

Then it reports, per project, the median and p90 of in-process
:func:`memhooks.recall.recall` (a fresh backend per call, as a host calling the library
would) and of ``memhooks recall DIR --prompt ... --format json`` as a fresh process, each
*warm* (ranked lists reused: the store did not change since the last recall), *changed*
(a memory was just remembered the way ``memhooks remember`` does it, which recomputes the
hooks' cached searches for the new state: :func:`memhooks.backends.embedded.refresh`) and
*cold* (the search-list cache dropped first: the first recall ever with these hooks, or
after a writer that does not refresh), as wall time and as CPU time (user + system; far
steadier than wall time on a busy machine), the peak RSS of those processes (through GNU time), and ratios to
a bare ``python -c pass`` measured in the same run (ratios are stable across machines;
absolute times are not). Targets (issue 4): in-process < 10 ms, fresh process < 60 ms,
peak RSS < 60 MB.

Run it with the interpreter of the virtualenv memhooks is installed in. Fresh-process
figures assume compiled bytecode: with an editable install, unset
``PYTHONDONTWRITEBYTECODE`` or run ``python -m compileall -q src`` first (the warm-up run
below writes the bytecode when it is allowed to)::

    .venv/bin/python bench/bench_recall.py [--runs 15] [--json OUT] [--search bm25|hybrid]

``--search hybrid`` embeds every memory first (minutes on a CPU; the ``semantic`` extra).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SHOP = os.path.join(os.path.dirname(HERE), "examples", "shop")
MEMORIES = 10_000
CHAIN = ("", "services", "services/billing", "services/billing/invoices",
         "services/billing/invoices/pdf", "services/billing/invoices/pdf/render")  # fmt: skip
SIBLINGS = ("docs", "web", "web/components", "web/pages", "infra", "infra/terraform",
            "services/auth", "services/search", "services/billing/tax", "tools", "tests")  # fmt: skip
KINDS = ("decision", "failure", "workaround", "constraint", None)
# Words a team writes all the time; they sit at the head of the Zipf distribution.
COMMON = [
    "the", "fix", "test", "build", "release", "cache", "config", "error", "request", "service",
    "user", "data", "update", "change", "deploy", "timeout", "retry", "migration", "schema",
    "query", "index", "api", "client", "server", "token", "session", "invoice", "billing",
    "render", "template", "queue", "worker", "job", "log", "metric", "alert", "flaky",
    "regression", "rollback", "version", "upgrade", "dependency", "lock", "database", "file",
    "path", "memory",
]  # fmt: skip
PROMPTS = (
    "fix the flaky invoice render test that times out after the cache change",
    "why does the billing worker retry the pdf job twice after a deploy",
    "update the invoice template so the tax line renders for every user",
    "the session token expires during the pdf export; make the api client refresh it",
    "add an index to speed up the invoice query in the billing database",
)


def vocabulary(rng: random.Random, size: int = 6000) -> list[str]:
    """Common words first, then pronounceable made-up words (deterministic)."""
    onsets = [
        "b",
        "c",
        "d",
        "f",
        "g",
        "k",
        "l",
        "m",
        "n",
        "p",
        "r",
        "s",
        "t",
        "v",
        "z",
        "st",
        "tr",
        "pl",
    ]
    vowels = ["a", "e", "i", "o", "u", "ai", "ou"]
    words = list(COMMON)
    seen = set(words)
    while len(words) < size:
        word = "".join(rng.choice(onsets) + rng.choice(vowels) for _ in range(rng.randint(2, 4)))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


class Writer:
    """Draws sentences from the vocabulary with Zipf-like weights (rank ** -1.1)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.words = vocabulary(rng)
        weights = [1.0 / (rank + 1) ** 1.1 for rank in range(len(self.words))]
        total = 0.0
        self.cumulative = []
        for weight in weights:
            total += weight
            self.cumulative.append(total)

    def text(self, low: int, high: int) -> str:
        count = self.rng.randint(low, high)
        picked = self.rng.choices(self.words, cum_weights=self.cumulative, k=count)
        sentence = " ".join(picked)
        return sentence[0].upper() + sentence[1:] + "."


HOOK = """---
schema: memhooks/v2
inherits: true
scope: {scope}
recall_queries:
  - query: "{q1}"
    priority: 0.{p}
  - "{q2}"
{extra}entities:
  - name: {entity}
    type: COMPONENT
resources:
  - name: {file}
    kind: file
tags: [{tag}]
exclude:
  - obsolete {tag} prototype
---

Guidance for {scope_name}: {guidance}
"""
AUTO = """  - query: "What prior decisions, constraints, failures, fixes, rejected approaches, and unresolved issues involve files in this directory? [scope: {scope_name}]"
    resources:
      - name: {file}
        kind: file
      - name: {file2}
        kind: file
    tags: [memhooks:auto]
"""


def build_synthetic(base: str, writer: Writer) -> tuple[str, list[dict]]:
    """Create the synthetic tree and hooks; return (deepest folder, memory lines)."""
    rng = writer.rng
    folders = list(CHAIN) + list(SIBLINGS)
    files: dict[str, list[str]] = {}
    for folder in folders:
        directory = os.path.join(base, *folder.split("/")) if folder else base
        os.makedirs(directory, exist_ok=True)
        names = [f"{writer.words[rng.randrange(60, 3000)]}.py" for _ in range(6)]
        files[folder] = sorted({(folder + "/" + n) if folder else n for n in names})
        for rel in files[folder]:
            with open(os.path.join(base, *rel.split("/")), "w", encoding="utf-8") as fp:
                fp.write("# synthetic\n")
    for number, folder in enumerate(CHAIN):
        scope_name = folder or "."
        extra = (
            AUTO.format(scope_name=scope_name, file=files[folder][0], file2=files[folder][1])
            if number % 2
            else ""
        )
        hook = HOOK.format(
            scope=f"synthetic/{folder}" if folder else "synthetic",
            scope_name=scope_name,
            q1=writer.text(6, 10).rstrip(".") + "?",
            q2=writer.text(5, 9).rstrip(".") + "?",
            p=9 - number,
            extra=extra,
            entity=writer.words[100 + number].capitalize(),
            file=files[folder][-1],
            tag=writer.words[200 + number],
            guidance=writer.text(10, 20),
        )
        path = (
            os.path.join(base, *folder.split("/"), "MEMHOOKS.md")
            if folder
            else os.path.join(base, "MEMHOOKS.md")
        )
        with open(path, "w", encoding="utf-8") as fp:
            fp.write(hook)
    # Scopes: the root and shallow folders hold most memories, as changes spanning
    # folders are scoped at their common ancestor.
    scope_weights = [8 if not f else max(1, 5 - f.count("/")) for f in folders]
    lines = []
    start = 1_600_000_000
    for number in range(MEMORIES):
        scope = rng.choices(folders, weights=scope_weights)[0]
        pool = files[scope] if scope else [f for fs in files.values() for f in fs]
        line = {
            "id": f"syn-{number:05d}",
            "scope": scope,
            "files": sorted(set(rng.sample(pool, rng.randint(0, 3)))),
            "text": " ".join(writer.text(6, 18) for _ in range(rng.randint(1, 4))),
            "kind": rng.choice(KINDS),
            "tags": sorted(set(rng.sample(COMMON[:12], rng.randint(0, 2)))),
            "entities": [writer.words[100 + rng.randrange(20)].capitalize()]
            if rng.random() < 0.3
            else [],
            "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start + number * 3600)),
        }
        lines.append(line)
    return os.path.join(base, *CHAIN[-1].split("/")), lines


def age_hooks(base: str) -> None:
    """Push hook mtimes into the past: the parsed-hook cache skips files modified in the last 2 s."""
    past = time.time() - 60
    for directory, _dirs, names in os.walk(base):
        if "MEMHOOKS.md" in names:
            os.utime(os.path.join(directory, "MEMHOOKS.md"), (past, past))


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


class Run:
    """One finished child process: wall and CPU (user + system) milliseconds, peak RSS KiB."""

    def __init__(self, wall_ms: float, cpu_ms: float, rss_kib: int) -> None:
        self.wall_ms, self.cpu_ms, self.rss_kib = wall_ms, cpu_ms, rss_kib


def child(argv: list[str], env: dict[str, str]) -> Run:
    """Run ``argv`` to completion; its own wall time, CPU time and peak RSS (wait4)."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(proc.pid, 0)
    elapsed = (time.perf_counter() - started) * 1000
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read() if proc.stderr else b""
    if proc.stderr:
        proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(
            f"{' '.join(argv)} failed ({proc.returncode}): {err.decode(errors='replace')}"
        )
    return Run(elapsed, (usage.ru_utime + usage.ru_stime) * 1000, usage.ru_maxrss)


def peak_rss_kib(argv: list[str], env: dict[str, str]) -> int:
    """Peak RSS of ``argv`` in KiB, through GNU time when installed.

    A child's own ``wait4`` figure is useless here: Linux charges a forked child the
    parent's resident size before its exec, and this script holds a 10,000-memory
    store in memory. ``/usr/bin/time`` is a small parent, so its child's figure is the
    child's. Without it, fall back to ``wait4`` (an upper bound).
    """
    gnu_time = "/usr/bin/time"
    if not os.access(gnu_time, os.X_OK):
        return child(argv, env).rss_kib
    out = subprocess.run(
        [gnu_time, "-f", "%M", *argv], env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True, check=True,
    )  # fmt: skip
    return int(out.stderr.strip().splitlines()[-1])


def forget_searches() -> None:
    """Drop both layers of the search-list cache, so the next recall computes every list."""
    try:
        from memhooks.backends import embedded_cache
    except ImportError:  # a memhooks from before the cache (for before/after runs)
        return
    embedded_cache.clear_memory()
    shutil.rmtree(
        os.path.join(os.environ["XDG_CACHE_HOME"], "memhooks", "search"), ignore_errors=True
    )


def remember_one(store: str, root: str, number: int) -> None:
    """Add a memory as ``memhooks remember`` does (the store, then the cache refresh)."""
    from memhooks.backends.embedded import refresh
    from memhooks.store import MemoryStore, project_id

    with MemoryStore(store) as opened:
        opened.add(project_id(root), f"bench note {number}: the render cache was flushed")
    refresh(store)


def measure(
    target: str, root: str, store: str, runs: int, exe: str, env: dict[str, str]
) -> dict[str, float]:
    """Medians and p90s of wall and CPU milliseconds per recall: warm, changed, cold."""
    from memhooks.recall import recall

    os.environ["MEMHOOKS_ROOT"] = root
    samples: dict[str, list[float]] = {}
    hits = 0
    for number in range(max(runs * 4, 40)):
        prompt = PROMPTS[number % len(PROMPTS)]
        for kind in ("cold", "changed", "warm"):
            if kind == "cold":
                forget_searches()
            elif kind == "changed":
                remember_one(store, root, number)
            wall, cpu = time.perf_counter(), time.process_time()
            result = recall(target, prompt=prompt, store_path=store)
            samples.setdefault(f"in_process_{kind}", []).append((time.perf_counter() - wall) * 1000)
            samples.setdefault(f"in_process_{kind}_cpu", []).append(
                (time.process_time() - cpu) * 1000
            )
            assert result["status"] in ("ok", "nothing_found"), result["status"]
        hits += len(result["memories"])
    env = {**env, "MEMHOOKS_ROOT": root}
    rss = []
    for number in range(runs):
        prompt = PROMPTS[number % len(PROMPTS)]
        argv = [exe, "recall", target, "--prompt", prompt, "--format", "json"]
        for kind in ("cold", "changed", "warm"):
            if kind == "cold":
                forget_searches()
            elif kind == "changed":
                remember_one(store, root, 1000 + number)
            run = child(argv, env)
            samples.setdefault(f"process_{kind}", []).append(run.wall_ms)
            samples.setdefault(f"process_{kind}_cpu", []).append(run.cpu_ms)
    for kind in ("cold", "changed", "warm"):
        for prompt in PROMPTS[:3]:
            if kind == "cold":
                forget_searches()
            elif kind == "changed":
                remember_one(store, root, 2000 + len(rss))
            argv = [exe, "recall", target, "--prompt", prompt, "--format", "json"]
            rss.append(peak_rss_kib(argv, env))
    out: dict[str, float] = {}
    for name, values in samples.items():
        out[f"{name}_ms"] = round(statistics.median(values), 3)
        out[f"{name}_p90_ms"] = round(percentile(values, 0.9), 3)
    out["peak_rss_mb"] = round(max(rss) / 1024, 1)
    out["memories_per_recall"] = round(hits / max(runs * 4, 40), 1)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--runs", type=int, default=15, help="fresh processes per measurement (default 15)"
    )
    parser.add_argument("--json", metavar="OUT")
    parser.add_argument(
        "--search", choices=("bm25", "hybrid"), help="set MEMHOOKS_SEARCH for every recall"
    )
    args = parser.parse_args()

    exe = os.path.join(os.path.dirname(sys.executable), "memhooks")
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if args.search:
        os.environ["MEMHOOKS_SEARCH"] = env["MEMHOOKS_SEARCH"] = args.search
    from memhooks.store import MemoryStore, project_id

    with tempfile.TemporaryDirectory() as tmp:
        tmp = os.path.realpath(tmp)
        store = os.path.join(tmp, "memories.sqlite3")
        for key, value in (
            ("XDG_CACHE_HOME", os.path.join(tmp, "cache")),
            ("MEMHOOKS_STORE", store),
        ):
            os.environ[key] = env[key] = value
        shop = os.path.join(tmp, "shop")
        shutil.copytree(SHOP, shop)
        synthetic = os.path.join(tmp, "synthetic")
        started = time.perf_counter()
        deepest, lines = build_synthetic(synthetic, Writer(random.Random(4)))
        age_hooks(tmp)
        with MemoryStore(store) as opened:
            with open(os.path.join(shop, "memories.jsonl"), encoding="utf-8") as fp:
                opened.import_jsonl(project_id(shop), fp)
            opened.import_jsonl(project_id(synthetic), [json.dumps(line) for line in lines])
            if args.search == "hybrid":  # embed every memory before the clock starts
                from memhooks.store.semantic import backfill

                backfill(opened)
            counts = {
                "shop": opened.count(project_id(shop)),
                "synthetic": opened.count(project_id(synthetic)),
            }
        print(f"setup {time.perf_counter() - started:.1f} s; memories {counts}", file=sys.stderr)
        # Building the store leaves tens of MB of dirty pages; let the kernel write them
        # now, not while the first processes are being timed.
        os.sync()
        cases = {
            "shop": (os.path.join(shop, "backend", "auth"), shop),
            "synthetic": (deepest, synthetic),
        }
        for target, root in cases.values():  # warm the hook caches and the bytecode
            child(
                [exe, "recall", target, "--prompt", PROMPTS[0], "--format", "json"],
                {**env, "MEMHOOKS_ROOT": root},
            )
        bare = [child([sys.executable, "-c", "pass"], env) for _ in range(args.runs)]
        bare_ms = statistics.median(run.wall_ms for run in bare)
        bare_cpu_ms = statistics.median(run.cpu_ms for run in bare)
        report: dict[str, object] = {
            "bare_python_ms": round(bare_ms, 2),
            "bare_python_cpu_ms": round(bare_cpu_ms, 2),
        }
        for name, (target, root) in cases.items():
            figures = measure(target, root, store, args.runs, exe, env)
            for key in [key for key in figures if key.endswith("_ms") and "_p90" not in key]:
                base = bare_cpu_ms if key.endswith("_cpu_ms") else bare_ms
                figures[key.replace("_ms", "_ratio_to_bare")] = round(figures[key] / base, 3)
            report[name] = {"memories": counts[name], **figures}
        again = [child([sys.executable, "-c", "pass"], env) for _ in range(args.runs)]
        report["bare_python_again_ms"] = round(statistics.median(r.wall_ms for r in again), 2)
        report["bare_python_again_cpu_ms"] = round(statistics.median(r.cpu_ms for r in again), 2)
    print(json.dumps(report, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fp:
            json.dump(report, fp, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
