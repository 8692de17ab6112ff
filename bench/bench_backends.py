"""Server-backend benchmark (issue 14): ``memhooks recall`` and the prompt hook as fresh
processes on Hindsight and OpenViking, as ratios to a bare ``python -c pass`` of the same
virtualenv measured in the same run, interleaved.

The project is the backend scenario (``tests/backends/data/scenario.json``: a 2-hook chain,
two recall queries with priorities, entities, tags and an exclusion), the target its
``src/auth`` folder. Each backend is measured against

* ``stub``: a loopback HTTP server in this process replaying the answers a real server gave
  to this scenario (``tests/backends/data/<backend>_http.json``, recorded by
  ``tests/backends/servers/record.py``) — memhooks' own cost, with a server that answers
  in well under a millisecond;
* ``real``: the real server, when ``MEMHOOKS_TEST_HINDSIGHT_URL`` /
  ``MEMHOOKS_TEST_OPENVIKING_URL`` are set (``tests/backends/servers/start.sh``; the
  scenario's memories are remembered into a fresh bank / URI first) — end to end, the
  server's own search time included.

Per case: median and fastest wall time of ``memhooks recall TARGET --prompt P --format
json`` and of ``memhooks hook --agent claude-code`` with a ``UserPromptSubmit`` payload
(its ``cwd`` the target), each checked to have recalled the scenario's first memory; peak
RSS of the hook (``wait4``). Target (issue 14 item 3): the prompt hook on a loopback
server ≤ 5× bare. ``--imports`` also times importing ``http.client``, ``urllib.request``,
memhooks' HTTP client and each installed SDK in a fresh process (why the thin client).

    .venv/bin/python bench/bench_backends.py [--runs 15] [--imports] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent / "tests" / "backends"
sys.path.insert(0, str(TESTS))

from backend_scenario import SCENARIO, drafts, make_project
from http_stub import Stub, recorded

PROMPT = "How long do auth tokens live before the gateway rotates them?"
FIRST = next(m["text"] for m in SCENARIO["memories"] if m["key"] == SCENARIO["expect"]["first"])
EMPTY = {
    "/memories/recall": {"results": []},
    "/search/find": {"status": "ok", "result": {"memories": [], "resources": [], "skills": []}},
}
IMPORTS = {
    "http.client": "import http.client, json",
    "urllib.request": "import urllib.request, json",
    "memhooks.backends.http": "import memhooks.backends.http",
    "memhooks.backends.hindsight": "import memhooks.backends.hindsight",
    "hindsight_client (SDK)": "import hindsight_client",
    "openviking_sdk (SDK)": "import openviking_sdk",
    "honcho (SDK)": "import honcho",
}


def child(argv: list[str], env: dict[str, str], stdin: bytes = b"") -> tuple[float, bytes]:
    """``(milliseconds, stdout)`` of one fresh process, spawn to exit."""
    started = time.perf_counter()
    proc = subprocess.run(argv, env=env, input=stdin, capture_output=True, check=False)
    elapsed = (time.perf_counter() - started) * 1000
    if proc.returncode:
        raise SystemExit(f"{argv} -> {proc.returncode}: {proc.stderr.decode(errors='replace')}")
    return elapsed, proc.stdout


def rss_of(argv: list[str], env: dict[str, str], stdin: bytes) -> int:
    """Peak RSS (KiB) of one run of ``argv``, from ``wait4``."""
    proc = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)  # fmt: skip
    assert proc.stdin is not None
    proc.stdin.write(stdin)
    proc.stdin.close()
    _, _, usage = os.wait4(proc.pid, 0)
    return int(usage.ru_maxrss)


def settings_env(name: str, url: str, where: str) -> dict[str, str]:
    if name == "hindsight":
        return {
            "MEMHOOKS_BACKEND": name,
            "MEMHOOKS_HINDSIGHT_URL": url,
            "MEMHOOKS_HINDSIGHT_BANK": where,
        }
    return {
        "MEMHOOKS_BACKEND": name,
        "MEMHOOKS_OPENVIKING_URL": url,
        "MEMHOOKS_OPENVIKING_MEMORY_URI": where,
    }


def real_target(name: str, url: str, root: Path) -> str:
    """Remember the scenario into a fresh bank / URI of the real server; its name."""
    from memhooks.store import project_id

    tag = f"memhooks-bench-{uuid.uuid4().hex[:8]}"
    if name == "hindsight":
        from memhooks.backends.hindsight import HindsightBackend

        where, backend = tag, HindsightBackend.open({"url": url, "bank": tag})
    else:
        from memhooks.backends.openviking import OpenVikingBackend

        where = f"viking://resources/{tag}"
        backend = OpenVikingBackend.open({"url": url, "memory_uri": where})  # type: ignore[assignment]
    for draft in drafts(project_id(str(root))):
        backend.remember(draft)
    backend.close()
    return where


def measure(
    cases: dict[str, dict[str, str]], base: dict[str, str], target: Path, runs: int
) -> dict[str, Any]:
    exe = os.path.join(os.path.dirname(sys.executable), "memhooks")
    bare = [sys.executable, "-c", "pass"]
    recall = [exe, "recall", str(target), "--prompt", PROMPT, "--format", "json"]
    hook = [exe, "hook", "--agent", "claude-code"]
    payload = json.dumps({"hook_event_name": "UserPromptSubmit", "prompt": PROMPT, "cwd": str(target),
                          "session_id": "bench", "transcript_path": "/dev/null"}).encode()  # fmt: skip
    times: dict[str, list[float]] = {"bare": []}
    for case, extra in cases.items():  # warm-up: bytecode, parsed-hook cache; check results
        env = {**base, **extra}
        out = json.loads(child(recall, env)[1])
        assert out["memories"] and out["memories"][0]["text"] == FIRST, (
            case,
            out["status"],
            out["queries"],
        )
        context = json.loads(child(hook, env, payload)[1])["hookSpecificOutput"][
            "additionalContext"
        ]
        assert FIRST in context, (case, context[:200])
        times[f"{case} recall"], times[f"{case} hook"] = [], []
    for _ in range(runs):
        times["bare"].append(child(bare, base)[0])
        for case, extra in cases.items():
            env = {**base, **extra}
            times[f"{case} recall"].append(child(recall, env)[0])
            times[f"{case} hook"].append(child(hook, env, payload)[0])
    bare_median, bare_min = statistics.median(times["bare"]), min(times["bare"])
    report: dict[str, Any] = {
        "bare_ms": round(bare_median, 1),
        "bare_min_ms": round(bare_min, 1),
        "cases": {},
    }
    for name, samples in times.items():
        if name == "bare":
            continue
        report["cases"][name] = {
            "ms": round(statistics.median(samples), 1),
            "min_ms": round(min(samples), 1),
            "ratio_to_bare": round(statistics.median(samples) / bare_median, 2),
            "min_ratio_to_bare": round(min(samples) / bare_min, 2),
        }
    for case, extra in cases.items():
        report["cases"][f"{case} hook"]["peak_rss_mb"] = round(
            max(rss_of(hook, {**base, **extra}, payload) for _ in range(3)) / 1024, 1
        )
    return report


def imports(runs: int, env: dict[str, str]) -> dict[str, Any]:
    import importlib.util

    bare = [sys.executable, "-c", "pass"]
    cases = {
        k: c
        for k, c in IMPORTS.items()
        if importlib.util.find_spec(c.split()[1].split(",")[0]) is not None
    }
    times: dict[str, list[float]] = {"bare": [], **{k: [] for k in cases}}
    for _ in range(runs):
        times["bare"].append(child(bare, env)[0])
        for name, code in cases.items():
            times[name].append(child([sys.executable, "-c", code], env)[0])
    bare_ms = statistics.median(times["bare"])
    return {name: {"ms": round(statistics.median(v), 1), "added_ms": round(statistics.median(v) - bare_ms, 1)}
            for name, v in times.items()}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--imports", action="store_true")
    parser.add_argument("--json", metavar="OUT")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMHOOKS_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    real = {"hindsight": os.environ.get("MEMHOOKS_TEST_HINDSIGHT_URL"),
            "openviking": os.environ.get("MEMHOOKS_TEST_OPENVIKING_URL")}  # fmt: skip
    stubs = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = os.path.realpath(tmp)
        env.update(HOME=tmp, XDG_CONFIG_HOME=f"{tmp}/config", XDG_CACHE_HOME=f"{tmp}/cache",
                   XDG_DATA_HOME=f"{tmp}/data", XDG_STATE_HOME=f"{tmp}/state")  # fmt: skip
        root = make_project(Path(tmp))
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        cases: dict[str, dict[str, str]] = {}
        for name, default in (("hindsight", "proj"), ("openviking", "viking://resources/memhooks")):
            stub = Stub(recorded(name), EMPTY)
            stubs.append(stub)
            cases[f"{name} stub"] = settings_env(name, stub.url, default)
            if real[name]:
                cases[f"{name} real"] = settings_env(
                    name, str(real[name]), real_target(name, str(real[name]), root)
                )
        try:
            report = measure(cases, env, root / SCENARIO["target"], args.runs)
            if args.imports:
                report["imports"] = imports(args.runs, env)
        finally:
            for stub in stubs:
                stub.close()
    report["runs"] = args.runs
    report["load_average"] = [round(x, 2) for x in os.getloadavg()]
    text = json.dumps(report, indent=2)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
