"""Does folder routing help recall? Measure it on a data set mined from git history.

    python bench/recall_quality.py DATA_DIR [--mode both|session|library] [--json OUT]
        [--budget CHARS] [--per-query N] [--limit N] [--subprocess N]

``DATA_DIR`` holds ``tree.txt``, ``events.jsonl``, ``memories.jsonl`` and ``tasks.jsonl``
in the format of ``shared/tools/mine_history.py`` (see ``shared/bench/git/README.md``).
Steps, all in a temporary directory:

1. build the project tree (empty files) and enable it with a root hook;
2. replay every event through the same maintenance code ``memhooks event`` runs
   (:func:`memhooks.maintain.events.maintain`), so hooks grow exactly as in use;
3. load the memories into the embedded store;
4. ``library`` mode: for every task run recall twice with the same store and budget —
   routing **on** (the plan for the task's folder + the prompt) and **off** (the prompt
   alone) — and a third, separately reported variant **files** (routing on plus the
   task's ``active_files``, which the change later touched, so it peeks at the answer's
   neighbourhood); reported: recall@5, recall@10, MRR, injected characters and latency
   (medians, ms) per variant;
5. ``session`` mode (:mod:`session_replay`): every task as a Claude Code session launched
   at the root, through the real hook handler with real payload shapes —
   ``UserPromptSubmit``, then a ``PostToolUse`` Read of each file the change touches —
   beside the same prompt alone (**root**, today's prompt-time recall) and the same prompt
   from the task's folder (**oracle**: no agent knows that folder at prompt time, an upper
   bound). Reported: the share of cited memories delivered at any point, MRR over
   delivery order, characters delivered per session, hook calls, fail-open notes and
   calls slower than the hook's default deadline. The hook runs with its own defaults
   (``--budget`` and ``--per-query`` are the library mode's). ``--subprocess N`` replays
   N evenly spaced sessions again through the real ``memhooks hook --agent claude-code``
   command and reports how many calls gave the same stdout as in-process.

``--json OUT`` writes ``{"on", "off", "files", "session", "root", "oracle",
"subprocess", "tasks", "uptime"}`` (the modes that ran). ``--search hybrid`` embeds every
memory first (minutes on a CPU) and ranks with BM25 fused with all-MiniLM-L6-v2 cosine
similarity (the ``semantic`` extra).

Nothing here reads a task's ``relevant`` list except the scoring.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time


def read_jsonl(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as fp:
        return [json.loads(line) for line in fp if line.strip()]


def build_tree(root: str, tree_file: str) -> int:
    count = 0
    with open(tree_file, encoding="utf-8") as fp:
        for line in fp:
            rel = line.rstrip("\n")
            if not rel or rel.startswith("/") or ".." in rel.split("/"):
                continue
            path = os.path.join(root, *rel.split("/"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w"):
                pass
            count += 1
    with open(os.path.join(root, "MEMHOOKS.md"), "w", encoding="utf-8") as fp:
        fp.write("---\nschema: memhooks/v2\ninherits: true\n---\n")
    return count


def replay(root: str, events: list[dict]) -> int:
    """Feed each past commit's files to hook maintenance as a post-edit event."""
    from memhooks.agents.base import FileChange, NormalizedEvent
    from memhooks.maintain.events import maintain

    changed = 0
    for event in events:
        files = [FileChange(os.path.join(root, *f.split("/")), "written") for f in event["files"]]
        if files:
            changed += len(maintain(NormalizedEvent("generic", "post_edit", cwd=root, files=files), root))
    return changed


def score(ranked: list[str], relevant: list[str]) -> tuple[float, float, float]:
    wanted = set(relevant)
    at5 = len(wanted.intersection(ranked[:5])) / len(wanted)
    at10 = len(wanted.intersection(ranked[:10])) / len(wanted)
    mrr = next((1.0 / (i + 1) for i, m in enumerate(ranked) if m in wanted), 0.0)
    return at5, at10, mrr


def target_for(root: str, cwd: str) -> str:
    path = os.path.join(root, *cwd.split("/")) if cwd else root
    while not os.path.isdir(path):  # a folder that no longer exists at the split: its parent
        path = os.path.dirname(path)
    return path


