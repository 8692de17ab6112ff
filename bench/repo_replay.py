"""Line-level recall on a real clone: each later commit that cites an earlier one, replayed
as the Claude Code session that makes it, through the hook ``memhooks agents install``
wires, with the real file contents at the commit's parent.

    python bench/repo_replay.py [--repo BUNDLE] [--tasks DIR] [--split REV] [--work DIR]
        [--label NAME] [--limit N] [--env KEY=VALUE]... [--unwired] [--fresh]
        [--json OUT] [--compare RUN.json]

Set-up, once per work folder (:mod:`repo_clone`): clone ``--repo``; at the split commit
(``--split``, by default ``tree.txt``'s, which the task set's README names), enable the
project (``memhooks init``) and run ``memhooks history import`` — the memories a user who
imported then has, and none from later (checked: ``future_commits``). Each run installs
the hook afresh (``memhooks agents install --agent claude-code --project``) with its own
``HOME`` holding a copy of that store where the hook looks by default.

Per task (``tasks.jsonl``: ``id`` the commit, ``prompt``, ``relevant`` the commits it
cites), in a session launched at the root (:mod:`repo_session`): the clone at the
commit's first parent with nothing else in it; ``UserPromptSubmit`` with the prompt; a
Read of each file the change touches (and a ranged Read of a hunk below the 2,000
lines a Read shows); then for each hunk a ``PreToolUse`` Edit, the edit
applied to the file, and its ``PostToolUse``; a created file is a Write. A step is sent
to the hook only when the installed settings wire it (``--unwired``: sent anyway,
reported apart). What reached the model is read as Claude Code reads it. Each task's
result is appended to ``WORK/runs/LABEL/results.jsonl`` as it ends, so a run that stops
resumes at the next task; a run whose memhooks code, harness, settings or split changed
refuses to mix (``--fresh`` starts it over). Scoring (:mod:`repo_report`) reads
``relevant`` and nothing else does.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import shlex
import shutil
import statistics
import sys
import uuid
from collections.abc import Iterator

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import claude_host
import repo_blame
import repo_clone
import repo_hook
import repo_report
import repo_session
from recall_history import memory_ids
from repo_session import git

HERE = os.path.dirname(os.path.abspath(__file__))


def shared() -> str:
    """The team's ``shared`` folder: beside the checkout or beside one of its parents
    (a worktree nests one level deeper)."""
    folder = os.path.dirname(HERE)
    while os.path.dirname(folder) != folder:
        folder = os.path.dirname(folder)
        if os.path.isdir(os.path.join(folder, "shared", "repos")):
            return os.path.join(folder, "shared")
    return os.path.join(os.path.dirname(os.path.dirname(HERE)), "shared")


SHARED = shared()
_SESSIONS = uuid.UUID("6d656d68-6f6f-6b73-2d72-65706f2d6265")


def read_jsonl(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as fp:
        return [json.loads(line) for line in fp if line.strip()]


def split_of(root: str, tasks_dir: str, split: str | None) -> str:
    """The split commit: ``split``, else the one the task set's README names (the
    miner writes it as ``| split commit (`tree.txt`) | `HASH` ... |``)."""
    if not split:
        with open(os.path.join(tasks_dir, "README.md"), encoding="utf-8") as fp:
            named = [line.split("`")[-2] for line in fp if line.startswith("| split commit")]
        if not named:
            raise SystemExit(f"{tasks_dir}/README.md names no split commit: give --split REV")
        split = named[0]
    return git(root, "rev-parse", f"{split}^{{commit}}").decode().strip()


def steps(session: claude_host.Session, root: str, files: list[repo_session.FilePlan],
          counts: dict[str, int]) -> Iterator[tuple[str, bytes]]:  # fmt: skip
    """The session after its prompt, as (step, payload); the tool's effect on disk (an
    edit applied, a file written) happens between a tool's pre and post steps, and
    ``counts`` tallies what was replayed and what could not be exactly."""
    for plan in files:
        if plan.exists:
            path = os.path.join(root, plan.path)
            counts["reads"] += 1
            yield "read", session.read(path)
            for offset, limit in repo_session.ranges(plan.hunks, claude_host.READ_LINES):
                counts["ranged_reads"] += 1
                yield "read", session.read(path, offset, limit)
    for plan in files:
        path = os.path.join(root, plan.path)
        if not plan.exists:
            counts["writes"] += 1
            content = plan.content or b""
            pre, post = session.write(path, repo_session.text(content))
            yield "pre-write", pre
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as fp:
                fp.write(content)
            yield "post-write", post
            continue
        delta = 0
        for hunk in plan.hunks:
            counts["hunks"] += 1
            counts["old_string_repeated"] += repo_session.occurrences(path, hunk) > 1
            with open(path, "rb") as fp:
                original = repo_session.text(fp.read())
            pre, post = session.edit(path, hunk.old_string(), hunk.new_string(), original,
                                     hunk.structured())  # fmt: skip
            yield "pre-edit", pre
            done, delta = repo_session.apply(path, hunk, delta)
            counts["not_applied"] += not done
            yield "post-edit", post


def replay_task(task: dict, root: str, hook: str, handlers: list[dict], env: dict[str, str],
                unwired: bool) -> dict:  # fmt: skip
    """One task's session (module docstring): its calls and what each gave the model."""
    commit = git(root, "rev-parse", f"{task['id']}^{{commit}}").decode().strip()
    parent = git(root, "rev-parse", f"{commit}^1").decode().strip()
    repo_clone.checkout(root, parent, hook)
    files = repo_session.plan(root, parent, commit)
    session = claude_host.Session(root, str(uuid.uuid5(_SESSIONS, commit)), seeded=True)
    calls = [repo_hook.call(handlers, "prompt", session.prompt(task["prompt"]), env, root, unwired)]
    counts = dict.fromkeys(
        ("reads", "ranged_reads", "hunks", "not_applied", "old_string_repeated", "writes"), 0
    )
    for step, raw in steps(session, root, files, counts):
        calls.append(repo_hook.call(handlers, step, raw, env, root, unwired))
    status = git(root, "status", "--porcelain", "--untracked-files=all").decode().splitlines()
    repo_clone.checkout(root, parent, hook)
    return {"id": task["id"], "commit": commit, "parent": parent, "prompt": task["prompt"],
            "files": [f.path for f in files], "counts": counts, "calls": calls,
            "status_after": status}  # fmt: skip


