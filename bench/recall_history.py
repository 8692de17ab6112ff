"""Recall on a real repository whose memories come from ``memhooks history import``.

    python bench/recall_history.py REPO [--split REV | --split-date DATE | --split-fraction F]
                                   [--budget CHARS] [--per-query N] [--json OUT]

The benchmark and the product share one code path: the store is built by running
``memhooks history import`` itself (:func:`memhooks.cli.main`) on a clone of ``REPO``
(a repository or a bundle) checked out at the split commit, so every memory is what a user who imported at that
moment would have. The tasks are the later commits whose message cites an earlier one
(``Fixes: 1a2b3c4``, ``Follow-up to <hash>``, ``This reverts commit <hash>``), the way
``shared/tools/mine_history.py`` mines ``shared/bench/git`` (see its README):

* a citation is a 7-40 hex-digit token (not all digits) that git resolves to a commit
  whose memory is in the store; ``(cherry picked from commit …)`` lines do not count;
* the prompt is the task's subject with every cited subject (and the quotes around it)
  and every resolvable hash cut out, e-mail addresses dropped; a task is dropped when
  fewer than 3 words or under half of the subject's words are left, or a cited subject
  or hash is still in it;
* ``cwd`` is the folder of the task's most-changed file (as of the split: a folder
  created later becomes its nearest existing parent), ``active_files`` its 5
  most-changed files; ``relevant`` the memory ids of the commits it cites.

Recall then runs for every task through :func:`recall_quality.library` (imported from
``bench/recall_quality.py``): routing **on** (the folder's plan + the prompt), **off**
(the prompt alone) and **files** (on, plus the files the change later touched — it
peeks at the answer's neighbourhood, so it is reported apart). Nothing but the scoring
reads ``relevant``. The split defaults to the first-parent commit 80% of the way
through the non-merge history.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from recall_quality import library

HASH_TOKEN = re.compile(r"(?<![0-9A-Za-z])[0-9a-f]{7,40}(?![0-9A-Za-z])")
CHERRY_PICK = re.compile(r"^\s*\(cherry picked from commit [0-9a-f]+\)\s*$", re.MULTILINE)
EMAIL = re.compile(r"<?[\w.+-]+@[\w-]+(?:\.[\w-]+)+>?")
WORD = re.compile(r"[A-Za-z0-9_]+")
QUOTES = "\"'`\u201c\u201d\u2018\u2019"
MIN_WORDS = 3
FUNNEL = (
    "later commits", "cite a commit", "cite a memory", "dropped: prompt mostly the cited subject",
    "dropped: prompt still names the cited commit", "tasks",
)  # fmt: skip
MAX_ACTIVE = 5


def git(repo: str, *args: str, stdin: str | None = None) -> str:
    done = subprocess.run(
        ["git", "-C", repo, *args], input=stdin, capture_output=True, text=True,
        encoding="utf-8", errors="replace", check=True,
    )  # fmt: skip
    return done.stdout


def split_commit(
    repo: str, head: str, *, rev: str | None, date: str | None, fraction: float
) -> str:
    """The commit whose history becomes the memories."""
    if rev:
        return git(repo, "rev-parse", "--verify", f"{rev}^{{commit}}").strip()
    line = git(repo, "rev-list", "--first-parent", "--no-merges", head).split()[::-1]
    if date:
        before = git(repo, "rev-list", "--first-parent", "-1", f"--before={date}", head).split()
        if not before:
            raise SystemExit(f"no commit before {date}")
        return before[0]
    return line[min(int(len(line) * fraction), len(line) - 1)]


def later_commits(repo: str, split: str | None, head: str) -> list[dict]:
    """Non-merge commits of ``split..head`` (all of ``head`` when ``split`` is None),
    oldest first: hash, first parent, subject, message and ``{path: changed lines}``."""
    out = git(
        repo, "log", "--no-merges", "--reverse", "--no-renames", "-z", "--numstat",
        "--format=%x1e%H%x1f%P%x1f%s%x1f%B%x00", f"{split}..{head}" if split else head,
    )  # fmt: skip
    commits = []
    for record in out.split("\x1e")[1:]:
        head_part, _, numstat = record.partition("\x00")
        sha, parents, subject, message = head_part.split("\x1f", 3)
        changes: dict[str, int] = {}
        for entry in numstat.split("\x00"):
            fields = entry.strip("\n").split("\t")
            if len(fields) == 3 and fields[2]:
                added, deleted, path = fields
                lines = int(added) + int(deleted) if added.isdigit() and deleted.isdigit() else 0
                changes[path] = changes.get(path, 0) + lines
        parent = parents.split()[0] if parents.split() else None
        commits.append(
            {
                "hash": sha,
                "parent": parent,
                "subject": subject,
                "message": message,
                "changes": changes,
            }
        )
    return commits


def resolve(repo: str, tokens: list[str]) -> dict[str, str]:
    """``{token: full hash}`` for the tokens git resolves to a commit."""
    if not tokens:
        return {}
    out = git(
        repo,
        "cat-file",
        "--batch-check=%(objectname) %(objecttype)",
        stdin="\n".join(tokens) + "\n",
    )
    found = {}
    for token, line in zip(tokens, out.splitlines()):
        parts = line.split()
        if len(parts) == 2 and parts[1] == "commit":
            found[token] = parts[0]
    return found


def cut(prompt: str, phrase: str) -> str:
    """``prompt`` without ``phrase`` (as whole words, any case and spacing) and the quotes
    right around it."""
    words = phrase.split()
    if not words:
        return prompt
    body = r"\s+".join(re.escape(word) for word in words)
    return re.sub(rf"[{QUOTES}]?(?<!\w){body}(?!\w)[{QUOTES}]?", " ", prompt, flags=re.IGNORECASE)


def tidy(prompt: str) -> str:
    prompt = re.sub(r"\(\s*[,;:]?\s*\)|\[\s*\]", " ", prompt)
    return " ".join(prompt.split()).strip(" ,;:-")


def mine_tasks(
    repo: str, split: str | None, head: str, memory_of: dict[str, str], funnel: dict[str, int]
) -> list[dict]:
    """Tasks (module docstring) from the commits after ``split`` (all, when None);
    ``memory_of`` maps the full hash of every commit that may be a memory to its memory
    id; ``funnel`` counts each step."""
    commits = later_commits(repo, split, head)
    tokens = sorted(
        {
            t
            for c in commits
            for t in HASH_TOKEN.findall(CHERRY_PICK.sub("", c["message"]))
            if not t.isdigit()
        }
    )
    full = resolve(repo, tokens)
    subjects = dict(
        line.split("\x1f", 1)
        for line in git(repo, "log", "--format=%H%x1f%s", split or head).splitlines()
    )
    tasks = []
    for key in FUNNEL:
        funnel[key] = 0
    for commit in commits:
        funnel["later commits"] += 1
        message = CHERRY_PICK.sub("", commit["message"])
        cited = sorted(
            {full[t] for t in HASH_TOKEN.findall(message) if t in full} - {commit["hash"]}
        )
        relevant = sorted({memory_of[sha] for sha in cited if sha in memory_of})
        funnel["cite a commit"] += bool(cited)
        funnel["cite a memory"] += bool(relevant)
        if not relevant or not commit["changes"]:
            continue
        prompt = EMAIL.sub(" ", commit["subject"])
        for sha in cited:
            prompt = cut(prompt, subjects.get(sha, ""))
        prompt = tidy(HASH_TOKEN.sub(lambda m: " " if m.group(0) in full else m.group(0), prompt))
        words = len(WORD.findall(prompt))
        if words < MIN_WORDS or words < 0.5 * len(WORD.findall(commit["subject"])):
            funnel["dropped: prompt mostly the cited subject"] += 1
            continue
        if any(sha[:7] in prompt for sha in cited) or any(
            subjects.get(sha) and subjects[sha].lower() in prompt.lower() for sha in cited
        ):
            funnel["dropped: prompt still names the cited commit"] += 1
            continue
        funnel["tasks"] += 1
        ranked = sorted(commit["changes"], key=lambda path: (-commit["changes"][path], path))
        folder = ranked[0].rpartition("/")[0]
        tasks.append({
            "id": commit["hash"][:12],
            "parent": commit["parent"],
            "prompt": prompt,
            "cwd": folder,
            "active_files": ranked[:MAX_ACTIVE],
            "relevant": relevant,
        })  # fmt: skip
    return tasks


def import_at(root: str, store: str, commit: str) -> dict:
    """Check out ``commit`` in the clone ``root`` and run ``memhooks history import``
    there (enabling the project first, as ``memhooks init`` would); the import's JSON."""
    from contextlib import redirect_stdout
    from io import StringIO

    from memhooks.cli import main

    git(root, "checkout", "-q", "--detach", commit)
    with open(os.path.join(root, "MEMHOOKS.md"), "w", encoding="utf-8") as fp:
        fp.write("---\nschema: memhooks/v2\n---\n")
    out = StringIO()
    with redirect_stdout(out):
        code = main(["history", "import", root, "--store", store, "--format", "json"])
    if code != 0:
        raise SystemExit(f"history import failed with exit status {code}")
    return json.loads(out.getvalue())


