"""Whether ``memhooks why`` names the right commit *before* a reshaping commit, checked
against git line by line (issue 20 item 3).

    python bench/previous_agreement.py CLONE COMMIT [PATHSPEC...] [--json OUT]

For every line of the files ``PATHSPEC`` selects (default: every file) that ``COMMIT``
owns at ``HEAD`` (``git blame``), the expected previous owner is git's own: the owner,
in ``COMMIT^`` (``git blame COMMIT^``), of the line ``COMMIT`` removed that holds the
line's words — its word sequence contains the line's words in order and together (a
formatter that split ``from m import (a, b)`` into ``a,`` and ``b,``), or the other way
round (lines it merged; a removed line of one distinct word, ``except:``, is too short
to say it was merged into a line). A line is counted only when that is *unambiguous*: the lines
holding its words have one owner. Lines of no word, or whose words the commit did not
remove anywhere (written afresh), are left out.

memhooks is asked the way a user asks: ``explain_lines`` for the line alone (the first
commit named before ``COMMIT``), and for the run of consecutive lines ``COMMIT`` owns
around it (every previous owner found for that range, unbounded). Reported: lines
checked, agreement alone, agreement in the range, and the lines that disagree.
Uses a state folder of its own (a fresh cache); never writes in the clone.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from typing import Any

_WORD = re.compile(r"\w+")


def git(clone: str, *args: str) -> str:
    done = subprocess.run(["git", "-C", clone, *args], capture_output=True, check=True)
    return done.stdout.decode("utf-8", "replace")


def line_porcelain(clone: str, *args: str) -> list[tuple[str, int, str, str | None, str]]:
    """``git blame --line-porcelain ARGS``: per final line ``(hash, line in that commit,
    path there, previous 'hash path' or None, text)``."""
    out: list[tuple[str, int, str, str | None, str]] = []
    head: list[str] = []
    fields: dict[str, str] = {}
    for line in git(clone, "blame", "--line-porcelain", *args).split("\n"):
        if line.startswith("\t"):
            out.append((head[0], int(head[1]), fields["filename"], fields.get("previous"),
                        line[1:]))  # fmt: skip
            head, fields = [], {}
        elif not head:
            if line:
                head = line.split(" ")
        else:
            key, _, value = line.partition(" ")
            fields[key] = value
    return out


def contains(outer: list[str], inner: list[str]) -> bool:
    """Whether ``inner`` is a run of ``outer``."""
    n = len(inner)
    return any(outer[i : i + n] == inner for i in range(len(outer) - n + 1))


def removed_lines(clone: str, commit: str, old_path: str, path: str) -> dict[int, str]:
    """The lines of ``commit^:old_path`` that the diff to ``commit:path`` removed."""
    out: dict[int, str] = {}
    at = 0
    diff = git(clone, "diff", "-U0", "--no-color", f"{commit}^:{old_path}", f"{commit}:{path}")
    for line in diff.split("\n"):
        if line.startswith("@@ "):
            at = int(line.split(" ")[1][1:].split(",")[0])
        elif line.startswith("-") and not line.startswith("---"):
            out[at] = line[1:]
            at += 1
    return out


def expected(clone: str, commit: str, path: str) -> dict[int, tuple[int, str, str]]:
    """Per line of ``path`` (at HEAD) that ``commit`` owns and whose source is
    unambiguous: ``(its line in commit, its text, the expected previous owner)``."""
    found: dict[int, tuple[int, str, str]] = {}
    mine = [(n, row) for n, row in enumerate(line_porcelain(clone, "HEAD", "--", path), 1)
            if row[0] == commit]  # fmt: skip
    if not mine or mine[0][1][3] is None:
        return found
    prev_hash, old_path = str(mine[0][1][3]).split(" ", 1)
    there = mine[0][1][2]
    removed = removed_lines(clone, commit, old_path, there)
    parent = line_porcelain(clone, prev_hash, "--", old_path)
    words = {n: _WORD.findall(text) for n, text in removed.items()}
    for n, (_hash, orig, _path, _prev, text) in mine:
        core = _WORD.findall(text)
        if not core:
            continue
        holding = [m for m, w in words.items()
                   if w and (contains(w, core) or (len(set(w)) > 1 and contains(core, w)))]  # fmt: skip
        owners = {parent[m - 1][0] for m in holding}
        if len(owners) == 1:
            found[n] = (orig, text, owners.pop())
    return found


def runs(lines: list[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for n in sorted(lines):
        if out and out[-1][1] + 1 == n:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return out


def check(clone: str, commit: str, paths: list[str], state: str) -> dict[str, Any]:
    from memhooks.lines.ownership import owners
    from memhooks.lines.previous import previous_owners
    from memhooks.recall.why import explain_lines

    top = os.path.realpath(clone)
    commit = git(clone, "rev-parse", commit).strip()
    files = [p for p in git(clone, "ls-files", "--", *paths).split("\n") if p]
    rows: list[dict[str, Any]] = []
    for path in files:
        want = expected(clone, commit, path)
        if not want:
            continue
        in_range: dict[int, set[str]] = {}
        for first, last in runs(list(want)):
            own = owners(top, path, [(first, last)], state_dir=state)
            owner = own.owner(commit)
            found = set() if owner is None else {b.hash for b in previous_owners(top, owner, own)}
            for n in range(first, last + 1):
                in_range[n] = found
        for n, (orig, text, owner_before) in sorted(want.items()):
            answer = explain_lines(top, path, [(n, n)], state_dir=state)
            mine = next((e for e in answer.explanations if e.commit.hash == commit), None)
            alone = mine.before[0][0].hash if mine is not None and mine.before else None
            rows.append({"path": path, "line": n, "line_in_commit": orig, "text": text.strip(),
                         "expected": owner_before, "alone": alone,
                         "alone_right": alone == owner_before,
                         "in_range": owner_before in in_range[n]})  # fmt: skip
    total = len(rows)
    return {
        "commit": commit,
        "lines": total,
        "alone_right": sum(r["alone_right"] for r in rows),
        "in_range": sum(r["in_range"] for r in rows),
        "wrong": [r for r in rows if not (r["alone_right"] and r["in_range"])],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("clone")
    parser.add_argument("commit")
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--json", metavar="OUT", help="write the report here too")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="previous-agreement-") as state:
        report = check(args.clone, args.commit, args.paths, state)
    n = report["lines"]
    print(f"{report['commit'][:12]}: {n} lines with one source; previous owner right "
          f"alone {report['alone_right']}/{n}, in its range {report['in_range']}/{n}")  # fmt: skip
    for row in report["wrong"]:
        print(f"  {row['path']}:{row['line']} {row['text'][:50]!r}: expected "
              f"{row['expected'][:10]}, alone {str(row['alone'])[:10]}, "
              f"in range {'yes' if row['in_range'] else 'no'}")  # fmt: skip
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
