"""Engine benchmark (issues 2, 14): the engine's commands as fresh processes, side by side
with the Rust reference engine, as ratios to a bare interpreter measured in the same run.

Builds a git work tree of depth 8 with 5,000 directories and 300 hooks (a 6-hook chain to
the deepest folder; the ``Write`` cases' setup then adds a generated cue there, so what is
timed is a 7-hook chain and 301 hooks: ``tree.chain_measured``) in a temporary directory,
then times, interleaved round by round with a bare ``python -c pass`` of the same
interpreter (a timed process that fails or writes to stderr stops the bench):

* ``resolve``: in-process ``memhooks.resolve()``, warm (target < 0.5 ms for the chain);
* ``explain``: ``memhooks explain DEEPEST --format json`` (target <= 2.5x bare);
* ``validate_warm`` / ``validate_cold``: ``memhooks validate --all`` with the parsed-hook
  cache filled / disabled (``MEMHOOKS_CACHE=0``), and ``ref_validate`` / ``ref_explain``:
  the reference's ``validate --all`` / ``explain --format json`` (target: validate no
  slower than the reference); ``validate_first``: the caches on but empty (a user's
  first ``validate --all``, every CI run: its own ``XDG_CACHE_HOME``, removed before
  each run, untimed);
* ``write_unchanged`` / ``write_changed``: ``memhooks hook --agent claude-code`` with the
  recorded Claude Code ``PostToolUse`` ``Write`` payload (``shared/fixtures/payloads/real``,
  paths moved into the tree), for a file its folder's generated cue already lists / a new
  file each time, in another project and session (targets <= 1.5x / <= 3x bare); ``hook_noop``: the same host's
  ``PreToolUse`` (a no-op), the floor every hook call pays; peak RSS of each (target
  <= 25 MB);
* ``note_10`` / ``note_400``: ``memhooks note`` into a hook of 10 / 400 queries;
* big inputs (issue 14 item 4): ``validate_255k`` (one 255 KB hook), ``prompt_255k``
  (the prompt hook where that hook is the root hook), ``prompt_1mb`` (the prompt hook
  with a 1 MB prompt; 3 s deadline either way).

Reported per case: median and fastest (``min``) wall time, and median/bare and min/bare
ratios; the load average before and after. Use the virtualenv memhooks is installed in,
with compiled bytecode (``python -m compileall -q src`` for an editable install)::

    .venv/bin/python bench/bench_engine.py [--runs 11] [--reference PATH] [--json OUT]
        [--cases validate_warm,validate_cold,validate_first,ref_validate] [--baseline EXE]

``--cases`` times only the named cases (comma-separated; ``bare`` is always timed, the
tree is built in full either way).

``--baseline EXE``: another install's ``memhooks`` (an older version's virtualenv) timed
on the same tree in the same rounds, each engine case (``explain``, the ``validate``
ones) right after this version's as ``baseline_<case>``, with a cache folder of its own
(sharing one, each version rewrites the other's parsed-hook and listing caches every
run: caches on then cost about what caches off do). The result gains ``vs_baseline``,
this version's median over the baseline's per case. Compare versions this way, never
one run's figures against another's: the tree is what *this* version's hook left it
(the ``Write`` cases' setup). Since afc4dc2 memhooks keeps the hook files it generates
out of git (the clone's ``info/exclude``), so the deepest folder's cue is one git
ignores (``tree.hooks_git_ignores``), which a513c91's hook never made; and until the
listing decided such a hook itself (:func:`memhooks.listing.candidates._left_out`),
``validate --all`` with the caches off or empty then handed the whole tree to git's
untracked walk (~40 ms more CPU here, any version): each version's own bench gave
113–119 ms for ``validate_cold`` after afc4dc2 against a513c91's 80–84 ms, while the
two timed on one tree were at par (docs/performance.md, "validate --all on a tree
with a hook git ignores").
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
import time

DEPTH = 8
DIRS = 5000
HOOKS = 300
CHAIN = 6
#: The session of ``write_changed``, which works in a project of its own.
SIDE_SESSION = "5ac0a2b4-7c1e-4f0e-9d3a-000000000002"
HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "shared")
REFERENCE = os.path.join(SHARED, "tools", "reference", "memhooks-0.6.0")
PAYLOADS = os.path.join(SHARED, "fixtures", "payloads", "real")

HOOK = """---
schema: memhooks/v2
scope: {scope}
recall_queries:
  - query: "What failed before in {scope}?"
    priority: 0.{p}
  - "Why is {scope} structured this way?"
