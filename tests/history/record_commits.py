"""Record a stretch of a real repository's history as the data the history tests build
their fixture repository from (``data/commits.json``, key ``commits``).

    python tests/history/record_commits.py REPO FIRST LAST > recorded.json

FIRST and LAST are 1-based positions in ``git log --no-merges --reverse``. Each commit
becomes ``{"label", "author_email", "author_time", "commit_time", "message", "files"}``;
a hash of another recorded commit in a message becomes ``{commit:LABEL}``; e-mail addresses
become ``author-N@example.com`` so the file names nobody.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def main(repo: str, first: int, last: int) -> int:
    out = subprocess.run(
        [
            "git",
            "-C",
            repo,
            "log",
            "--no-merges",
            "--reverse",
            "-z",
            "--name-only",
            "--no-renames",
            "--format=%x1e%H%x1f%ae%x1f%at%x1f%ct%x1f%B",
        ],
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8", "replace")
    records = out.split("\x1e")[1:][first - 1 : last]
    commits, labels, emails = [], {}, {}
    for number, record in enumerate(records, first):
        head, _, rest = record.partition("\x00")
        sha, email, author_time, commit_time, message = head.split("\x1f", 4)
        labels[sha] = f"r{number}"
        files = [p.strip("\n") for p in rest.split("\x00") if p.strip("\n")]
        commits.append([sha, email, int(author_time), int(commit_time), message, files])

    def anonymous(match: re.Match[str]) -> str:
        return emails.setdefault(match.group(0).lower(), f"author-{len(emails) + 1}@example.com")

    rows = []
    for sha, email, author_time, commit_time, message, files in commits:
        for full, label in labels.items():
            message = re.sub(rf"\b{full[:7]}[0-9a-f]{{0,33}}\b", "{commit:" + label + "}", message)
        rows.append(
            {
                "label": labels[sha],
                "author_email": EMAIL.sub(anonymous, email),
                "author_time": author_time,
                "commit_time": commit_time,
                "message": EMAIL.sub(anonymous, message),
                "files": files,
            }
        )
    json.dump(rows, sys.stdout, indent=1, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
