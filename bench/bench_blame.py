"""What line ownership costs (issue 20 item 7): ``memhooks.lines.owners`` (:mod:`memhooks.lines.ownership`) on real and
large histories, cold (nothing cached) and warm (the cache of the file version).

    python bench/bench_blame.py [--repo BUNDLE_OR_PATH]... [--no-repo] [--synthetic N]
                                [--samples 15] [--json OUT]

Histories (each cloned or written into a temporary folder; the user's repositories are
never touched):

* ``--repo``: a clone of each (default ``shared/repos/iproute2.bundle``: 7,015 commits);
* ``--synthetic N`` (default 30,000; 0 skips it): N commits written with ``git
  fast-import``: three files of 3,000 lines, each changed in a few places by one commit
  in 20, and 200 small files the other commits change — a long history where most
  commits do not touch the files blamed, the case git's changed-path filters are for.

For each history, on its 5 largest files (by lines, 500 or more) among the 40 changed
most often:

1. ``cold_range``: the owners of 10 lines at a random place (``-L``), nothing cached;
2. ``cold_edit``: the same with the ±3 lines of context an edit is given (16 lines);
3. ``cold_file``: the owners of a whole file, nothing cached;
4. ``warm_range``: the 10 lines again from the cache of the file version (in-process:
   what the hook pays on top of its start-up);
5. ``previous``: the previous owners of the range's main owner that has a version
   before it (diff + blame of that version), cold.

Each twice: as cloned (no commit-graph file: git walks every commit's trees), and after
``git commit-graph write --reachable --changed-paths`` in the clone (the bench's own
clone; memhooks never writes one into a user's repository — docs/history.md says how
to, and why it helps). Reported per case: p50, p95 and max in milliseconds, samples,
the load average at the start and end.
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

from memhooks.lines import owners, previous_owners

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.normpath(os.path.join(HERE, "..", "..", "shared"))
DEFAULT_REPO = os.path.join(SHARED, "repos", "iproute2.bundle")


def git(repo: str, *args: str, stdin: bytes | None = None) -> str:
    done = subprocess.run(["git", "-C", repo, *args], input=stdin, capture_output=True, check=True)
    return done.stdout.decode("utf-8", "replace")


def clone(source: str, into: str) -> str:
    subprocess.run(["git", "clone", "-q", source, into], check=True)
    # the clone must not come with a commit-graph: measure git without it first
    for name in ("commit-graph", "commit-graphs"):
        path = os.path.join(into, ".git", "objects", "info", name)
        subprocess.run(["rm", "-rf", path], check=True)
    return into


def synthetic(into: str, commits: int, seed: int = 7) -> str:
    """A history of ``commits`` commits (see the module docstring)."""
    rng = random.Random(seed)
    os.makedirs(into)
    git(into, "init", "-q", "-b", "main")
    big = {f"src/core/big{n}.c": [f"int v{n}_{i} = {i}; /* line {i} */" for i in range(3000)]
           for n in range(3)}  # fmt: skip
    out: list[bytes] = []
    when = 1_500_000_000
    for number in range(1, commits + 1):
        when += rng.randrange(60, 7200)
        files: dict[str, str] = {}
        if number == 1:
            files = {path: "\n".join(lines) + "\n" for path, lines in big.items()}
        elif number % 20 == 0:
            path = rng.choice(sorted(big))
            lines = big[path]
            for _ in range(rng.randrange(1, 4)):
                at = rng.randrange(len(lines))
                size = rng.randrange(1, 8)
                new = [f"int c{number}_{k} = {at}; /* change {number} */" for k in range(size)]
                lines[at : at + rng.choice((size, size - 1, size + 1))] = new
            files = {path: "\n".join(lines) + "\n"}
        else:
            files = {f"src/misc/f{rng.randrange(200)}.c": f"/* {number} */\n"}
        message = f"change {number}: adjust {', '.join(files)}\n\nWhy: reason {number}.\n"
        head = [b"commit refs/heads/main",
                f"author Dev <dev@example.com> {when} +0000".encode(),
                f"committer Dev <dev@example.com> {when} +0000".encode(),
                b"data %d" % len(message.encode()), message.encode()]  # fmt: skip
        for path, text in files.items():
            data = text.encode()
            head += [f"M 100644 inline {path}".encode(), b"data %d" % len(data), data]
        out.append(b"\n".join(head) + b"\n\n")
    proc = subprocess.Popen(["git", "-C", into, "fast-import", "--quiet"], stdin=subprocess.PIPE)
    assert proc.stdin is not None
    for chunk in out:
        proc.stdin.write(chunk)
    proc.stdin.close()
    if proc.wait() != 0:
        raise SystemExit("git fast-import failed")
    git(into, "reset", "-q", "--hard", "main")
    return into


def busiest_large_files(repo: str, count: int = 5, least: int = 500) -> list[tuple[str, int]]:
    """(path, lines) of the largest files among the 40 most often changed, of at least
    ``least`` lines."""
    log = git(repo, "log", "--format=", "--name-only", "--no-renames", "-n", "3000")
    changes: dict[str, int] = {}
    for path in log.split("\n"):
        if path:
            changes[path] = changes.get(path, 0) + 1
    sized = []
    for path, _ in sorted(changes.items(), key=lambda kv: -kv[1])[:40]:
        full = os.path.join(repo, path)
        if os.path.isfile(full):
            with open(full, "rb") as fp:
                sized.append((path, fp.read().count(b"\n")))
    sized.sort(key=lambda item: -item[1])
    return [item for item in sized if item[1] >= least][:count]


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"p50": round(statistics.median(ordered), 1), "p95": round(p95, 1),
            "max": round(ordered[-1], 1), "n": len(ordered)}  # fmt: skip


def measure(repo: str, files: list[tuple[str, int]], samples: int, rng: random.Random) -> dict:
    times: dict[str, list[float]] = {k: [] for k in
                                     ("cold_range", "cold_edit", "cold_file", "warm_range", "previous")}  # fmt: skip
    with tempfile.TemporaryDirectory() as scratch:
        for number in range(samples):
            path, size = files[number % len(files)]
            start = rng.randrange(1, max(2, size - 20))
            state = os.path.join(scratch, f"s{number}")
            began = time.perf_counter()
            answer = owners(repo, path, [(start, start + 9)], state_dir=state)
            times["cold_range"].append((time.perf_counter() - began) * 1000)
            began = time.perf_counter()
            owners(repo, path, [(start, start + 9)], state_dir=state)
            times["warm_range"].append((time.perf_counter() - began) * 1000)
            began = time.perf_counter()
            owners(repo, path, [(start + 20, start + 35)], state_dir=state + "e")
            times["cold_edit"].append((time.perf_counter() - began) * 1000)
            owner = next((o for o in answer.owners if o.previous), None)
            if owner is not None:
                began = time.perf_counter()
                previous_owners(repo, owner, answer)
                times["previous"].append((time.perf_counter() - began) * 1000)
            if number < max(3, samples // 3):  # whole files cost the most: fewer samples
                began = time.perf_counter()
                owners(repo, path, state_dir=state + "f")
                times["cold_file"].append((time.perf_counter() - began) * 1000)
    return {case: summary(values) for case, values in times.items() if values}


def run_history(name: str, repo: str, samples: int) -> dict:
    files = busiest_large_files(repo)
    commits = int(git(repo, "rev-list", "--count", "HEAD").strip())
    result: dict = {"history": name, "commits": commits, "files": files}
    rng = random.Random(11)
    result["no_commit_graph"] = measure(repo, files, samples, rng)
    git(repo, "commit-graph", "write", "--reachable", "--changed-paths")
    result["commit_graph_changed_paths"] = measure(repo, files, samples, random.Random(11))
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", action="append", help="a bundle or repository to clone")
    parser.add_argument("--no-repo", action="store_true", help="only the synthetic history")
    parser.add_argument("--synthetic", type=int, default=30_000, metavar="N")
    parser.add_argument("--samples", type=int, default=15)
    parser.add_argument("--json", metavar="OUT")
    args = parser.parse_args()
    report: dict = {"load_before": os.getloadavg(), "histories": []}
    with tempfile.TemporaryDirectory() as tmp:
        for number, source in enumerate([] if args.no_repo else args.repo or [DEFAULT_REPO]):
            repo = clone(source, os.path.join(tmp, f"repo{number}"))
            report["histories"].append(run_history(os.path.basename(source), repo, args.samples))
            print(json.dumps(report["histories"][-1]), file=sys.stderr)
        if args.synthetic:
            began = time.perf_counter()
            repo = synthetic(os.path.join(tmp, "synthetic"), args.synthetic)
            built = time.perf_counter() - began
            result = run_history(f"synthetic-{args.synthetic}", repo, args.samples)
            result["build_s"] = round(built, 1)
            report["histories"].append(result)
    report["load_after"] = os.getloadavg()
    emit(report, args.json)
    return 0


def emit(report: dict, path: str | None) -> None:
    """Print ``report`` as JSON, and write it to ``path`` when given."""
    text = json.dumps(report, indent=2)
    print(text)
    if path:
        with open(path, "w", encoding="utf-8") as fp:
            fp.write(text + "\n")


if __name__ == "__main__":
    raise SystemExit(main())