entities:
  - name: {name}
    type: CONCEPT
tags: [{name}]
exclude:
  - obsolete {name} prototype
backends:
  mem0:
    top_k: {p}
---

Guidance for {scope}.
"""


def build_tree(base: str) -> str:
    """Create the synthetic project; returns the deepest folder of the 6-hook chain."""
    rng = random.Random(7)
    subprocess.run(["git", "init", "-q", base], check=True)
    dirs = [base]
    spine = [base]
    for level in range(1, DEPTH + 1):  # a spine of depth 8 holds the measured chain
        spine.append(os.path.join(spine[-1], f"level{level}"))
    dirs.extend(spine[1:])
    while len(dirs) < DIRS:
        parent = rng.choice(dirs)
        if parent.count(os.sep) - base.count(os.sep) >= DEPTH:
            continue
        dirs.append(os.path.join(parent, f"d{len(dirs)}"))
    for directory in dirs:
        os.makedirs(directory, exist_ok=True)
    hooked = spine[:CHAIN] + rng.sample([d for d in dirs if d not in spine], HOOKS - CHAIN)
    for number, directory in enumerate(hooked):
        rel = os.path.relpath(directory, base).replace(os.sep, "/")
        name = f"topic{number}"
        with open(os.path.join(directory, "MEMHOOKS.md"), "w", encoding="utf-8") as fp:
            fp.write(HOOK.format(scope=rel, name=name, p=number % 10))
    age(*(os.path.join(d, "MEMHOOKS.md") for d in hooked))
    return spine[-1]


def age(*paths: str) -> None:
    """Move modification times out of the parsed-hook cache's racy window."""
    past = time.time() - 60
    for path in paths:
        os.utime(path, (past, past))


def big_hook(size: int) -> str:
    """A valid hook of about ``size`` bytes: many queries with entities."""
    lines = ["---", "schema: memhooks/v2", "recall_queries:"]
    number = 0
    while sum(len(line) + 1 for line in lines) < size - 200:
        lines += [
            f'  - query: "What failed before in component {number} of the payment service?"',
            f"    priority: 0.{number % 10}",
            f"    entities: [comp{number}, service{number % 50}]",
        ]
        number += 1
    return "\n".join([*lines, "---", "Guidance.", ""])


def payload(name: str, cwd: str, **fields: object) -> bytes:
    """A recorded Claude Code payload with its working folder (and fields) replaced."""
    with open(os.path.join(PAYLOADS, name), encoding="utf-8") as fp:
        data = json.load(fp)
    data["cwd"] = cwd
    data.update(fields)
    return json.dumps(data).encode("utf-8")


def write_payload(cwd: str, path: str, session: str | None = None) -> bytes:
    """The recorded ``PostToolUse`` ``Write`` of ``path``; ``session``: another session id
    (one session works in one project: the session's snapshot, which lets a write
    already in its cue end early, holds one root)."""
    data = json.loads(payload("claude-code-PostToolUse.json", cwd))
    if session is not None:
        data["session_id"] = session
    data["tool_input"] = {"file_path": path, "content": "x = 1\n"}
    data["tool_response"].update(filePath=path, content="x = 1\n")
    return json.dumps(data).encode("utf-8")


TIME = "/usr/bin/time"