def summarize(rows: list[tuple[float, float, float, int, float]]) -> dict[str, float]:
    n = len(rows) or 1
    return {
        "recall@5": round(sum(r[0] for r in rows) / n, 4),
        "recall@10": round(sum(r[1] for r in rows) / n, 4),
        "mrr": round(sum(r[2] for r in rows) / n, 4),
        "chars": round(statistics.median(r[3] for r in rows), 1) if rows else 0,
        "ms": round(statistics.median(r[4] for r in rows), 3) if rows else 0,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data_dir")
    parser.add_argument("--json", metavar="OUT")
    parser.add_argument("--mode", choices=("both", "session", "library"), default="both",
                        help="session: hook replay; library: recall() on/off/files; both (default)")  # fmt: skip
    parser.add_argument(
        "--budget", type=int, default=8000, help="characters per recall (default 8000)"
    )
    parser.add_argument(
        "--per-query", type=int, default=10, help="hits taken per recall query (default 10)"
    )
    parser.add_argument("--limit", type=int, default=0, help="only the first N tasks (0: all)")
    parser.add_argument("--subprocess", type=int, default=10, metavar="N",
                        help="session mode: replay N sessions as real hook processes too (default 10)")  # fmt: skip
    parser.add_argument("--search", choices=("bm25", "hybrid"), default="bm25",
                        help="embedded store ranking: bm25 (default) or hybrid (BM25 + embeddings; needs the semantic extra)")  # fmt: skip
    args = parser.parse_args()

    from memhooks.store import MemoryStore, project_id

    data = args.data_dir
    tasks = read_jsonl(os.path.join(data, "tasks.jsonl"))
    if args.limit:
        tasks = tasks[: args.limit]
    report: dict[str, object] = {}
    with tempfile.TemporaryDirectory(dir="/dev/shm" if os.path.isdir("/dev/shm") else None) as tmp:
        root = os.path.realpath(os.path.join(tmp, "project"))
        os.makedirs(root)
        os.environ["MEMHOOKS_ROOT"] = root
        os.environ["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
        store_path = os.path.join(tmp, "memories.sqlite3")
        started = time.perf_counter()
        files = build_tree(root, os.path.join(data, "tree.txt"))
        changed = replay(root, read_jsonl(os.path.join(data, "events.jsonl")))
        hooks = sum(1 for _d, _s, names in os.walk(root) if "MEMHOOKS.md" in names)
        with (
            MemoryStore(store_path) as store,
            open(os.path.join(data, "memories.jsonl"), encoding="utf-8") as fp,
        ):
            loaded = store.import_jsonl(project_id(root), fp)
            os.environ["MEMHOOKS_SEARCH"] = args.search
            if args.search == "hybrid":  # embed every memory before the clock starts
                from memhooks.store.semantic import backfill

                backfill(store)
        setup_s = time.perf_counter() - started
        print(
            f"tree: {files} files; replay: {changed} hook writes, {hooks} hooks; memories: {loaded['added']}; setup {setup_s:.1f} s",
            file=sys.stderr,
        )
        if args.mode in ("both", "library"):
            report.update(library(tasks, root, store_path, args.budget, args.per_query))
        if args.mode in ("both", "session"):
            report.update(sessions(tasks, root, store_path, tmp, args.subprocess))
    report["tasks"] = len(tasks)
    report["uptime"] = load()
    print(json.dumps(report, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fp:
            json.dump(report, fp, indent=2)
    return 0


def library(
    tasks: list[dict], root: str, store_path: str, budget: int, per_query: int
) -> dict[str, object]:
    """The on/off/files variants through :func:`memhooks.recall.recall` (step 4)."""
    from memhooks.recall import recall

    rows: dict[str, list[tuple[float, float, float, int, float]]] = {
        "on": [],
        "off": [],
        "files": [],
    }
    for task in tasks:
        target = target_for(root, task["cwd"])
        active = [os.path.join(root, *f.split("/")) for f in task.get("active_files", [])]
        for variant, kwargs in (
            ("on", {"routing": True}),
            ("off", {"routing": False}),
            ("files", {"routing": True, "files": [f for f in active if os.path.isfile(f)]}),
        ):
            t0 = time.perf_counter()
            result = recall(
                target,
                prompt=task["prompt"],
                budget=budget,
                per_query=per_query,
                store_path=store_path,
                strict=False,
                **kwargs,
            )
            ms = (time.perf_counter() - t0) * 1000
            ranked = [m["id"] for m in result["memories"]]
            rows[variant].append((*score(ranked, task["relevant"]), result["budget"]["used"], ms))
    return {variant: summarize(values) for variant, values in rows.items()}


def sessions(
    tasks: list[dict], root: str, store_path: str, tmp: str, sample: int
) -> dict[str, object]:
    """The session, root and oracle variants through the hook handler (step 5), each
    with its own state directory, and the subprocess check on ``sample`` sessions."""
    import session_replay

    env = session_replay.hook_env(dict(os.environ), tmp, root, store_path)
    out: dict[str, object] = {}
    kept: dict[str, list] = {}
    for variant in session_replay.VARIANTS:
        env["MEMHOOKS_STATE_DIR"] = os.path.join(tmp, "state", variant)
        rows, calls = [], []
        for task in tasks:
            made = session_replay.replay(variant, task, root, target_for(root, task["cwd"]), env)
            rows.append(session_replay.score(made, task["relevant"]))
            calls += made
            if variant == "session":
                kept[task["id"]] = made
        out[variant] = session_replay.summarize(rows, calls)
        print(f"{variant}: {json.dumps(out[variant])}", file=sys.stderr)
    out["oracle"]["label"] = (
        "upper bound: the task's folder as cwd, which no agent knows at prompt time"
    )
    if sample:
        step = max(1, len(tasks) // sample)
        picked = tasks[::step][:sample]
        env["MEMHOOKS_STATE_DIR"] = os.path.join(tmp, "state", "subprocess")
        totals: dict[str, int] = {}
        for task in picked:
            made = session_replay.replay(
                "session", task, root, target_for(root, task["cwd"]), env, process=True
            )
            for key, value in session_replay.compare(kept[task["id"]], made).items():
                totals[key] = totals.get(key, 0) + value
        out["subprocess"] = {"sessions": len(picked), **totals}
    return out


def load() -> str:
    """``uptime``'s load averages (the machine is shared: quote them with every figure)."""
    one, five, fifteen = os.getloadavg()
    return f"load average: {one:.2f}, {five:.2f}, {fifteen:.2f} ({os.cpu_count()} CPUs)"


if __name__ == "__main__":
    raise SystemExit(main())