def open_run(run_dir: str, meta: dict, fresh: bool) -> list[dict]:
    """The results so far of the run in ``run_dir`` (none when it is new or ``fresh``);
    a run made with other ``meta`` is an error."""
    meta_file = os.path.join(run_dir, "meta.json")
    if fresh:
        shutil.rmtree(run_dir, ignore_errors=True)
    if os.path.exists(meta_file):
        with open(meta_file, encoding="utf-8") as fp:
            old = json.load(fp)
        keys = ("split", "code", "harness", "env", "unwired", "tasks_file", "store")
        if any(old.get(k) != meta.get(k) for k in keys):
            diff = [k for k in keys if old.get(k) != meta.get(k)]
            raise SystemExit(
                f"{run_dir} was run with other {', '.join(diff)}: --fresh to start over"
            )
        results = os.path.join(run_dir, "results.jsonl")
        return read_jsonl(results) if os.path.exists(results) else []
    os.makedirs(run_dir, exist_ok=True)
    with open(meta_file, "w", encoding="utf-8") as fp:
        json.dump(meta, fp, indent=2)
    return []


def harness_hash() -> str:
    """12 hex digits over the modules that make the sessions: a run made by other ones
    is not resumed."""
    digest = hashlib.sha256()
    for name in (
        "claude_host.py",
        "repo_session.py",
        "repo_replay.py",
        "repo_hook.py",
        "repo_clone.py",
    ):
        with open(os.path.join(HERE, name), "rb") as fp:
            digest.update(fp.read())
    return digest.hexdigest()[:12]