def child(argv: list[str], env: dict[str, str], stdin: bytes = b"") -> float:
    """Wall milliseconds of one fresh process, spawn to exit. Exits when it fails, or
    writes anything on stderr (a hook that gave up at its deadline or failed open would
    be timed as a good run)."""
    start = time.perf_counter()
    done = subprocess.run(
        argv, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env
    )
    elapsed = (time.perf_counter() - start) * 1000
    # the hook says once a session that the (deliberately absent) MEMHOOKS_STORE does not
    # exist yet: that line is no failure
    said = [line for line in done.stderr.decode(errors="replace").splitlines()
            if line.strip() and "does not exist: nothing to recall until" not in line]  # fmt: skip
    if done.returncode != 0 or said:
        raise SystemExit(f"{argv[:4]} -> exit {done.returncode}: {done.stderr.decode(errors='replace')[-500:]}")
    return elapsed


def peak_rss_mb(argv: list[str], env: dict[str, str], stdin: bytes = b"") -> float | None:
    """Peak RSS of ``argv`` alone, via GNU time (``wait4`` on a child forked from this
    large benchmark process would count the parent's pages copied before ``exec``)."""
    if not os.path.exists(TIME):
        return None
    with tempfile.NamedTemporaryFile("r") as out:
        child([TIME, "-f", "%M", "-o", out.name, *argv], env, stdin)
        return round(int(out.read().split()[-1]) / 1024, 1)