def memory_ids(root: str, head: str) -> dict[str, str]:
    """``{commit hash: memory id}`` for the history of ``head``, as the import names them."""
    from memhooks.history import memory_ids as named
    from memhooks.history import open_checkout

    return named(open_checkout(root, root), [head])


def combine(parts: list[dict]) -> dict:
    """One report from per-task :func:`recall_quality.library` reports: means of the
    recall figures, medians of characters and milliseconds."""
    import statistics

    out: dict = {}
    for variant in ("on", "off", "files"):
        rows = [part[variant] for part in parts]
        out[variant] = {
            key: round((statistics.mean if key in ("recall@5", "recall@10", "mrr") else statistics.median)(
                row[key] for row in rows), 4)
            for key in rows[0]
        }  # fmt: skip
    return out


def run(repo: str, *, split_rev: str | None = None, split_date: str | None = None,
        fraction: float | None = None, budget: int = 8000, per_query: int = 10) -> dict:  # fmt: skip
    """The whole benchmark on ``repo`` (anything ``git clone`` takes: a folder, a bundle);
    the report as a dict. With a split (``split_rev``, ``split_date`` or ``fraction``) one
    import at the split serves the later tasks; without, each task is recalled right
    after an incremental import up to its parent (module docstring)."""
    from memhooks.store import MemoryStore

    with tempfile.TemporaryDirectory(dir="/dev/shm" if os.path.isdir("/dev/shm") else None) as tmp:
        os.environ["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
        started = time.perf_counter()
        root = os.path.realpath(os.path.join(tmp, "project"))
        subprocess.run(["git", "clone", "-q", "--no-checkout", repo, root], check=True)
        head = git(root, "rev-parse", "HEAD").strip()
        store = os.path.join(tmp, "memories.sqlite3")
        ids = memory_ids(root, head)
        funnel: dict[str, int] = {}
        split = None
        if split_rev or split_date or fraction is not None:
            split = split_commit(
                root, head, rev=split_rev, date=split_date, fraction=fraction or 0.8
            )
            imported = import_at(root, store, split)
            with MemoryStore(store, create=False) as opened:
                stored = opened.stored(imported["project"], ids.values())
            known = {sha: memory_id for sha, memory_id in ids.items() if memory_id in stored}
            tasks = mine_tasks(root, split, head, known, funnel)
            report = library(tasks, root, store, budget, per_query) if tasks else {}
        else:
            tasks = mine_tasks(root, None, head, ids, funnel)
            parts, kept, imported = [], [], {"added": 0, "obsoleted": 0}
            for task in tasks:
                if task["parent"] is None:
                    continue
                step = import_at(root, store, task["parent"])
                imported = {k: imported[k] + step[k] for k in ("added", "obsoleted")}
                with MemoryStore(store, create=False) as opened:
                    if not opened.stored(step["project"], task["relevant"]):
                        continue  # cites a commit on another branch, not imported before it
                kept.append(task)
                parts.append(library([task], root, store, budget, per_query))
            funnel["tasks whose cited commit was imported before them"] = len(kept)
            tasks = kept
            report = combine(parts) if parts else {}
        setup_s = time.perf_counter() - started
    return {
        "repo": repo,
        "mode": "split" if split else "replay",
        "split": split,
        "head": head,
        "memories": imported["added"],
        "obsolete": imported["obsoleted"],
        "tasks": len(tasks),
        "funnel": funnel,
        "seconds": round(setup_s, 2),
        **report,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", help="a git repository (a clone or a bundle) to read")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--split", metavar="REV", help="the last commit whose history is memory")
    which.add_argument("--split-date", metavar="DATE", help="memories: commits before DATE")
    which.add_argument("--split-fraction", type=float, metavar="F",
                       help="split this far through the first-parent history (e.g. 0.8)")  # fmt: skip
    parser.add_argument(
        "--budget", type=int, default=8000, help="characters per recall (default 8000)"
    )
    parser.add_argument(
        "--per-query", type=int, default=10, help="hits per recall query (default 10)"
    )
    parser.add_argument("--json", metavar="OUT")
    args = parser.parse_args()
    report = run(
        args.repo, split_rev=args.split, split_date=args.split_date,
        fraction=args.split_fraction, budget=args.budget, per_query=args.per_query,
    )  # fmt: skip
    print(json.dumps(report, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fp:
            json.dump(report, fp, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