def memhooks_commit() -> str:
    """The commit of the memhooks checkout whose code runs (``+dirty`` with uncommitted
    changes under ``src/``): the one this interpreter imports, which need not be the
    checkout this script is in."""
    import memhooks

    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(memhooks.__file__))))
    try:
        sha = git(top, "rev-parse", "--short=12", "HEAD").decode().strip()
        dirty = git(top, "status", "--porcelain", "--", "src").strip()
    except Exception:  # noqa: BLE001 - not a checkout: the code hash still says it
        return "unknown"
    return sha + ("+dirty" if dirty else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", default=os.path.join(SHARED, "repos", "iproute2.bundle"))
    parser.add_argument("--tasks", default=os.path.join(SHARED, "bench", "iproute2"),
                        help="a task set of shared/tools/mine_history.py (tasks.jsonl, README.md)")  # fmt: skip
    parser.add_argument("--work", default=os.path.join("/tmp", "memhooks-repo-bench"),
                        help="work folder for the clone, imports and runs (default /tmp/memhooks-repo-bench)")  # fmt: skip
    parser.add_argument(
        "--split", metavar="REV", help="the last commit imported (default: the task set's README)"
    )
    parser.add_argument("--label", default="default", help="the run's name under WORK/runs")
    parser.add_argument("--limit", type=int, default=0, help="only the first N tasks (0: all)")
    parser.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                        help="a setting for every hook process (repeatable)")  # fmt: skip
    parser.add_argument("--unwired", action="store_true",
                        help="send steps the install does not wire too (reported apart)")  # fmt: skip
    parser.add_argument("--fresh", action="store_true", help="start the run over")
    parser.add_argument("--json", metavar="OUT", help="write the report here too")
    parser.add_argument("--analyze", action="store_true",
                        help="say where git alone places each cited commit (blame; cached in WORK)")  # fmt: skip
    parser.add_argument("--report", action="store_true",
                        help="score the run's results again without replaying (its settings as they were)")  # fmt: skip
    parser.add_argument("--show", metavar="TASK", help="print one replayed task's session and stop")
    parser.add_argument("--compare", metavar="RUN.json", help="a report to show beside this one")
    args = parser.parse_args(argv)

    work = os.path.realpath(os.path.join(args.work, os.path.basename(args.repo).split(".")[0]))
    if args.show:
        print(show(args, work))
        return 0
    with repo_clone.lock(work):  # one run at a time per clone: its tasks check it out
        report = run(args, work)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fp:
            json.dump(report, fp, indent=2)
    base = None
    if args.compare:
        with open(args.compare, encoding="utf-8") as fp:
            base = json.load(fp)
    print(repo_report.table(report, base))
    return 0


def show(args: argparse.Namespace, work: str) -> str:
    """The session of task ``args.show`` in run ``args.label``, step by step: what
    reached the model at each (first line of each memory; ``*``: a cited commit's)."""
    results = os.path.join(work, "runs", args.label, "results.jsonl")
    rows = [r for r in read_jsonl(results) if r["id"].startswith(args.show)]
    if not rows:
        raise SystemExit(f"{args.show}: not in {results}")
    tasks = [
        t for t in read_jsonl(os.path.join(args.tasks, "tasks.jsonl")) if t["id"] == rows[0]["id"]
    ]
    root = os.path.join(work, "clone")
    store = os.path.join(
        work, "runs", args.label, "home", ".local", "share", "memhooks", "memories.sqlite3"
    )
    env = repo_clone.sandbox_env(os.path.join(work, "runs", args.label, "home"))
    relevant = relevant_ids(root, split_of(root, args.tasks, args.split), store, env, tasks)
    return repo_report.show(rows[0], relevant[rows[0]["id"]])


def run(args: argparse.Namespace, work: str) -> dict:
    """The run :func:`main` describes, resumed where it stopped (``--report``: not
    replayed, its results scored again); its report."""
    tasks = read_jsonl(os.path.join(args.tasks, "tasks.jsonl"))
    tasks = tasks[: args.limit] if args.limit else tasks
    root = repo_clone.clone(work, args.repo)
    run_dir = os.path.join(work, "runs", args.label)
    if args.report:
        with open(os.path.join(run_dir, "meta.json"), encoding="utf-8") as fp:
            meta = json.load(fp)
        done = read_jsonl(os.path.join(run_dir, "results.jsonl"))
        report_import = meta.get("import", {})
    else:
        meta, done = start(args, work, root, run_dir, tasks)
        report_import = meta["import"]
    home = os.path.join(run_dir, "home")
    env = repo_clone.sandbox_env(home, {"CLAUDE_PROJECT_DIR": root, **meta["env"]})
    user_store = os.path.join(home, ".local", "share", "memhooks", "memories.sqlite3")
    order = {task["id"]: i for i, task in enumerate(tasks)}
    rows = sorted((r for r in done if r["id"] in order), key=lambda r: order[r["id"]])
    relevant = relevant_ids(root, meta["split"], user_store, env, tasks)
    report = repo_report.report(rows, relevant, meta, report_import, meta.get("handlers", []))
    if args.analyze:
        repo_report.add_analysis(report, repo_blame.cached(work, root, rows, relevant))
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    report["date"] = max((r.get("at", "") for r in rows), default="") or now  # last task's end
    report["load_end"] = [round(x, 2) for x in os.getloadavg()]
    report["load_during"] = round(statistics.mean(r["load"] for r in rows), 2) if rows else None
    return report


