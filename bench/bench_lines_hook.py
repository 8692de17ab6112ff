"""Line-level recall through the hook (issue 20 item 7): the ``PreToolUse`` and
``PostToolUse`` commands ``memhooks agents install --agent claude-code`` writes into the
user's ``~/.claude/settings.json`` (the per-user launcher, ``memhooks.install.launcher``:
``/bin/sh`` then the interpreter), each run as Claude Code runs it (``/bin/sh -c``), a
fresh process per event, on a clone of ``shared/repos/iproute2.bundle`` (or a large
synthetic history: ``--synthetic N``; ``memhooks init`` only: no store — the commits
come from git), in its 5 largest often-changed files.

Cases, each run at a random place of a file:

* ``read_cold``: ``PostToolUse`` of a Read of 40 lines (``offset``/``limit``) in a new
  session with no blame cached: blames those lines within the hook's deadline, tells the
  ranked owners, starts the whole file's blame in the background (waited for, untimed);
* ``edit_told``: the ``PreToolUse`` of an Edit of 3 of those lines in the same session:
  cache warm, its owners already told (the usual read-then-edit);
* ``edit_far``: then the ``PreToolUse`` of an Edit of 3 lines outside what was read
  (200 lines further, or before it near the end of the file), same session, cache warm:
  their owners not told yet unless they own read lines too;
* ``edit_new``: the same Edit as ``edit_told`` in a new session that read the 40 lines
  around the far edit's first (an agent reads a file before it edits it: Claude Code's
  Edit refuses a file not read in the session): cache warm, owners told now;
* ``edit_first``: the same Edit as a new session's first event (no read before it, as
  Claude Code never sends one: reported for scale): owners told now, through the state
  file (memhooks.session.claims: a session's read leaves what its edits claim against);
* ``edit_cold``: the same Edit in a new session with no blame cached (an edit with no
  read before it);
* ``edit_off``: the same Edit with ``MEMHOOKS_LINE_RECALL=off``: the hook's own cost for
  a PreToolUse (root, session), for scale.

Reported per case: p50, p95 and fastest wall time (ms) and p50 as a ratio to a bare
``python -c pass`` of the same interpreter, measured interleaved in the same run; the
median, run by run, of its CPU time (user + system, the process and its children) over
the bare interpreter's (``cpu_ratio``: steadier than wall time on a shared machine) and
of its wall time over the bare interpreter's of the same run (``wall_ratio``);
characters told (median, max); deadline hits (the hook's own 3 s no-op); for
``edit_told``, how many the shortcut settled without the state file
(:mod:`memhooks.session.fastpath`), how many went the whole way and told something (the
read had not told every owner of the edited lines) or nothing (``whole_silent``: what
the shortcut could not vouch for), and the CPU and wall ratios of each (``edit_told_by_way``).
Target: an Edit
with a warm cache (``edit_told``, ``edit_new``) at most 2x bare; a cold Read within the
deadline.

``--synthetic N``: instead of a clone, N commits written by ``git fast-import``
(``bench_blame.synthetic``: three 3,000-line files changed by one commit in 20, the other
commits elsewhere — tens of thousands of commits, most not touching the files blamed).

``--history``: ``memhooks history import`` the clone first, so the hook has a store to
open (the symbol cue searches it at every edit, :mod:`memhooks.recall.symbol_recall`);
without it there is none, and the commits come from git alone. ``--baseline EXE``:
another install's ``memhooks`` command (a virtualenv of an older checkout), installed
the same way for a user of its own and timed in the same run, each call interleaved with
this one's, each with its own state folder; the report gains ``baseline``,
``same_as_baseline`` (per case, the runs where both told exactly the same),
``vs_baseline`` (p50 over the baseline's p50, per case) and ``vs_baseline_cpu`` (the
same for ``cpu_ratio``).

    .venv/bin/python bench/bench_lines_hook.py [--repo BUNDLE | --synthetic N] [--runs 21]
        [--json OUT] [--history] [--baseline EXE]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench_blame import busiest_large_files, clone, emit, synthetic

DEFAULT_REPO = os.path.normpath(
    os.path.join(HERE, "..", "..", "shared", "repos", "iproute2.bundle")
)
CASES = ("read_cold", "edit_told", "edit_far", "edit_new", "edit_first", "edit_cold", "edit_off")


def installed(exe: str, env: dict[str, str], home: str) -> dict[str, list[str]]:
    """``memhooks agents install --agent claude-code`` by the install whose ``memhooks``
    command is ``exe``, for a user whose home is ``home``: the command it wrote for each
    event (``{event: ["/bin/sh", "-c", command]}``, as Claude Code starts it)."""
    mine = dict(env, HOME=home)
    mine.pop("XDG_DATA_HOME", None)  # the launcher in ~/.local/share/memhooks/bin
    os.makedirs(home, exist_ok=True)
    subprocess.run([exe, "agents", "install", "--agent", "claude-code"], env=mine, cwd=home,
                   check=True, capture_output=True)  # fmt: skip
    with open(os.path.join(home, ".claude", "settings.json"), encoding="utf-8") as fp:
        hooks = json.load(fp)["hooks"]
    out = {}
    for event in ("PreToolUse", "PostToolUse"):
        command = hooks[event][0]["hooks"][0]["command"]
        assert "/.local/share/memhooks/bin/memhooks" in command, command  # the launcher
        out[event] = ["/bin/sh", "-c", command]
    return out


def timed(
    argv: list[str], env: dict[str, str], stdin: bytes = b""
) -> tuple[float, float, str, str]:
    """(wall ms, CPU ms: user + system of the process and its children, stdout, stderr)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, input=stdin, env=env, capture_output=True, check=False)
    elapsed = (time.perf_counter() - started) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    if done.returncode != 0:
        raise SystemExit(f"{argv} -> {done.returncode}: {done.stderr!r}")
    return elapsed, cpu, done.stdout.decode(), done.stderr.decode()


