"""Does folder routing help recall? Measure it on a data set mined from git history.

    python bench/recall_quality.py DATA_DIR [--json OUT] [--budget CHARS] [--limit N]

``DATA_DIR`` holds ``tree.txt``, ``events.jsonl``, ``memories.jsonl`` and ``tasks.jsonl``
in the format of ``shared/tools/mine_history.py`` (see ``shared/bench/git/README.md``).
Steps, all in a temporary directory:

1. build the project tree (empty files) and enable it with a root hook;
2. replay every event through the same maintenance code ``memhooks event`` runs
   (:func:`memhooks.maintain.events.maintain`), so hooks grow exactly as in use;
3. load the memories into the embedded store;
4. for every task run recall twice with the same store and budget — routing **on** (the
   plan for the task's folder + the prompt) and **off** (the prompt alone) — and a third,
   separately reported variant **files** (routing on plus the task's ``active_files``,
   which the change later touched, so it peeks at the answer's neighbourhood);
5. report recall@5, recall@10, MRR, injected characters and latency (medians, ms) per
   variant. ``--json OUT`` writes ``{"on": {...}, "off": {...}, "files": {...}, "tasks": N}``.

``--search hybrid`` embeds every memory first (minutes on a CPU) and ranks with BM25
fused with all-MiniLM-L6-v2 cosine similarity (the ``semantic`` extra).

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
            changed += len(maintain(NormalizedEvent("generic", "post_edit", cwd=root, files=files)))
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
    parser.add_argument("--budget", type=int, default=8000, help="characters per recall (default 8000)")
    parser.add_argument("--per-query", type=int, default=10, help="hits taken per recall query (default 10)")
    parser.add_argument("--limit", type=int, default=0, help="only the first N tasks (0: all)")
    parser.add_argument("--search", choices=("bm25", "hybrid"), default="bm25",
                        help="embedded store ranking: bm25 (default) or hybrid (BM25 + embeddings; needs the semantic extra)")  # fmt: skip
    args = parser.parse_args()

    from memhooks.recall import recall
    from memhooks.store import MemoryStore, project_id

    data = args.data_dir
    tasks = read_jsonl(os.path.join(data, "tasks.jsonl"))
    if args.limit:
        tasks = tasks[: args.limit]
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
        with MemoryStore(store_path) as store, open(os.path.join(data, "memories.jsonl"), encoding="utf-8") as fp:
            loaded = store.import_jsonl(project_id(root), fp)
            os.environ["MEMHOOKS_SEARCH"] = args.search
            if args.search == "hybrid":  # embed every memory before the clock starts
                from memhooks.store.semantic import backfill

                backfill(store)
        setup_s = time.perf_counter() - started
        print(f"tree: {files} files; replay: {changed} hook writes, {hooks} hooks; memories: {loaded['added']}; setup {setup_s:.1f} s", file=sys.stderr)

        rows: dict[str, list[tuple[float, float, float, int, float]]] = {"on": [], "off": [], "files": []}
        for task in tasks:
            target = target_for(root, task["cwd"])
            active = [os.path.join(root, *f.split("/")) for f in task.get("active_files", [])]
            for variant, kwargs in (
                ("on", {"routing": True}),
                ("off", {"routing": False}),
                ("files", {"routing": True, "files": [f for f in active if os.path.isfile(f)]}),
            ):
                t0 = time.perf_counter()
                result = recall(target, prompt=task["prompt"], budget=args.budget, per_query=args.per_query, store_path=store_path, strict=False, **kwargs)
                ms = (time.perf_counter() - t0) * 1000
                ranked = [m["id"] for m in result["memories"]]
                rows[variant].append((*score(ranked, task["relevant"]), result["budget"]["used"], ms))
    report = {variant: summarize(values) for variant, values in rows.items()}
    report["tasks"] = len(tasks)
    print(json.dumps(report, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fp:
            json.dump(report, fp, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
