"""A shell read through the hook (issue 20 item 2; rough20): what Codex's ``PostToolUse``
of its shell tool costs when the agent pages through a file with ``sed -n A,Bp``, ``nl
-ba F | sed -n A,Bp``, ``head``, ``tail`` or ``cat``, against Claude Code's ``Read`` of
the same lines — the hook commands ``memhooks agents install`` writes for each host
(the per-user launcher, started by ``/bin/sh -c``), a fresh process per event, on a
clone of ``shared/repos/iproute2.bundle`` (``memhooks init`` only: the commits come
from git), in its 5 largest often-changed files.

Every case is cold: a new session and no blame cached (the worst a read meets; the
whole file's blame that a ranged read starts in the background is waited for, untimed,
and dropped before the next case). Cases, each 40 lines at a random place of a file:

* ``read``: Claude Code ``Read`` ``offset``/``limit`` (the bound a shell read is held to);
* ``read_whole``: ``Read`` without a range (a Read's default window, 2,000 lines);
* ``sed``, ``nl_sed``, ``head``, ``tail``: Codex shell reads of those 40 lines (``head``
  and ``tail``: the file's first and last 40);
* ``cat``: ``cat`` of the whole file — bounded like ``read_whole`` (before: a blame of
  every line, 750 ms on a 10,000-line file).

Reported per case: p50, p95 and fastest wall time (ms), p50 over a bare ``python -c
pass`` of the same interpreter measured in the same run, characters told (median),
deadline hits (the hook's own no-op), and the load average at start and end.

    .venv/bin/python bench/bench_shell_read.py [--repo BUNDLE] [--runs 11] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench_blame import busiest_large_files, clone, emit
from bench_lines_hook import DEFAULT_REPO, stats, timed, told, wait_for_blame_ahead

CASES = ("read", "read_whole", "sed", "nl_sed", "head", "tail", "cat")
#: Lines each ranged read pages through.
LINES = 40


def installed(exe: str, env: dict[str, str], home: str) -> dict[str, list[str]]:
    """The ``PostToolUse`` command ``memhooks agents install`` writes for Claude Code
    and for Codex, for a user whose home is ``home`` (``{host: ["/bin/sh", "-c", …]}``)."""
    mine = dict(env, HOME=home)
    mine.pop("XDG_DATA_HOME", None)
    os.makedirs(home, exist_ok=True)
    out = {}
    for host, settings in (
        ("claude-code", ".claude/settings.json"),
        ("codex", ".codex/hooks.json"),
    ):
        subprocess.run([exe, "agents", "install", "--agent", host], env=mine, cwd=home,
                       check=True, capture_output=True)  # fmt: skip
        with open(os.path.join(home, settings), encoding="utf-8") as fp:
            command = json.load(fp)["hooks"]["PostToolUse"][0]["hooks"][0]["command"]
        out[host] = ["/bin/sh", "-c", command]
    return out


def payload(case: str, root: str, session: str, path: str, at: int) -> tuple[str, bytes]:
    """(host, the payload of ``case``) reading ``LINES`` lines from line ``at``."""
    last = at + LINES - 1
    if case.startswith("read"):
        args = {"file_path": os.path.join(root, path)}
        if case == "read":
            args.update(offset=at, limit=LINES)
        body = {"hook_event_name": "PostToolUse", "tool_name": "Read", "tool_input": args,
                "tool_response": {}}  # fmt: skip
        return "claude-code", json.dumps({"session_id": session, "cwd": root, **body}).encode()
    command = {
        "sed": f"sed -n '{at},{last}p' {path}",
        "nl_sed": f"nl -ba {path} | sed -n {at},{last}p",
        "head": f"head -n {LINES} {path}",
        "tail": f"tail -n {LINES} {path}",
        "cat": f"cat {path}",
    }[case]
    body = {"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_use_id": "b1",
            "turn_id": "t1", "tool_input": {"command": command}, "tool_response": ""}  # fmt: skip
    return "codex", json.dumps({"session_id": session, "cwd": root, **body}).encode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", default=DEFAULT_REPO)
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--json", metavar="OUT")
    args = parser.parse_args()
    exe = os.path.join(os.path.dirname(sys.executable), "memhooks")
    bare = [sys.executable, "-c", "pass"]
    rng = random.Random(11)
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.realpath(clone(args.repo, os.path.join(tmp, "repo")))
        env = {k: v for k, v in os.environ.items() if not k.startswith("MEMHOOKS_")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        state = os.path.join(tmp, "state")
        env.update(HOME=tmp, MEMHOOKS_STORE=os.path.join(tmp, "none.sqlite3"),
                   XDG_CACHE_HOME=os.path.join(tmp, "cache"), MEMHOOKS_STATE_DIR=state)  # fmt: skip
        subprocess.run([exe, "init"], cwd=root, env=env, check=True, capture_output=True)
        commands = installed(exe, env, os.path.join(tmp, "home"))
        files = busiest_large_files(root)
        times: dict[str, list[float]] = {k: [] for k in ("bare", *CASES)}
        chars: dict[str, list[int]] = {k: [] for k in CASES}
        hits = dict.fromkeys(CASES, 0)
        load = os.getloadavg()
        for number in range(args.runs + 1):
            path, size = files[number % len(files)]
            at = rng.randrange(1, max(2, size - LINES))
            bare_ms = timed(bare, env)[0]
            for case in CASES:
                shutil.rmtree(os.path.join(state, "blame"), ignore_errors=True)
                host, body = payload(case, root, f"s{number}{case}", path, at)
                ms, _cpu, out, err = timed(commands[host], env, body)
                wait_for_blame_ahead(state)
                if number == 0:
                    continue  # bytecode and first-run caches: not measured
                times[case].append(ms)
                chars[case].append(told(out))
                hits[case] += "gave up after the" in err
            if number:
                times["bare"].append(bare_ms)
        bare_p50 = statistics.median(times["bare"])
        report = {
            "runs": args.runs,
            "repo": args.repo,
            "files": files,
            "command": commands["codex"][2],
            "load": [round(x, 2) for x in load] + [round(x, 2) for x in os.getloadavg()],
            "bare_ms": stats(times["bare"]),
            "cases": {
                case: {
                    **stats(times[case]),
                    "ratio_p50": round(statistics.median(times[case]) / bare_p50, 2),
                    "chars_median": statistics.median(chars[case]),
                    "deadline_hits": hits[case],
                }
                for case in CASES
            },
        }
    emit(report, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
