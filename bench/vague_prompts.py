"""Vague first prompts on a real clone: what the prompt hook delivers for a prompt that
names nothing ("what does this tool do?", "tidy up the table"), as Claude Code runs the
hook ``memhooks agents install`` wires.

    python bench/vague_prompts.py [--repo BUNDLE] [--tasks DIR] [--work DIR]
        [--prompts FILE] [--label NAME] [--json OUT]

Set-up as :mod:`repo_replay` (its work folder and :mod:`repo_clone`): the clone at the
split commit with ``memhooks history import`` done there, the hook installed afresh with
its own ``HOME`` (``WORK/vague/LABEL``) holding a copy of that store. Each prompt of
``--prompts`` (``bench/prompts/vague.txt``: one a line, ``#`` comments) is the first
prompt of its own session launched at the root. Reported per prompt and in total: the
memories that reached the model, how many are commits' (``memhooks history import``),
and the characters. Nothing is timed. A vague prompt should bring no commit
(docs/recall.md, "The prompt-time floor").
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import claude_host
import repo_clone
import repo_hook
from repo_replay import SHARED, memhooks_commit, repo_hook_handlers, split_of

HERE = os.path.dirname(os.path.abspath(__file__))
_SESSIONS = uuid.UUID("6d656d68-6f6f-6b73-2d76-616775652d31")


def prompts_of(path: str) -> list[str]:
    with open(path, encoding="utf-8") as fp:
        lines = [line.strip() for line in fp]
    return [line for line in lines if line and not line.startswith("#")]


def run(args: argparse.Namespace, work: str) -> dict:
    root = repo_clone.clone(work, args.repo)
    split = split_of(root, args.tasks, None)
    store, _report = repo_clone.imported(work, root, split)
    home = os.path.join(work, "vague", args.label, "home")
    shutil.rmtree(home, ignore_errors=True)
    env = repo_clone.sandbox_env(home, {"CLAUDE_PROJECT_DIR": root})
    user_store = os.path.join(home, ".local", "share", "memhooks", "memories.sqlite3")
    os.makedirs(os.path.dirname(user_store), exist_ok=True)
    shutil.copyfile(store, user_store)
    repo_clone.checkout(root, split)
    handlers = repo_hook_handlers(root, env)
    rows = []
    for prompt in prompts_of(args.prompts):
        session = claude_host.Session(root, str(uuid.uuid5(_SESSIONS, prompt)), seeded=True)
        call = repo_hook.call(handlers, "prompt", session.prompt(prompt), env, root)
        memories = claude_host.memories(call["text"])
        commits = [m for m in memories if isinstance(m.get("commit"), str)]
        rows.append({
            "prompt": prompt,
            "memories": len(memories),
            "commits": len(commits),
            "chars": call["chars"],
            "subjects": [m["text"].split("\n", 1)[0][:80] for m in commits],
            "notes": call["notes"],
        })  # fmt: skip
    status = [line for line in repo_clone.git(root, "status", "--porcelain", "--untracked-files=all")
              .decode().splitlines() if not line[3:].startswith(("MEMHOOKS.md", ".claude/"))]  # fmt: skip
    repo_clone.checkout(root, split)
    return {
        "memhooks": memhooks_commit(),
        "split": split,
        "prompts_file": os.path.abspath(args.prompts),
        "prompts": len(rows),
        "with_commits": sum(1 for r in rows if r["commits"]),
        "commits": sum(r["commits"] for r in rows),
        "memories": sum(r["memories"] for r in rows),
        "chars": sum(r["chars"] for r in rows),
        "status_after": status,  # besides the hook and settings the set-up wrote
        "rows": rows,
    }


def table(report: dict) -> str:
    lines = [f"memhooks {report['memhooks']}; split {report['split'][:12]}; "
             f"{report['prompts']} prompts"]  # fmt: skip
    lines.append(f"{'prompt':48} {'memories':>8} {'commits':>7} {'chars':>6}")
    for row in report["rows"]:
        lines.append(
            f"{row['prompt'][:48]:48} {row['memories']:>8} {row['commits']:>7} {row['chars']:>6}"
        )
        lines += [f"    commit: {s}" for s in row["subjects"]]
    lines.append(
        f"{'total':48} {report['memories']:>8} {report['commits']:>7} {report['chars']:>6}"
        f"   ({report['with_commits']} prompts brought a commit)"
    )
    if report["status_after"]:
        lines.append(f"git status after: {report['status_after']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", default=os.path.join(SHARED, "repos", "iproute2.bundle"))
    parser.add_argument("--tasks", default=os.path.join(SHARED, "bench", "iproute2"),
                        help="the task set whose README names the split commit")  # fmt: skip
    parser.add_argument("--work", default=os.path.join("/tmp", "memhooks-repo-bench"))
    parser.add_argument("--prompts", default=os.path.join(HERE, "prompts", "vague.txt"))
    parser.add_argument("--label", default="default", help="the run's name under WORK/vague")
    parser.add_argument("--json", metavar="OUT", help="write the report here too")
    args = parser.parse_args(argv)
    work = os.path.realpath(os.path.join(args.work, os.path.basename(args.repo).split(".")[0]))
    with repo_clone.lock(work):  # the clone is checked out: one run at a time
        report = run(args, work)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fp:
            json.dump(report, fp, indent=2)
    print(table(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