class Case:
    """One timed command; ``argv`` and ``stdin`` may be functions of the run number (for
    commands that must differ from run to run)."""

    def __init__(self, name, argv, env, stdin=b"", before=None):
        self.name, self.argv, self.env, self.stdin = name, argv, env, stdin
        self.before = before  # run untimed before each run
        self.ms: list[float] = []
        self.rss: float | None = None

    def run(self, number: int, *, rss: bool = False) -> None:
        argv = self.argv(number) if callable(self.argv) else self.argv
        stdin = self.stdin(number) if callable(self.stdin) else self.stdin
        if self.before is not None:
            self.before()
        if rss:
            self.rss = peak_rss_mb(argv, self.env, stdin)
        else:
            self.ms.append(child(argv, self.env, stdin))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--reference", default=REFERENCE, help="the Rust reference binary")
    parser.add_argument("--json", metavar="OUT")
    parser.add_argument("--cases", help="comma-separated case names to time (default: all)")
    parser.add_argument(
        "--baseline", metavar="EXE", help="another install's memhooks, timed beside (engine cases)"
    )
    args = parser.parse_args()

    import memhooks

    exe = os.path.join(os.path.dirname(sys.executable), "memhooks")
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **os.environ,
            "HOME": os.path.join(tmp, "home"),
            "XDG_CACHE_HOME": os.path.join(tmp, "cache"),
            "XDG_STATE_HOME": os.path.join(tmp, "state"),
            "XDG_DATA_HOME": os.path.join(tmp, "data"),
            "XDG_CONFIG_HOME": os.path.join(tmp, "config"),
            "MEMHOOKS_STORE": os.path.join(tmp, "store.sqlite3"),
        }
        for name in [k for k in env if k.startswith("MEMHOOKS_") and k != "MEMHOOKS_STORE"]:
            del env[name]
        os.environ.update({k: env[k] for k in ("XDG_CACHE_HOME", "XDG_STATE_HOME", "HOME")})
        base = os.path.join(tmp, "project")
        deepest = build_tree(base)
        memhooks.resolve(deepest)  # warm the in-process cache
        assert len(memhooks.resolve(deepest).sources) == CHAIN
        resolve_ms = median_ms(lambda: memhooks.resolve(deepest), max(args.runs, 200))

        reference = None
        if os.path.isfile(args.reference):
            reference = os.path.join(tmp, "memhooks-reference")
            shutil.copy(args.reference, reference)
            os.chmod(reference, 0o755)

        # PostToolUse Write: a file its folder's cue lists already / a new file each time
        written = os.path.join(deepest, "kept.py")
        with open(written, "w", encoding="utf-8") as fp:
            fp.write("x = 1\n")
        from memhooks.install.command import argv as installed_hook

        hook_argv = installed_hook("claude-code", exe=[exe])  # what `agents install` writes
        child(hook_argv, env, write_payload(base, written))  # writes the cue
        age(os.path.join(deepest, "MEMHOOKS.md"))
        child(hook_argv, env, write_payload(base, written))  # fills the parsed-hook cache
        # the cases that write go to a project of their own: the measured tree stays warm
        side = os.path.join(tmp, "side")
        subprocess.run(["git", "init", "-q", side], check=True)
        with open(os.path.join(side, "MEMHOOKS.md"), "w", encoding="utf-8") as fp:
            fp.write("---\nschema: memhooks/v2\n---\n")
        age(os.path.join(side, "MEMHOOKS.md"))
        changed_dir = os.path.join(side, "fresh")
        os.makedirs(changed_dir)

        def new_file(number: int) -> str:
            path = os.path.join(changed_dir, f"new{number}.py")
            with open(path, "w", encoding="utf-8") as fp:
                fp.write("x = 1\n")
            return path

        # note into hooks of 10 and 400 queries (each run adds one query)
        note_dirs = {}
        for count in (10, 400):
            folder = os.path.join(side, f"notes{count}")
            os.makedirs(folder)
            queries = "".join(f"  - what about topic {n}?\n" for n in range(count))
            hook = os.path.join(folder, "MEMHOOKS.md")
            with open(hook, "w", encoding="utf-8") as fp:
                fp.write(f"---\nschema: memhooks/v2\nrecall_queries:\n{queries}---\n")
            age(hook)
            note_dirs[count] = folder

        # big inputs: a 255 KB root hook in its own project; a 1 MB prompt
        big = os.path.join(tmp, "big")
        subprocess.run(["git", "init", "-q", big], check=True)
        big_path = os.path.join(big, "MEMHOOKS.md")
        with open(big_path, "w", encoding="utf-8") as fp:
            fp.write(big_hook(255 * 1024))
        age(big_path)
        subprocess.run(
            [exe, "remember", "component 7 of the payment service failed on retries", "--cwd", big],
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        subprocess.run(
            [exe, "remember", "deep folders keep their own hooks", "--cwd", deepest],
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        rng = random.Random(3)
        words = [
            "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9)))
            for _ in range(50_000)
        ]
        huge = "why do deep folders keep their own hooks? " + " ".join(
            rng.choice(words) for _ in range(170_000)
        )
        huge = huge[: 1024 * 1024]
        prompt = "claude-code-UserPromptSubmit.json"

        versions = [("", exe, env)]
        if args.baseline:  # its own cache folder (see the module docstring)
            other = os.path.abspath(args.baseline)
            own = {**env, "XDG_CACHE_HOME": os.path.join(tmp, "cache-baseline")}
            versions.append(("baseline_", other, own))
        engine = [engine_cases(prefix, program, base, deepest, big_path, version_env, tmp)
                  for prefix, program, version_env in versions]  # fmt: skip
        cases = [
            Case("bare", [sys.executable, "-c", "pass"], env),
            # each engine case, then the baseline's beside it
            *(case for row in zip(*(version[:4] for version in engine)) for case in row),
            Case("hook_noop", hook_argv, env, payload("claude-code-PreToolUse.json", base)),
            Case("write_unchanged", hook_argv, env, write_payload(base, written)),
            Case("write_changed", hook_argv, env, lambda n: write_payload(side, new_file(n), SIDE_SESSION)),
            Case("note_10", lambda n: [exe, "note", "--cwd", note_dirs[10], "--query", f"q{n}"], env),
            Case("note_400", lambda n: [exe, "note", "--cwd", note_dirs[400], "--query", f"q{n}"], env),
            *(version[4] for version in engine),
            Case("prompt_255k", hook_argv, env, payload(prompt, big, prompt="fix component 7")),
            Case("prompt_1mb", hook_argv, env, payload(prompt, deepest, prompt=huge)),
        ]
        if reference:
            cases += [
                Case("ref_validate", [reference, "validate", "--all", base], env),
                Case("ref_explain", [reference, "explain", deepest, "--format", "json"], env),
            ]
        if args.cases:
            wanted = {"bare", *args.cases.split(",")}
            unknown = wanted - {case.name for case in cases}
            if unknown:
                parser.error(f"unknown cases: {', '.join(sorted(unknown))}")
            cases = [case for case in cases if case.name.removeprefix("baseline_") in wanted]
        # the parsed-hook and listing caches trust nothing changed within the last 2 s
        # (memhooks.filestate.RACY_NS): "warm" is a tree left alone that long
        time.sleep(2.1)
        for _prefix, program, version_env in versions:  # fills each one's disk cache
            child([program, "explain", deepest, "--format", "json"], version_env)
            child([program, "validate", "--all", base], version_env)
        # as measured: the Write cases' setup gives the deepest folder a generated cue
        chain = len(memhooks.resolve(deepest).sources)
        ignored = ignored_hooks(base)
        for number in range(args.runs):
            for case in cases:
                case.run(number)
        for case in cases:
            case.run(args.runs, rss=True)
    bare = statistics.median(cases[0].ms)
    bare_min = min(cases[0].ms)
    result: dict[str, object] = {
        "tree": {"depth": DEPTH, "directories": DIRS, "hooks": HOOKS, "chain": CHAIN,
                 "chain_measured": chain, "hooks_git_ignores": ignored},  # fmt: skip
        "runs": args.runs,
        "load_average": {"before": load_before, "after": os.getloadavg()},
        "resolve_warm_ms": round(resolve_ms, 4),
    }
    for case in cases:
        median, fastest = statistics.median(case.ms), min(case.ms)
        result[case.name] = {
            "median_ms": round(median, 1),
            "min_ms": round(fastest, 1),
            "ratio": round(median / bare, 2),
            "min_ratio": round(fastest / bare_min, 2),
            "peak_rss_mb": case.rss,
        }
    if args.baseline:
        result["baseline"] = os.path.abspath(args.baseline)
        medians = {case.name: statistics.median(case.ms) for case in cases}
        result["vs_baseline"] = {
            name: round(medians[name] / medians["baseline_" + name], 3)
            for name in medians
            if "baseline_" + name in medians
        }
    print(json.dumps(result, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fp:
            json.dump(result, fp, indent=2)
    return 0


def engine_cases(
    prefix: str, exe: str, base: str, deepest: str, big_path: str, env: dict[str, str], tmp: str
) -> list[Case]:
    """The engine's commands run by ``exe`` (one install's ``memhooks``), named with
    ``prefix``: explain, validate --all with the caches warm, off and empty, and
    validate of the 255 KB hook."""
    first_cache = os.path.join(tmp, prefix + "cache-first")  # emptied before each run
    return [
        Case(prefix + "explain", [exe, "explain", deepest, "--format", "json"], env),
        Case(prefix + "validate_warm", [exe, "validate", "--all", base], env),
        Case(
            prefix + "validate_cold",
            [exe, "validate", "--all", base],
            {**env, "MEMHOOKS_CACHE": "0"},
        ),
        Case(
            prefix + "validate_first",
            [exe, "validate", "--all", base],
            {**env, "XDG_CACHE_HOME": first_cache},
            before=lambda: shutil.rmtree(first_cache, ignore_errors=True),
        ),
        Case(prefix + "validate_255k", [exe, "validate", big_path], env),
    ]


def ignored_hooks(base: str) -> int:
    """How many hook files below ``base`` git ignores (untracked and excluded)."""
    done = subprocess.run(
        ["git", "-C", base, "ls-files", "-z", "--others", "--ignored", "--exclude-standard"],
        capture_output=True, check=True,
    )  # fmt: skip
    return sum(name.endswith(b"MEMHOOKS.md") for name in done.stdout.split(b"\0"))


def median_ms(func, runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        func()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


if __name__ == "__main__":
    raise SystemExit(main())
