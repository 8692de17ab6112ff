"""Where a task's cited commit could have come from, told by git alone (failure analysis
for :mod:`repo_replay`; nothing here runs memhooks or reaches its figures).

For each cited commit, at the task's parent: does it own lines of a hunk the change
edits (the hunk's old side: its lines and 3 of context — what a pre-edit blame sees),
or, if not, is it the *previous* owner of such a line (blame looking through the
current owners, ``--ignore-rev``), or does it own lines of a file the change reads (and
its rank among that file's owners by lines owned), or did it only touch one of those
files, or none of them (then only the prompt can find it)?
"""

from __future__ import annotations

import json
import os
import subprocess

from repo_session import git, plan


def blame(root: str, rev: str, path: str, span: tuple[int, int] | None = None,
          ignore: set[str] = frozenset()) -> list[str]:  # type: ignore[assignment]  # fmt: skip
    """The owner of each line of ``path`` at ``rev`` (``span``: first and last line,
    1-based), from ``git blame --porcelain``; ``ignore``: commits blame looks through
    (``--ignore-rev``: their lines go to the commit that owned them before)."""
    args = ["blame", "--porcelain", *(f"--ignore-rev={sha}" for sha in sorted(ignore))]
    if span is not None:
        args.append(f"-L{span[0]},{span[1]}")
    try:
        out = git(root, *args, rev, "--", path).decode("utf-8", "replace")
    except subprocess.CalledProcessError:
        return []
    owners = []
    for line in out.split("\n"):
        head = line.split(" ")
        if len(head) >= 3 and len(head[0]) == 40 and head[1].isdigit() and head[2].isdigit():
            owners.append(head[0])
    return owners


def analyze(root: str, commit: str, parent: str, cited: list[str]) -> dict[str, str]:
    """Per cited commit (12 hex digits): ``edited lines``, ``previous owner of edited
    lines``, ``owns read lines (rank N)``, ``touched a read file``, or ``elsewhere``."""
    files = [f for f in plan(root, parent, commit) if f.exists]
    edited, prev = set(), set()
    for f in files:
        for hunk in f.hunks:
            if not hunk.old:
                continue
            span = (hunk.old_start, hunk.old_start + len(hunk.old) - 1)
            owners = set(blame(root, parent, f.path, span))
            edited |= owners
            prev |= set(blame(root, parent, f.path, span, owners)) - owners
    rank: dict[str, int] = {}
    for f in files:
        counts: dict[str, int] = {}
        for sha in blame(root, parent, f.path):
            counts[sha] = counts.get(sha, 0) + 1
        for n, sha in enumerate(sorted(counts, key=lambda s: -counts[s]), 1):
            rank[sha] = min(rank.get(sha, n), n)
    touched = set()
    for f in files:
        touched |= set(git(root, "log", "--format=%H", parent, "--", f.path).decode().split())
    out = {}
    for sha in cited:
        out[sha[:12]] = (
            "edited lines" if sha in edited
            else "previous owner of edited lines" if sha in prev
            else f"owns read lines (rank {rank[sha]})" if sha in rank
            else "touched a read file" if sha in touched
            else "elsewhere"
        )  # fmt: skip
    return out


def cached(
    work: str, root: str, rows: list[dict], relevant: dict[str, dict]
) -> dict[str, dict[str, str]]:
    """:func:`analyze` for every task of ``rows``, kept in ``WORK/analysis.json`` (it
    depends on git alone)."""
    path = os.path.join(work, "analysis.json")
    known: dict[str, dict[str, str]] = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fp:
            known = json.load(fp)
    for row in rows:
        if row["id"] not in known:
            known[row["id"]] = analyze(
                root, row["commit"], row["parent"], list(relevant[row["id"]]["cited"])
            )
    with open(path + ".tmp", "w", encoding="utf-8") as fp:
        json.dump(known, fp, indent=1)
    os.replace(path + ".tmp", path)
    return known