def state_key(state: str, session: str) -> list[tuple[int, int]]:
    """What a call that went the whole way changes: the state file's and its write-ahead
    log's size and mtime (it writes the session's row), or the session's claim journal's
    (a pre-tool edit that claims without the state file, memhooks.session.claims)."""
    out = []
    for name in ("state.sqlite3", "state.sqlite3-wal", f"sessions/{session}.claims"):
        try:
            st = os.stat(os.path.join(state, name))
            out.append((st.st_size, st.st_mtime_ns))
        except OSError:
            out.append((0, 0))
    return out


def told(stdout: str) -> int:
    if not stdout.strip():
        return 0
    return len(json.loads(stdout)["hookSpecificOutput"]["additionalContext"])


def payload(kind: str, root: str, session: str, path: str, lines: list[str], at: int) -> bytes:
    full = os.path.join(root, path)
    if kind in ("read", "read_far"):
        if kind == "read_far":  # the 40 lines around the `far` edit's
            at = at + 190 if at + 213 < len(lines) else max(0, at - 210)
        body = {"hook_event_name": "PostToolUse", "tool_name": "Read", "tool_response": {},
                "tool_input": {"file_path": full, "offset": at, "limit": 40}}  # fmt: skip
    else:
        if kind == "far":  # outside the 40 lines read at `at`
            at = at + 200 if at + 213 < len(lines) else max(0, at - 200)
        old = "".join(lines[at + 10 : at + 13])
        body = {"hook_event_name": "PreToolUse", "tool_name": "Edit",
                "tool_input": {"file_path": full, "old_string": old, "new_string": old + "\n"}}  # fmt: skip
    return json.dumps({"session_id": session, "cwd": root, **body}).encode()


def wait_for_blame_ahead(state: str, seconds: float = 60.0) -> None:
    end = time.monotonic() + seconds
    folder = os.path.join(state, "blame")
    while time.monotonic() < end:
        if not os.path.isdir(folder) or not any(n.endswith(".warm") for n in os.listdir(folder)):
            return
        time.sleep(0.05)


def read_lines(path: str) -> list[str]:
    with open(path, encoding="utf-8", errors="replace") as fp:
        return fp.readlines()


