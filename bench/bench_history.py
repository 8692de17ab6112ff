"""How fast ``memhooks history import`` fills the embedded store, and how much memory it takes.

    python bench/bench_history.py [--commits N] [--repo PATH] [--json OUT]

Without ``--repo``, a synthetic history of ``--commits`` commits (default 50,000) is
written with ``git fast-import`` into a temporary folder: messages of 1-6 lines drawn from
a fixed vocabulary (some with trailers; 1 in 100 reverting the commit five back, by a hash git does not
know and by its subject), 1-6 files per
commit in a tree of 4,000 paths over 200 folders, one 300-file commit per 5,000. With
``--repo`` (a repository, e.g. ``shared/repos/requests.bundle``) a clone of it is imported
instead. The project is enabled first (a root ``MEMHOOKS.md``, as ``memhooks init``
writes). Each import runs in a fresh process, as a user runs it, into a new store:

1. the full import (commits per second over the wall time of the process, its peak RSS,
   and the peak RSS of the git processes it ran);
2. a re-run on the same store (nothing new: the scan alone);
3. the prompt hook (``memhooks hook --agent claude-code``, a fresh process per prompt, as
   Claude Code runs it) in the repository's busiest folder, for 15 prompts (the subjects
   of the newest commits), with the imported store and with a store holding one memory of the project: medians of wall
   and CPU time — a large imported store must not slow every prompt;
4. a bare interpreter (``python -c pass``) of the same venv, for scale.

The targets (issue 15): at least 2,000 commits per second, and at most 60 MB RSS for the
import process of a 50,000-commit history.

Side by side with another version (``--baseline SRC``: the ``src`` folder of another
checkout, e.g. ``git archive <commit> src | tar -x -C /tmp/base``)::

    python bench/bench_history.py --baseline /tmp/base/src --repo A.bundle --repo B.bundle

imports each repository with both versions in one run, alternating them for ``--rounds``
rounds (default 3), each import a fresh process into a new store, then a re-run on it:
the medians of each, and the ratio current / baseline (steps 3 and 4 are left out).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

WORDS = [
    "cache",
    "session",
    "redirect",
    "header",
    "proxy",
    "timeout",
    "retry",
    "pool",
    "adapter",
    "cookie",
    "encoding",
    "chunked",
    "stream",
    "certificate",
    "hostname",
    "verify",
    "auth",
    "token",
    "refresh",
    "upload",
    "body",
    "json",
    "charset",
    "url",
    "query",
    "param",
    "socket",
    "keepalive",
    "connection",
    "response",
    "request",
    "hook",
    "error",
    "exception",
    "test",
    "docs",
    "build",
    "release",
    "fallback",
    "default",
    "legacy",
    "config",
    "parse",
    "decode",
    "buffer",
    "limit",
    "slow",
]

CHILD = r"""
import json, resource, sys, time
from memhooks.cli import main
started = time.perf_counter()
code = main(sys.argv[1:])
seconds = time.perf_counter() - started
import memhooks
print(json.dumps({"code": code, "main_s": seconds, "module": memhooks.__file__,
    "rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    "git_rss_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}), file=sys.stderr)