def start(args: argparse.Namespace, work: str, root: str, run_dir: str,
          tasks: list[dict]) -> tuple[dict, list[dict]]:  # fmt: skip
    """Replay the tasks of the run not replayed yet; (its meta, every result)."""
    split = split_of(root, args.tasks, args.split)
    store, report_import = repo_clone.imported(work, root, split)
    extra = dict(item.split("=", 1) for item in args.env)
    meta = {"split": split, "code": repo_clone.code_hash(), "harness": harness_hash(),
            "env": extra, "unwired": args.unwired,
            "tasks_file": os.path.abspath(os.path.join(args.tasks, "tasks.jsonl")),
            "store": store, "memhooks": memhooks_commit(), "repo": args.repo,
            "import": {k: report_import.get(k) for k in ("commits", "added", "obsoleted", "future_commits")}}  # fmt: skip
    done = open_run(run_dir, meta, args.fresh)
    home = os.path.join(run_dir, "home")
    env = repo_clone.sandbox_env(home, {"CLAUDE_PROJECT_DIR": root, **extra})
    user_store = os.path.join(home, ".local", "share", "memhooks", "memories.sqlite3")
    if not done:
        os.makedirs(os.path.dirname(user_store), exist_ok=True)
        shutil.copyfile(store, user_store)
    handlers = repo_hook_handlers(root, env)
    meta["handlers"] = handlers
    with open(os.path.join(run_dir, "meta.json"), "w", encoding="utf-8") as fp:
        json.dump(meta, fp, indent=2)
    with open(os.path.join(root, "MEMHOOKS.md"), encoding="utf-8") as fp:
        hook = fp.read()
    # the venv's own interpreter: the installed command may be a launcher script
    python = shlex.quote(sys.executable)
    seen = {row["id"] for row in done}
    with open(os.path.join(run_dir, "results.jsonl"), "a", encoding="utf-8") as out:
        for n, task in enumerate(tasks, 1):
            if task["id"] in seen:
                continue
            row = replay_task(task, root, hook, handlers, env, args.unwired)
            row["bare_ms"] = repo_hook.bare(python, env, root)
            row["load"] = os.getloadavg()[0]
            row["at"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
            out.write(json.dumps(row) + "\n")
            out.flush()
            done.append(row)
            print(f"{n}/{len(tasks)} {task['id']}: {len(row['calls'])} steps", file=sys.stderr)
    return meta, done


def repo_hook_handlers(root: str, env: dict[str, str]) -> list[dict]:
    handlers = repo_clone.install(root, env)
    if not any(h["event"] == "UserPromptSubmit" for h in handlers):
        raise SystemExit("agents install wired no UserPromptSubmit handler")
    return handlers


def relevant_ids(root: str, split: str, store: str, env: dict[str, str],
                 tasks: list[dict]) -> dict[str, dict]:  # fmt: skip
    """Per task id: ``{cited: {hash: [memory id]}, missing: [hash], obsolete: [hash]}``
    — the memories of the commits it cites, found by the commit each was imported from
    (``source``) or by the change id the import gives that commit; ``missing``: cited
    commits with no memory, ``obsolete``: with only obsolete ones (recall leaves them
    out)."""
    memories = repo_clone.exported(store, env, root)
    by_source: dict[str, list[str]] = {}
    for memory in memories:
        by_source.setdefault(memory.get("source", "")[4:], []).append(memory["id"])
    obsolete = {m["id"] for m in memories if m.get("obsolete")}
    stored = {m["id"] for m in memories}
    change = memory_ids(root, split)
    out = {}
    for task in tasks:
        cited = [
            git(root, "rev-parse", f"{c}^{{commit}}").decode().strip() for c in task["relevant"]
        ]
        ids: dict[str, list[str]] = {}
        for sha in cited:
            ids[sha] = sorted(
                {i for i in by_source.get(sha, []) + [change.get(sha, "")] if i in stored}
            )
        missing = [sha for sha, found in ids.items() if not found]
        gone = [sha for sha, found in ids.items() if found and set(found) <= obsolete]
        out[task["id"]] = {"cited": ids, "missing": missing, "obsolete": gone}
    return out


if __name__ == "__main__":
    raise SystemExit(main())
