"""Agent hook benchmark (issues 5, 12): ``memhooks hook`` exactly as a host runs it.

A fresh process per call with a Claude Code payload on stdin (shaped like the recorded
ones: :mod:`claude_host`), in a project whose store holds 10,000 memories and whose
deepest folder has a 6-hook chain (the synthetic project of ``bench_recall.py``, built in
a temporary directory, a git work tree so the root is found as a host would find it; no
``MEMHOOKS_ROOT``; its own ``MEMHOOKS_STATE_DIR``). Every call is the first prompt of a
fresh session unless said otherwise. Cases:

* prompt hook, ``UserPromptSubmit`` in the deepest folder: with the recall search lists
  cached (``warm``, the usual case: the store has not changed since the last prompt),
  right after a memory was remembered (``changed``: the writer recomputed the hooks'
  lists, :func:`memhooks.backends.embedded.refresh`), with the lists dropped (``cold``:
  the first prompt ever with these hooks), and ``next_turn`` (a later prompt of one
  ongoing session);
* tool events, ``PostToolUse`` of a Read, in sessions launched at the root that began
  with a prompt there: ``read_served`` (a file of the deepest folder that this session
  already read: the folder was already served), ``read_new_served`` (a file of the
  deepest folder this session has not read, right after it read another one there: the
  folder is served, the file's owners are not told yet), ``read_recalls`` (the first
  Read in the deepest folder, whose files and scope have anchored memories: the call
  that recalls) and ``read_unanchored`` (the first Read in a folder nothing is anchored
  to, no hook of its own);
* ``edit_served``: ``PostToolUse`` of an Edit of a file of the deepest folder, in the
  served session, whose folder's generated cue lists it already (its first edit was made
  in the setup): the edit that changes no hook, the common one;
* ``pre_tool_noop``: ``PreToolUse`` of a Read in the served session: the no-op Codex and
  Cline send before every tool (they have no matcher).

Reported per case: median, p90, p95 and fastest (``min``) wall time of the hook process
(spawn to exit), as ratios to a bare ``python -c pass`` of the same interpreter measured
in the same run, interleaved (on a loaded machine the minimum approximates an idle one
better than the median); the median CPU (user + system, ``wait4``; ``cpu_p95_ms`` its p95) and its ratio to the
bare interpreter's (``cpu_ms``: what the call itself cost, less moved by other load); the characters of context the model received (median, max)
and how many calls delivered any; how many answered the no-op at the hook's own 3 s
deadline (``deadline_hits``: on a loaded machine, not a failure) and how many wrote any
other note on stderr (``notes``, e.g. a search that ran out of time); the peak RSS (GNU time) of the prompt hook and of
each tool case; ``hermes_plugin_ms`` (the in-process Hermes plugin's ``pre_llm_call``);
the load average. Today every tool case is the host's no-op.

Targets: prompt median < 60 ms, peak RSS < 60 MB, ratio <= 3; issue 12: ``read_served``
<= 1.5x bare, ``read_recalls`` <= 3.5x bare, the prompt hook no slower than before.
Run it with the interpreter of the virtualenv memhooks is installed in (bytecode
compiled, as after a normal install)::

    .venv/bin/python bench/bench_hook.py [--runs 21] [--json OUT] [--baseline EXE] [--env N=V]

``--baseline EXE``: another install's ``memhooks`` command (a virtualenv of an older
checkout) timed in the same run, each case interleaved with this one's, each version
with its own state folder, caches and memory store (the same memories, written by that
version's own code: an older memhooks refuses a store a newer one migrated); the report
gains ``baseline`` (the same figures for it) and ``vs_baseline`` (this version's median
over the baseline's, per case; ``vs_baseline_cpu`` the same for CPU; ``paired_cpu`` the
median over the runs of each call's CPU over the baseline call's beside it — the two
versions take turns going first — the steadiest figure on a loaded machine).
``--env NAME=VALUE`` (repeatable): a setting for every
call of both versions (``MEMHOOKS_LINE_RECALL=off`` times the paths the baseline had).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TIME = "/usr/bin/time"
sys.path.insert(0, HERE)

from bench_recall import PROMPTS, Writer, age_hooks, build_synthetic, forget_searches
from claude_host import Session, event_of, hook_command, model_text

PROMPT_CASES = ("warm", "changed", "cold", "next_turn")
TOOL_CASES = (
    "read_served", "read_new_served", "read_recalls", "read_unanchored", "edit_served",
    "pre_tool_noop",
)  # fmt: skip
#: A folder no memory is anchored to, with no hook of its own (``read_unanchored``).
UNANCHORED = ("vendor", "fonts")


#: The stderr line of a hook that answered the no-op at its own deadline.
DEADLINE_NOTE = "gave up after the"


def spawn(
    argv: list[str], env: dict[str, str], stdin: bytes = b"", notes_ok: bool = False
) -> tuple[float, os.struct_rusage, bytes, str]:
    """(wall ms, the process's resource usage by ``wait4``, stdout, stderr) of ``argv``.
    Exits on a failure, and on any stderr unless ``notes_ok`` (a hook's note says it
    failed open or memory was unavailable: the caller counts it, since the figure it goes
    with means something else)."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write(stdin)
    proc.stdin.close()
    out = proc.stdout.read()
    err = proc.stderr.read().decode(errors="replace").strip()
    _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    elapsed = (time.perf_counter() - started) * 1000
    proc.stdout.close()
    proc.stderr.close()
    if proc.returncode != 0 or (err and not notes_ok):
        raise SystemExit(f"{argv} -> {proc.returncode}: {err}")
    return elapsed, usage, out, err


def cpu_ms(usage: os.struct_rusage) -> float:
    """User + system CPU of a finished process, in ms."""
    return (usage.ru_utime + usage.ru_stime) * 1000


def child(
    argv: list[str], env: dict[str, str], stdin: bytes = b"", notes_ok: bool = False
) -> tuple[float, int, bytes, str]:
    """(wall ms, peak RSS KiB, stdout, stderr) of ``argv``, as :func:`spawn`."""
    elapsed, usage, out, err = spawn(argv, env, stdin, notes_ok)
    return elapsed, usage.ru_maxrss, out, err


def peak_rss_kib(argv: list[str], env: dict[str, str], stdin: bytes = b"") -> int:
    """Peak RSS of ``argv`` alone, via GNU time: ``wait4`` on a child forked from this
    (large) benchmark process would count the parent's pages copied before ``exec``."""
    if not os.path.exists(TIME):
        return child(argv, env, stdin, notes_ok=True)[1]
    with tempfile.NamedTemporaryFile("r") as out:
        child([TIME, "-f", "%M", "-o", out.name, *argv], env, stdin, notes_ok=True)
        return int(out.read().split()[-1])


def stats(samples: list[float]) -> tuple[float, float]:
    return statistics.median(samples), percentile(samples, 0.9)


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


class Cases:
    """The payload of each case's next timed call, and the untimed calls that set its
    session up first (:meth:`next`)."""

    def __init__(self, root: str, deepest: str, unanchored: str) -> None:
        self.root = root
        self.deepest = deepest
        self.files = sorted(
            os.path.join(deepest, n) for n in os.listdir(deepest) if n.endswith(".py")
        )
        self.other = [os.path.join(unanchored, n) for n in ("sans.py", "serif.py", "mono.py")]
        self.served = Session(root)
        self.turns = Session(deepest)

    def setup(self) -> list[bytes]:
        """Once: the served session has read every file of the deepest folder; the
        ongoing session has had its first prompt."""
        served = [self.served.prompt(PROMPTS[0]), *(self.served.read(f) for f in self.files)]
        served.append(self.edit())  # its folder's cue lists the file from now on
        return [*served, self.turns.prompt(PROMPTS[0])]

    def edit(self) -> bytes:
        """``PostToolUse`` of an Edit of the deepest folder's first file in the served
        session, leaving the file as it is (each run alike)."""
        path = self.files[0]
        with open(path, encoding="utf-8") as fp:
            original = fp.read()
        line = original.splitlines(keepends=True)[0]
        patch = [{"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 1,
                  "lines": ["-" + line.rstrip("\n"), "+" + line.rstrip("\n")]}]  # fmt: skip
        return self.served.edit(path, line, line, original, patch)[1]

    def next(self, case: str, number: int) -> tuple[list[bytes], bytes]:
        """(untimed calls first, the timed call) of run ``number`` of ``case``."""
        prompt = PROMPTS[number % len(PROMPTS)]
        if case in ("warm", "changed", "cold"):
            return [], Session(self.deepest).prompt(prompt)
        if case == "next_turn":
            return [], self.turns.prompt(PROMPTS[(number + 1) % len(PROMPTS)])
        if case == "read_served":
            return [], self.served.read(self.files[number % len(self.files)])
        if case == "edit_served":
            return [], self.edit()
        if case == "pre_tool_noop":
            path = self.files[number % len(self.files)]
            return [], self.served.pre_tool("Read", {"file_path": path})
        fresh = Session(self.root)
        first = fresh.prompt(prompt)
        if case == "read_recalls":
            return [first], fresh.read(self.files[number % len(self.files)])
        if case == "read_new_served":
            one, other = (self.files[(number + k) % len(self.files)] for k in (0, 1))
            return [first, fresh.read(one)], fresh.read(other)
        return [first], fresh.read(self.other[number % len(self.other)])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--runs", type=int, default=21, help="hook processes per measurement (default 21)"
    )
    parser.add_argument("--json", metavar="OUT")
    parser.add_argument(
        "--baseline", metavar="EXE", help="another install's memhooks, timed beside"
    )
    parser.add_argument(
        "--env", metavar="NAME=VALUE", action="append", default=[],
        help="a setting for every hook call of both versions (e.g. MEMHOOKS_LINE_RECALL=off)",
    )  # fmt: skip
    args = parser.parse_args()
    env = bench_env(args.env)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = os.path.realpath(tmp)
        project, cases, memories, versions = build(tmp, env, args.baseline)
        deepest = cases.deepest
        bare = [sys.executable, "-c", "pass"]
        for version in versions.values():
            version.warm_up(deepest, cases)
        for number in range(args.runs):
            bare_ms, usage, _, _ = spawn(bare, env)
            for version in versions.values():
                version.times["bare"].append(bare_ms)
                version.cpu["bare"].append(cpu_ms(usage))
            # each pair in turn A B, then B A: neither version always runs second
            order = list(versions.values())[:: -1 if number % 2 else 1]
            for kind in (*PROMPT_CASES, *TOOL_CASES):
                for version in order:
                    version.case(kind, number, cases, project)
        for version in versions.values():
            version.peak_rss(bare, deepest, cases, args.runs)
        plugin_ms = in_process_plugin(deepest, args.runs)
    reports = {name: version.report(memories, args.runs) for name, version in versions.items()}
    report = reports["current"]
    report["hermes_plugin_ms"] = round(plugin_ms, 2)
    if "baseline" in reports:
        base = reports["baseline"]
        report["baseline"] = {"exe": args.baseline, **base}
        report["vs_baseline"] = {
            kind: round(report[key] / base[key], 2)
            for kind in (*PROMPT_CASES, *TOOL_CASES)
            if (key := (f"hook_{kind}_ms" if kind in PROMPT_CASES else f"{kind}_ms"))
        }
        report["vs_baseline_cpu"] = {
            kind: round(report[key] / base[key], 2)
            for kind in (*PROMPT_CASES, *TOOL_CASES)
            if (key := (f"hook_{kind}_cpu_ms" if kind in PROMPT_CASES else f"{kind}_cpu_ms"))
        }
        current, baseline = versions["current"].cpu, versions["baseline"].cpu
        report["paired_cpu"] = {
            kind: round(statistics.median(a / b for a, b in zip(current[kind], baseline[kind])), 3)
            for kind in (*PROMPT_CASES, *TOOL_CASES)
        }
    print(json.dumps(report, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fp:
            json.dump(report, fp, indent=2)
    return 0


def bench_env(settings: list[str]) -> dict[str, str]:
    """This process's environment for the hook calls: no ``MEMHOOKS_*`` of the caller's,
    bytecode written as after an install, plus ``settings`` (``NAME=VALUE`` each)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMHOOKS_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.update(item.partition("=")[::2] for item in settings)
    return env


def sandbox(tmp: str, env: dict[str, str], **more: str) -> str:
    """Point ``env`` and this process's environment at ``tmp``: caches, the store (its
    path is returned), the state folder, the home, and ``more`` (``XDG_DATA_HOME=…``)."""
    store = os.path.join(tmp, "memories.sqlite3")
    for key, value in (
        ("XDG_CACHE_HOME", os.path.join(tmp, "cache")),
        ("MEMHOOKS_STORE", store),
        ("MEMHOOKS_STATE_DIR", os.path.join(tmp, "state")),
        ("HOME", tmp),
        *more.items(),
    ):
        os.environ[key] = env[key] = value
    return store


def build(
    tmp: str, env: dict[str, str], baseline: str | None
) -> tuple[str, Cases, int, dict[str, Version]]:
    """The synthetic project in ``tmp`` (a git work tree, its store of 10,000 memories),
    its cases, the count of memories, and the versions under measurement: ``current``
    (this interpreter's install) and, given ``baseline`` (another install's ``memhooks``),
    ``baseline`` with a store written by its own code. Sets ``env`` (and this process's
    environment) to the project's caches, store, state folder and home."""
    from memhooks.store import MemoryStore, project_id

    store = sandbox(tmp, env)
    project = os.path.join(tmp, "synthetic")
    deepest, lines = build_synthetic(project, Writer(random.Random(4)))
    unanchored = os.path.join(project, *UNANCHORED)
    os.makedirs(unanchored)
    for name in ("sans.py", "serif.py", "mono.py"):
        with open(os.path.join(unanchored, name), "w", encoding="utf-8") as fp:
            fp.write("# synthetic\n")
    subprocess.run(["git", "init", "-q", project], check=True)
    age_hooks(project)
    with MemoryStore(store) as opened:
        opened.import_jsonl(project_id(project), [json.dumps(line) for line in lines])
        memories = opened.count(project_id(project))
    dump = os.path.join(tmp, "memories.jsonl")
    with open(dump, "w", encoding="utf-8") as fp:
        fp.writelines(json.dumps(line) + "\n" for line in lines)
    cases = Cases(project, deepest, unanchored)
    # Exactly the command `memhooks agents install` writes (install/command.py), per
    # version, each with its own state folder (sessions, snapshots) and caches; a
    # baseline's calls interleave with this version's.
    versions = {"current": Version(hook_command(), env, tmp, "current", store)}
    if baseline:
        # its own store, written by its own code: a store this version migrated to a
        # newer schema is one an older memhooks refuses to open
        versions["baseline"] = Version(hook_command(baseline), env, tmp, "baseline")
        versions["baseline"].build_store(project, dump)
    return project, cases, memories, versions


class Version:
    """One memhooks install under measurement: its hook command, its own state folder and
    caches (``XDG_CACHE_HOME``), and what its calls took."""

    def __init__(
        self, hook: list[str], env: dict[str, str], tmp: str, name: str, store: str | None = None
    ) -> None:
        self.hook = hook
        #: the memory store it reads: None until :meth:`build_store` (another install's)
        self.store = store or os.path.join(tmp, f"memories-{name}.sqlite3")
        self.env = dict(env, MEMHOOKS_STATE_DIR=os.path.join(tmp, f"state-{name}"),
                        XDG_CACHE_HOME=os.path.join(tmp, f"cache-{name}"),
                        MEMHOOKS_STORE=self.store)  # fmt: skip
        # Bytecode, parsed-hook cache, search lists: the first calls may outlast the
        # hook's 3 s deadline on a loaded machine; they are not measured.
        self.unhurried = dict(self.env, MEMHOOKS_HOOK_TIMEOUT_MS="60000")
        kinds = (*PROMPT_CASES, *TOOL_CASES)
        self.times: dict[str, list[float]] = {k: [] for k in ("bare", *kinds)}
        #: CPU (user + system) ms of each timed process: steadier than wall on a loaded machine
        self.cpu: dict[str, list[float]] = {k: [] for k in ("bare", *kinds)}
        self.chars: dict[str, list[int]] = {k: [] for k in kinds}
        self.deadline_hits = dict.fromkeys(kinds, 0)
        self.notes: dict[str, list[str]] = {k: [] for k in kinds}
        self.rss: dict[str, list[int]] = {k: [] for k in ("bare", "prompt", *TOOL_CASES)}

    def build_store(self, project: str, dump: str) -> None:
        """Write this install's store with its own code: the memories of ``dump``."""
        script = (
            "import sys\n"
            "from memhooks.store import MemoryStore, project_id\n"
            "with MemoryStore(sys.argv[1]) as s, open(sys.argv[3], encoding='utf-8') as fp:\n"
            "    s.import_jsonl(project_id(sys.argv[2]), fp.read().splitlines())\n"
        )
        subprocess.run(
            [self.hook[0], "-c", script, self.store, project, dump], env=self.env, check=True
        )

    def remember(self, project: str, number: int) -> None:
        """A memory added as ``memhooks remember`` adds it, by this install's own code, in
        a process of its own for every version alike: written from this benchmark's
        process, the current version's ``changed`` call ran after no Python process and
        the baseline's right after one (warm caches): 1.09-1.11 paired CPU in three runs
        against 1.05 of instructions (callgrind); written alike, 1.03."""
        script = (
            "import sys\n"
            "from bench_recall import remember_one\n"
            "remember_one(sys.argv[1], sys.argv[2], int(sys.argv[3]))\n"
        )
        env = dict(self.env, PYTHONPATH=HERE)
        subprocess.run(
            [self.hook[0], "-c", script, self.store, project, str(number)], env=env, check=True
        )

    def warm_up(self, deepest: str, cases: Cases) -> None:
        for number in range(3):
            child(
                self.hook, self.unhurried, Session(deepest).prompt(PROMPTS[number % len(PROMPTS)])
            )
        for raw in cases.setup():
            child(self.hook, self.unhurried, raw, notes_ok=True)

    def case(
        self, kind: str, number: int, cases: Cases, project: str, under: list[str] | None = None
    ) -> None:
        """Run ``kind``'s call ``number`` (its untimed calls first) and record it. ``under``:
        a command the timed call runs under (e.g. ``valgrind --tool=callgrind …``), with the
        unhurried deadline (``bench_hook_instructions.py``)."""
        os.environ["XDG_CACHE_HOME"] = self.env["XDG_CACHE_HOME"]  # forget_searches' folder
        if kind == "cold":
            forget_searches()
        elif kind == "changed":
            self.remember(project, number)
        before, raw = cases.next(kind, number)
        for untimed in before:
            child(self.hook, self.unhurried, untimed, notes_ok=True)
        argv, env = ([*under, *self.hook], self.unhurried) if under else (self.hook, self.env)
        elapsed, usage, out, note = spawn(argv, env, raw, notes_ok=True)
        self.times[kind].append(elapsed)
        self.cpu[kind].append(cpu_ms(usage))
        context = model_text(out.decode("utf-8"), event_of(raw)) or ""
        if DEADLINE_NOTE in note:
            self.deadline_hits[kind] += 1
        elif note:
            self.notes[kind].append(note)
        elif kind in ("warm", "changed", "cold"):
            assert context.startswith("[MemHooks"), context[:80]
        self.chars[kind].append(len(context))

    def peak_rss(self, bare: list[str], deepest: str, cases: Cases, runs: int) -> None:
        os.environ["XDG_CACHE_HOME"] = self.env["XDG_CACHE_HOME"]
        for number in range(5):
            self.rss["bare"].append(peak_rss_kib(bare, self.env))
            if number == 0:
                forget_searches()
            self.rss["prompt"].append(
                peak_rss_kib(self.hook, self.unhurried, Session(deepest).prompt(PROMPTS[number]))
            )
            for kind in TOOL_CASES:
                before, raw = cases.next(kind, runs + number)
                for untimed in before:
                    child(self.hook, self.unhurried, untimed, notes_ok=True)
                self.rss[kind].append(peak_rss_kib(self.hook, self.unhurried, raw))

    def report(self, memories: int, runs: int) -> dict[str, object]:
        out = summarize(self.times, self.chars, self.rss, memories, runs, self.cpu)
        out["deadline_hits"] = self.deadline_hits
        out["notes"] = {kind: len(lines) for kind, lines in self.notes.items()}
        out["note_samples"] = sorted({line for lines in self.notes.values() for line in lines})[:3]
        return out


def summarize(
    times: dict[str, list[float]], chars: dict[str, list[int]], rss: dict[str, list[int]],
    memories: int, runs: int, cpu: dict[str, list[float]] | None = None,
) -> dict[str, object]:  # fmt: skip
    """The report: per case, time (median, p90, p95, fastest), ratios to bare, CPU
    (median, when ``cpu`` is given), context delivered, peak RSS."""
    bare_ms = statistics.median(times["bare"])
    bare_rss = max(rss["bare"])
    one, five, fifteen = os.getloadavg()
    report: dict[str, object] = {
        "memories": memories,
        "hook_chain": 6,
        "runs": runs,
        "load_average": [round(one, 2), round(five, 2), round(fifteen, 2)],
        "bare_python_ms": round(bare_ms, 2),
        "bare_python_min_ms": round(min(times["bare"]), 2),
        "bare_python_peak_rss_mb": round(bare_rss / 1024, 1),
    }
    for kind in (*PROMPT_CASES, *TOOL_CASES):
        prefix = f"hook_{kind}" if kind in PROMPT_CASES else kind
        median, p90 = stats(times[kind])
        report[f"{prefix}_ms"] = round(median, 2)
        report[f"{prefix}_p90_ms"] = round(p90, 2)
        report[f"{prefix}_p95_ms"] = round(percentile(times[kind], 0.95), 2)
        if cpu:
            report[f"{prefix}_cpu_ms"] = round(statistics.median(cpu[kind]), 2)
            report[f"{prefix}_cpu_p95_ms"] = round(percentile(cpu[kind], 0.95), 2)
            report[f"{prefix}_cpu_ratio_to_bare"] = round(
                statistics.median(cpu[kind]) / statistics.median(cpu["bare"]), 2
            )
        report[f"{prefix}_ratio_to_bare"] = round(median / bare_ms, 2)
        # The fastest runs approximate an idle machine on a loaded one (shared CI, laptops).
        report[f"{prefix}_min_ms"] = round(min(times[kind]), 2)
        report[f"{prefix}_min_ratio_to_bare_min"] = round(min(times[kind]) / min(times["bare"]), 2)
        report[f"{prefix}_context_chars"] = [statistics.median(chars[kind]), max(chars[kind])]
        report[f"{prefix}_delivered_calls"] = sum(1 for c in chars[kind] if c)
    report["peak_rss_mb"] = round(max(rss["prompt"]) / 1024, 1)
    report["peak_rss_ratio_to_bare"] = round(max(rss["prompt"]) / bare_rss, 2)
    for kind in TOOL_CASES:
        report[f"{kind}_peak_rss_mb"] = round(max(rss[kind]) / 1024, 1)
    report["context_chars"] = max(chars["warm"] + chars["changed"] + chars["cold"])
    return report


def in_process_plugin(folder: str, runs: int) -> float:
    """Median ms of the Hermes plugin's ``pre_llm_call`` (library call, no process), each
    the first turn of its own session (a later turn gets only what it was not given)."""
    from memhooks.integrations.hermes import Plugin

    plugin = Plugin()
    os.environ["TERMINAL_CWD"] = folder
    samples = []
    for number in range(runs):
        started = time.perf_counter()
        reply = plugin.pre_llm_call(
            session_id=f"bench-{number}", user_message=PROMPTS[number % len(PROMPTS)]
        )
        samples.append((time.perf_counter() - started) * 1000)
        assert reply is not None and reply["context"].startswith("[MemHooks")
    return statistics.median(samples)


if __name__ == "__main__":
    raise SystemExit(main())