"""


def synthesize(repo: str, commits: int, seed: int = 15) -> None:
    """Write a history of ``commits`` commits on ``main`` with git fast-import."""
    rng = random.Random(seed)
    folders = [f"pkg{n // 20}/mod{n % 20}" for n in range(200)]
    paths = [f"{rng.choice(folders)}/file{n}.py" for n in range(4000)]
    subprocess.run(["git", "init", "-q", "-b", "main", repo], check=True)
    proc = subprocess.Popen(["git", "-C", repo, "fast-import", "--quiet"], stdin=subprocess.PIPE)
    assert proc.stdin is not None
    when = 1_400_000_000
    subjects: list[str] = []
    for number in range(1, commits + 1):
        when += rng.randint(60, 4000)
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 9)))
        lines = [f"{rng.choice(('Fix', 'Add', 'Use', 'fix:', 'feat(api):', 'Update'))} {words}"]
        if number > 10 and rng.random() < 0.01:
            # The hash is one git does not know (as after a rebase): the subject names it.
            lines = [f'Revert "{subjects[-5]}"', "", f"This reverts commit {number:040x}."]
        subjects.append(lines[0])
        lines.append("")  # the body is a paragraph of its own, or git folds it into %s
        for _ in range(rng.randint(0, 5)):
            lines.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 14))))
        if rng.random() < 0.3:
            lines += ["", f"Signed-off-by: Dev {number % 50} <dev{number % 50}@example.com>"]
        message = ("\n".join(lines) + "\n").encode()
        count = 300 if number % 5000 == 0 else rng.randint(1, 6)
        chunk = [
            b"commit refs/heads/main",
            f"author Dev <dev{number % 50}@example.com> {when} +0000".encode(),
            f"committer Dev <dev{number % 50}@example.com> {when} +0000".encode(),
            b"data %d" % len(message),
            message,
        ]
        for path in rng.sample(paths, count):
            body = f"{number}\n".encode()
            chunk += [f"M 100644 inline {path}".encode(), b"data %d" % len(body), body]
        proc.stdin.write(b"\n".join(chunk) + b"\n\n")
    proc.stdin.close()
    if proc.wait() != 0:
        raise SystemExit("git fast-import failed")
    subprocess.run(["git", "-C", repo, "reset", "-q", "--hard", "main"], check=True)


def run_import(repo: str, store: str, src: str | None = None) -> dict[str, float]:
    """One import in a fresh process (``src``: import memhooks from that folder)."""
    env = {**os.environ, "MEMHOOKS_ROOT": repo}
    if src:
        env["PYTHONPATH"] = src
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CHILD, "history", "import", repo, "--store", store, "--format", "json"],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"import failed:\n{done.stdout}\n{done.stderr}")
    stats = json.loads(done.stderr.strip().splitlines()[-1])
    report = json.loads(done.stdout)
    if src and not stats["module"].startswith(os.path.realpath(src)):
        raise SystemExit(f"the baseline ran memhooks from {stats['module']}, not {src}")
    return {
        "commits": report["commits"],
        "added": report["added"],
        "obsoleted": report["obsoleted"],
        "wall_s": round(wall, 3),
        "commits_per_s": round(report["commits"] / wall, 1),
        "rss_mb": round(stats["rss_kb"] / 1024, 1),
        "git_rss_mb": round(stats["git_rss_kb"] / 1024, 1),
    }


def hook_ms(repo: str, store: str, tmp: str, prompts: list[str], folder: str) -> dict[str, float]:
    """Median wall and CPU milliseconds of one prompt hook call per prompt (after one
    warm-up call that fills the search cache and writes bytecode)."""
    import statistics

    env = {
        **os.environ,
        "MEMHOOKS_STORE": store,
        "XDG_CACHE_HOME": os.path.join(tmp, "cache"),
        "MEMHOOKS_STATE_DIR": os.path.join(tmp, "state"),
    }
    walls, cpus = [], []
    for number, prompt in enumerate(["warm up", *prompts]):
        payload = json.dumps({
            "hook_event_name": "UserPromptSubmit", "cwd": os.path.join(repo, folder),
            "prompt": prompt, "session_id": f"bench-{number}",
        })  # fmt: skip
        before = _children_cpu()
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "memhooks", "hook", "--agent", "claude-code"],
            input=payload, capture_output=True, text=True, env=env, check=True,
        )  # fmt: skip
        wall = (time.perf_counter() - started) * 1000
        cpu = (_children_cpu() - before) * 1000
        if number:
            walls.append(wall)
            cpus.append(cpu)
    return {
        "wall_ms": round(statistics.median(walls), 1),
        "cpu_ms": round(statistics.median(cpus), 1),
    }


def _children_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def busiest_folder(repo: str) -> str:
    """The folder below the root, not hidden (``.github``), whose files the last 500
    commits touched most (``""`` when there is none)."""
    import collections

    out = subprocess.run(
        ["git", "-C", repo, "log", "-500", "--no-merges", "--name-only", "--format="],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    counts = collections.Counter(path.rpartition("/")[0] for path in out.splitlines() if path)
    for folder, _ in counts.most_common():
        hidden = any(part.startswith(".") for part in folder.split("/"))
        if folder and not hidden and os.path.isdir(os.path.join(repo, folder)):
            return folder
    return ""


def bare_ms() -> float:
    best = float("inf")
    for _ in range(5):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        best = min(best, (time.perf_counter() - started) * 1000)
    return round(best, 1)


def side_by_side(repo: str, baseline: str, rounds: int) -> dict[str, object]:
    """Imports of ``repo`` (a clone of it, enabled) by this version and ``baseline`` (a
    ``src`` folder), alternating, ``rounds`` times: medians and the ratio."""
    import statistics

    with tempfile.TemporaryDirectory() as tmp:
        clone = os.path.join(tmp, "repo")
        subprocess.run(["git", "clone", "-q", os.path.realpath(repo), clone], check=True)
        with open(os.path.join(clone, "MEMHOOKS.md"), "w", encoding="utf-8") as fp:
            fp.write("---\nschema: memhooks/v2\n---\n")
        runs: dict[str, list[dict[str, float]]] = {"baseline": [], "current": []}
        reruns: dict[str, list[dict[str, float]]] = {"baseline": [], "current": []}
        loads = [os.getloadavg()[0]]
        for number in range(rounds):
            for name, src in (("baseline", baseline), ("current", None)):
                store = os.path.join(tmp, f"{name}-{number}.sqlite3")
                runs[name].append(run_import(clone, store, src))
                reruns[name].append(run_import(clone, store, src))
            loads.append(os.getloadavg()[0])
    out: dict[str, object] = {"repo": repo, "rounds": rounds, "load": loads}
    for name in ("baseline", "current"):
        out[name] = {
            "commits": runs[name][0]["commits"],
            "added": runs[name][0]["added"],
            "obsoleted": runs[name][0]["obsoleted"],
            "import_s": statistics.median(r["wall_s"] for r in runs[name]),
            "rerun_s": statistics.median(r["wall_s"] for r in reruns[name]),
            "rss_mb": max(r["rss_mb"] for r in runs[name]),
        }
    base, now = out["baseline"], out["current"]
    assert isinstance(base, dict) and isinstance(now, dict)
    out["ratio"] = {
        "import": round(now["import_s"] / base["import_s"], 2),
        "rerun": round(now["rerun_s"] / base["rerun_s"], 2),
    }
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=50_000, help="synthetic history size")
    parser.add_argument(
        "--repo", action="append", help="import this clone instead of a synthetic history"
    )
    parser.add_argument("--baseline", metavar="SRC", help="compare with memhooks from SRC")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of a --baseline run")
    parser.add_argument("--json", metavar="OUT")
    args = parser.parse_args()
    if args.baseline:
        compared = {
            "runs": [side_by_side(repo, args.baseline, args.rounds) for repo in args.repo or []],
            "bare_python_ms": bare_ms(),
        }
        print(json.dumps(compared, indent=2))
        if args.json:
            with open(args.json, "w", encoding="utf-8") as fp:
                json.dump(compared, fp, indent=2)
        return 0
    if args.repo and len(args.repo) > 1:
        parser.error("one --repo at a time without --baseline")
    args.repo = args.repo[0] if args.repo else None
    with tempfile.TemporaryDirectory() as tmp:
        repo = os.path.join(tmp, "repo")
        if args.repo:  # a clone, so that enabling the project leaves the user's alone
            subprocess.run(["git", "clone", "-q", os.path.realpath(args.repo), repo], check=True)
        else:
            started = time.perf_counter()
            synthesize(repo, args.commits)
            build_s = time.perf_counter() - started
            print(f"synthetic history: {args.commits} commits in {build_s:.1f} s", file=sys.stderr)
        with open(os.path.join(repo, "MEMHOOKS.md"), "w", encoding="utf-8") as fp:
            fp.write("---\nschema: memhooks/v2\n---\n")  # what `memhooks init` writes
        store = os.path.join(tmp, "memories.sqlite3")
        first = run_import(repo, store)
        again = run_import(repo, store)
        prompts = subprocess.run(
            ["git", "-C", repo, "log", "-15", "--no-merges", "--format=%s"],
            capture_output=True, text=True, check=True,
        ).stdout.splitlines()  # fmt: skip
        folder = busiest_folder(repo)
        empty = os.path.join(tmp, "one.sqlite3")  # the same project with one memory
        subprocess.run(
            [sys.executable, "-m", "memhooks", "history", "import", repo, "--store", empty, "--max", "1"],
            capture_output=True, check=True, env={**os.environ, "MEMHOOKS_ROOT": repo},
        )  # fmt: skip
        hook = {
            "folder": folder,
            "imported": hook_ms(repo, store, os.path.join(tmp, "a"), prompts, folder),
            "one_memory": hook_ms(repo, empty, os.path.join(tmp, "b"), prompts, folder),
        }
        result = {
            "repo": args.repo or f"synthetic ({args.commits} commits)",
            "import": first,
            "rerun": again,
            "hook": hook,
            "bare_python_ms": bare_ms(),
            "store_mb": round(os.path.getsize(store) / 2**20, 1),
            "load": os.getloadavg()[0],
        }
    print(json.dumps(result, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fp:
            json.dump(result, fp, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
