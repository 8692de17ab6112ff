"""A longer history for the crash and concurrency tests, in the format of
``data/commits.json`` (built by :func:`gitrepo.build`): ``n`` commits over 60 files in
6 folders, deterministic. Every 97th commit reverts the commit five back under a subject
that does not say "Revert" (the kind a re-run once failed to re-check: psf/requests'
"Remove unnecessary bit from previous branch."); one git-style ``Revert "…"`` is itself
reverted; one reverted change lands again; a folder is renamed halfway."""

from __future__ import annotations

from typing import Any

WORDS = ["retry", "cache", "session", "proxy", "header", "cookie", "timeout", "pool", "redirect"]
FOLDERS = ["net", "auth", "cache", "docs", "cli", "util"]


def history(n: int) -> list[dict[str, Any]]:
    commits: list[dict[str, Any]] = []
    base = 1_600_000_000
    renamed = False
    for i in range(n):
        folder = FOLDERS[i % len(FOLDERS)]
        if renamed and folder == "net":
            folder = "src/net"
        files = [f"{folder}/{WORDS[(i * 7 + k) % len(WORDS)]}_{k}.py" for k in range(1 + i % 3)]
        word = WORDS[i % len(WORDS)]
        commit: dict[str, Any] = {
            "label": f"c{i}",
            "author_email": f"dev-{i % 5}@example.com",
            "author_time": base + 600 * i,
            "commit_time": base + 600 * i + 30,
            "files": files,
            "message": f"{folder}: tune the {word} handling, step {i}\n\n"
            f"The {word} path lost {i % 13} ms per call under load.\n",
        }
        if i and i % 97 == 0:
            commit["message"] = (
                f"Back out the {word} step of c{i - 5}\n\nThis reverts commit {{commit:c{i - 5}}}.\n"
            )
            commit["files"] = commits[i - 5]["files"]
        if i == n // 2 and not renamed:
            renamed = True
            moved = sorted({p for c in commits for p in c["files"] if p.startswith("net/")})
            commit["renames"] = [[p, "src/" + p] for p in moved]
            commit["files"] = []
            commit["message"] = "Move net/ under src/\n"
        commits.append(commit)
    # A git-style revert, its own revert, and a change that lands after being reverted.
    last = base + 600 * n
    land = {
        "label": "land",
        "author_email": "dev-9@example.com",
        "author_time": last,
        "commit_time": last,
        "files": ["cache/pool_0.py"],
        "message": "Cache pooled connections per host\n",
    }
    commits += [
        land,
        {
            "label": "unland",
            "author_email": "dev-8@example.com",
            "author_time": last + 60,
            "commit_time": last + 60,
            "files": ["cache/pool_0.py"],
            "message": 'Revert "Cache pooled connections per host"\n\n'
            "This reverts commit {commit:land}.\n",
        },
        {
            "label": "reunland",
            "author_email": "dev-8@example.com",
            "author_time": last + 120,
            "commit_time": last + 120,
            "files": ["cache/pool_0.py"],
            "message": 'Revert "Revert "Cache pooled connections per host""\n\n'
            "This reverts commit {commit:unland}.\n",
        },
        {**land, "label": "reland", "commit_time": last + 300, "files": ["cache/pool_1.py"]},
    ]
    return commits
