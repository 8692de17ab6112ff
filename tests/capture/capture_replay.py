"""Replay the recorded hook payloads through capture and score what it keeps.

Used by ``test_capture_noise.py`` (the default values must keep the measured noise at
the documented level) and by ``bench/capture_noise.py`` (the sweep over filter values
reported in ``docs/capture.md``).

* Payloads (``tests/agents/data/payloads``) are grouped into one session per folder and
  host prefix (``docs/claude-code-*`` …), ordered by lifecycle, 10 s apart, each group
  in its own project directory (the payloads' invented roots are rewritten to it).
* With ``repeat`` each prompt is sent 10 times, and each edit and command 3 times, 2 s
  apart — an agent retrying, or a host firing a hook twice.
* The scripted sessions in ``data/sessions/`` (realistic sessions in the recorded
  payloads' shapes, with failures, fixes, configuration edits and decisions that the
  short recorded samples lack) are replayed the same way, each in its own project.
* At the end ``capture process`` runs an hour later (idle sessions get their record).
* Live captured memories are matched against ``data/labels.json`` (payload groups) and
  each session script's ``expect``: the memories a careful person would want kept. **Noise rate** = live captured memories
  that match no expectation (trivial, duplicate, or wrong) / all live captured
  memories. **Miss rate** = expectations no live memory matched / all expectations.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memhooks.agents import normalize
from memhooks.capture.observer import record
from memhooks.capture.upkeep import process
from memhooks.store import MemoryStore

HERE = Path(__file__).parent
PAYLOADS = HERE.parent / "agents" / "data" / "payloads"
EXPECTED = json.loads((HERE.parent / "agents" / "data" / "expected.json").read_text("utf-8"))
LABELS = json.loads((HERE / "data" / "labels.json").read_text("utf-8"))
SESSIONS = {
    f"sessions/{p.stem}": json.loads(p.read_text("utf-8"))
    for p in sorted((HERE / "data" / "sessions").glob("*.json"))
}
ROOTS = ("/home/dev/projects/acme-api", "/home/dev/acme-api", "/home/user/proj")
PREFIXES = sorted(
    (
        "antigravity",
        "claude-code",
        "cline",
        "codebuddy",
        "codex",
        "copilot-cli",
        "copilot-vscode",
        "cursor",
        "gemini-cli",
        "hermes",
        "kiro-cli",
        "kiro-ide",
        "omp",
        "openclaw",
        "opencode",
        "pi",
        "vscode-copilot",
        "windsurf",
    ),
    key=len,
    reverse=True,
)
ORDER = (
    "session_start",
    "user_prompt",
    "pre_tool",
    "post_command",
    "post_edit",
    "post_tool",
    "stop",
    "pre_compact",
    "post_compact",
    "session_end",
    None,
)
T0 = 1_800_000_000.0


def groups() -> dict[str, list[str]]:
    """``{"docs/claude-code": [payload names in lifecycle order]}``."""
    out: dict[str, list[str]] = {}
    for name in sorted(EXPECTED):
        folder, file = name.split("/", 1)
        prefix = next(p for p in PREFIXES if file.startswith(p + "-"))
        out.setdefault(f"{folder}/{prefix}", []).append(name)
    for names in out.values():
        names.sort(key=lambda n: (ORDER.index(EXPECTED[n]["event"]), n))
    return out


def replay(
    base: Path, store_path: str, policy: object = None, repeat: bool = False
) -> dict[str, list[dict[str, object]]]:
    """Replay every group and session script with capture on for every project (a
    settings file under ``base``); return ``{group: [live captured memories]}``."""
    from memhooks.capture.settings import USER, switch

    settings = str(base / "capture.json")
    switch(True, USER, path=settings)
    now = T0
    projects: dict[str, str] = {}
    plan: list[tuple[str, list[tuple[str, object]]]] = []
    for group, names in groups().items():
        plan.append((group, [(str(EXPECTED[n]["event"]), n) for n in names]))
    for group, script in SESSIONS.items():
        plan.append((group, [("", event) for event in script["events"]]))
    for group, items in plan:
        project_dir = base / group.replace("/", "__")
        project_dir.mkdir(parents=True)
        projects[group] = str(project_dir.resolve())
        for _, item in items:
            event = (
                load(item, projects[group])
                if isinstance(item, str)
                else script_event(group, item, projects[group])
            )
            times = (
                {"user_prompt": 10, "post_edit": 3, "post_command": 3}.get(str(event.event), 1)
                if repeat
                else 1
            )
            for _ in range(times):
                record(
                    event,
                    store_path=store_path,
                    now=now,
                    cwd=projects[group],
                    policy=policy,
                    settings_path=settings,
                )  # type: ignore[arg-type]
                now += 2 if times > 1 else 10
        now += 600
    process(store_path, now=now + 3600, policy=policy)  # type: ignore[arg-type]
    result: dict[str, list[dict[str, object]]] = {}
    with MemoryStore(store_path) as store:
        for group, project in projects.items():
            result[group] = [
                m.to_json() for m in store.list(project, limit=None) if "captured" in m.tags
            ]
    return result


def script_event(group: str, payload: object, project_dir: str) -> Any:
    text = json.dumps(payload).replace("$PROJECT", project_dir)
    return normalize(json.loads(text), host=str(SESSIONS[group]["agent"]))


def load(name: str, project_dir: str) -> Any:
    text = (PAYLOADS / name).read_text("utf-8")
    for root in ROOTS:
        text = text.replace(root, project_dir)
    entry = EXPECTED[name]
    host = entry.get("agent", entry["host"])
    return normalize(json.loads(text), host=None if host == "unknown" else str(host))


def score(live: dict[str, list[dict[str, object]]]) -> dict[str, object]:
    """Noise and miss rates of a replay against ``labels.json``."""
    noise: list[tuple[str, str]] = []
    missed: list[tuple[str, str]] = []
    kept = 0
    expected_total = 0
    for group, memories in live.items():
        expected = (
            SESSIONS[group]["expect"] if group in SESSIONS else LABELS["groups"].get(group, [])
        )
        wanted = [list(e["kinds"]) for e in expected]
        expected_total += len(wanted)
        for memory in memories:
            kept += 1
            match = next((w for w in wanted if memory["kind"] in w), None)
            if match is None:
                noise.append((group, str(memory["text"])))
            else:
                wanted.remove(match)
        missed += [(group, "/".join(w)) for w in wanted]
    return {
        "kept": kept,
        "noise": len(noise),
        "noise_rate": len(noise) / kept if kept else 0.0,
        "expected": expected_total,
        "missed": len(missed),
        "miss_rate": len(missed) / expected_total if expected_total else 0.0,
        "noise_items": noise,
        "missed_items": missed,
    }