def stats(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {
        "p50": round(statistics.median(ordered), 1),
        "p95": round(p95, 1),
        "min": round(ordered[0], 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", default=DEFAULT_REPO)
    parser.add_argument("--synthetic", type=int, default=0, metavar="N",
                        help="a synthetic history of N commits instead of --repo")  # fmt: skip
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--json", metavar="OUT")
    parser.add_argument("--history", action="store_true", help="import the history first")
    parser.add_argument(
        "--baseline", metavar="EXE", help="another install's memhooks, timed beside"
    )
    args = parser.parse_args()
    exe = os.path.join(os.path.dirname(sys.executable), "memhooks")
    bare = [sys.executable, "-c", "pass"]
    rng = random.Random(5)
    with tempfile.TemporaryDirectory() as tmp:
        if args.synthetic:
            root = os.path.realpath(synthetic(os.path.join(tmp, "repo"), args.synthetic))
        else:
            root = os.path.realpath(clone(args.repo, os.path.join(tmp, "repo")))
        store = os.path.join(tmp, "memories.sqlite3" if args.history else "none.sqlite3")
        env = {k: v for k, v in os.environ.items() if not k.startswith("MEMHOOKS_")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # bytecode compiled, as after an install
        env.update(HOME=tmp, MEMHOOKS_STORE=store, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        subprocess.run([exe, "init"], cwd=root, env=env, check=True, capture_output=True)
        if args.history:
            subprocess.run([exe, "history", "import"], cwd=root, env=env, check=True, capture_output=True)  # fmt: skip
        # Each install's hook commands as `agents install` writes them (the launcher)
        versions = {"current": installed(exe, env, os.path.join(tmp, "home-current"))}
        if args.baseline:
            versions["baseline"] = installed(args.baseline, env, os.path.join(tmp, "home-baseline"))
        states = {name: os.path.join(tmp, f"state-{name}") for name in versions}
        files = busiest_large_files(root)
        texts = {p: read_lines(os.path.join(root, p)) for p, _ in files}
        times = {name: {k: [] for k in ("bare", *CASES)} for name in versions}
        cpu: dict[str, dict[str, list[float]]] = {name: {k: [] for k in CASES} for name in versions}
        wall: dict[str, dict[str, list[float]]] = {
            name: {k: [] for k in CASES} for name in versions
        }
        chars: dict[str, dict[str, list[int]]] = {name: {k: [] for k in CASES} for name in versions}
        hits = {name: dict.fromkeys(CASES, 0) for name in versions}
        # edit_told's CPU ratios, by whether the shortcut settled it
        split: dict[str, dict[str, list[tuple[float, float]]]] = {
            name: {"settled": [], "whole": [], "whole_silent": []} for name in versions
        }
        # per case, the runs where both installs told the same (--baseline)
        same = dict.fromkeys(CASES, 0)
        load = os.getloadavg()
        for number in range(args.runs + 2):
            path, size = files[number % len(files)]
            at = rng.randrange(1, max(2, size - 60))
            lines = texts[path]
            bare_ms = timed(bare, env)
            told_by: dict[str, dict[str, str]] = {}
            for name, commands in versions.items():
                pre, post = commands["PreToolUse"], commands["PostToolUse"]
                state = states[name]
                mine = dict(env, MEMHOOKS_STATE_DIR=state)
                shutil.rmtree(os.path.join(state, "blame"), ignore_errors=True)
                session = f"s{number}"
                measured: dict[str, tuple[float, float, str, str]] = {"bare": bare_ms}
                measured["read_cold"] = timed(
                    post, mine, payload("read", root, session, path, lines, at)
                )
                wait_for_blame_ahead(state)
                before = state_key(state, session)
                measured["edit_told"] = timed(
                    pre, mine, payload("edit", root, session, path, lines, at)
                )
                shortcut = state_key(state, session) == before  # settled: nothing written
                measured["edit_far"] = timed(
                    pre, mine, payload("far", root, session, path, lines, at)
                )
                # a new session, as an agent makes one: it reads a part of the file (the
                # far edit's), then edits other lines of it
                timed(post, mine, payload("read_far", root, session + "n", path, lines, at))
                wait_for_blame_ahead(state)
                measured["edit_new"] = timed(
                    pre, mine, payload("edit", root, session + "n", path, lines, at)
                )
                measured["edit_first"] = timed(
                    pre, mine, payload("edit", root, session + "f", path, lines, at)
                )
                shutil.rmtree(os.path.join(state, "blame"), ignore_errors=True)
                measured["edit_cold"] = timed(
                    pre, mine, payload("edit", root, session + "c", path, lines, at)
                )
                off = {**mine, "MEMHOOKS_LINE_RECALL": "off"}
                edit = payload("edit", root, session + "o", path, lines, at)
                measured["edit_off"] = timed(pre, off, edit)
                if number < 2:
                    continue  # bytecode and first-run caches: not measured
                told_by[name] = {case: found[2] for case, found in measured.items()}
                for case, (ms, used, out, err) in measured.items():
                    times[name][case].append(ms)
                    if case == "edit_told":
                        way = "settled" if shortcut else "whole" if told(out) else "whole_silent"
                        split[name][way].append(
                            (used / max(bare_ms[1], 0.1), ms / max(bare_ms[0], 0.1))
                        )
                    if case != "bare":
                        cpu[name][case].append(used / max(bare_ms[1], 0.1))
                        wall[name][case].append(ms / max(bare_ms[0], 0.1))
                        chars[name][case].append(told(out))
                        hits[name][case] += "gave up after the" in err
            if len(told_by) == 2:
                for case in CASES:
                    same[case] += told_by["current"][case] == told_by["baseline"][case]
        reports = {
            name: summary(times[name], chars[name], hits[name], cpu[name], wall[name])
            for name in versions
        }
        for name in versions:
            reports[name]["edit_told_by_way"] = {
                way: by_way(found) for way, found in split[name].items()
            }
        report = {
            "runs": args.runs,
            "history": args.history,
            "repo": f"synthetic:{args.synthetic}" if args.synthetic else args.repo,
            "commits": int(
                subprocess.run(
                    ["git", "-C", root, "rev-list", "--count", "HEAD"],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
            ),
            "command": versions["current"]["PreToolUse"][2],
            "load": [round(x, 2) for x in load] + [round(x, 2) for x in os.getloadavg()],
            "files": files,
            **reports["current"],
        }
        if args.baseline:
            base = reports["baseline"]
            report["baseline"] = {"exe": args.baseline, **base}
            report["same_as_baseline"] = same  # runs where both told the same, per case
            report["vs_baseline"] = {
                case: round(report["cases"][case]["p50"] / base["cases"][case]["p50"], 2)  # type: ignore[index]
                for case in CASES
            }
            report["vs_baseline_cpu"] = {
                case: round(
                    report["cases"][case]["cpu_ratio"] / base["cases"][case]["cpu_ratio"], 2
                )  # type: ignore[index]
                for case in CASES
            }
            report["vs_baseline_wall"] = {
                case: round(
                    report["cases"][case]["wall_ratio"] / base["cases"][case]["wall_ratio"], 2
                )  # type: ignore[index]
                for case in CASES
            }
    emit(report, args.json)
    return 0


def by_way(found: list[tuple[float, float]]) -> dict[str, object]:
    """Runs, and the median CPU and wall ratios to the bare interpreter, of ``found``
    (``(cpu ratio, wall ratio)`` per run)."""
    if not found:
        return {"runs": 0}
    cpu = round(statistics.median(c for c, _ in found), 2)
    return {"runs": len(found), "cpu_ratio": cpu, "wall_ratio": round(statistics.median(w for _, w in found), 2)}  # fmt: skip


def summary(
    times: dict[str, list[float]],
    chars: dict[str, list[int]],
    hits: dict[str, int],
    cpu: dict[str, list[float]],
    wall: dict[str, list[float]],
) -> dict[str, object]:
    """Per case: p50/p95/min ms, p50 over the bare interpreter's, the median of its CPU
    and wall time over the bare interpreter's run by run (``cpu_ratio``, ``wall_ratio``;
    ``cpu_p95``: the 95th percentile of the CPU ratio), characters told, deadline hits."""
    bare_p50 = statistics.median(times["bare"])
    return {
        "bare_ms": stats(times["bare"]),
        "cases": {
            case: {
                **stats(times[case]),
                "ratio_p50": round(statistics.median(times[case]) / bare_p50, 2),
                "cpu_ratio": round(statistics.median(cpu[case]), 2),
                "cpu_p95": stats(cpu[case])["p95"],
                "wall_ratio": round(statistics.median(wall[case]), 2),
                "chars_median": statistics.median(chars[case]),
                "chars_max": max(chars[case]),
                "deadline_hits": hits[case],
            }
            for case in CASES
        },
    }


if __name__ == "__main__":
    raise SystemExit(main())
