"""Tool-time recall for the hosts that cannot run here (Cursor, Copilot in VS Code, Cline,
Windsurf, Kiro): recorded payloads replayed as one session through the real hook entry.

Each session of ``data/tooltime/sessions.json`` is played in order, one fresh
``memhooks hook --agent AGENT`` process per payload (as a host runs it), sharing one
memhooks state directory and the store of ``data/tooltime/project.json`` (30 root
memories about totals that match the recorded prompts, one memory anchored to
``src/acme`` and one to ``src/shipping``). Per step the reply is checked exactly: the
host's no-op byte for byte, or its context shape (and only that shape) holding the
memories the step names. Across the session no memory reaches the host twice.
Windsurf and Kiro have no tool-time channel: every tool event must emit nothing.

The real-agent counterpart (Claude Code, Codex, Gemini CLI, Copilot CLI) is
``tests/e2e/test_session_recall.py`` (opt-in).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hook_support import PAYLOADS, RECORDED_ROOTS

DATA = Path(__file__).parent / "data" / "tooltime"
SESSIONS = {k: v for k, v in json.loads((DATA / "sessions.json").read_text(encoding="utf-8")).items() if not k.startswith("_")}
#: The console script hosts run (``memhooks agents install`` writes its absolute path).
MEMHOOKS = str(Path(sys.executable).with_name("memhooks"))
TAG = re.compile(r"GOLDEN-[A-Z]+(?:-\d+)?")


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """(project root, environment of the hook processes)."""
    spec = json.loads((DATA / "project.json").read_text(encoding="utf-8"))
    root = (tmp_path / "proj").resolve()
    (root / ".git").mkdir(parents=True)
    for name, text in spec["tree"].items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    env = {**os.environ, "MEMHOOKS_STORE": str(tmp_path / "store.sqlite3"), "MEMHOOKS_STATE_DIR": str(tmp_path / "state")}
    memories = tmp_path / "memories.jsonl"
    memories.write_text("".join(json.dumps(m) + "\n" for m in spec["memories"]), encoding="utf-8")
    subprocess.run([MEMHOOKS, "memories", "import", "--cwd", str(root), str(memories)], env=env, cwd=root, check=True, capture_output=True)
    return root, env


def payload(step: dict[str, object], root: Path) -> str:
    """The recorded payload of ``step`` with its ``set`` keys applied and its project
    paths moved under ``root``."""
    body = json.loads((PAYLOADS / str(step["payload"])).read_text(encoding="utf-8"))
    for dotted, value in dict(step.get("set") or {}).items():  # type: ignore[call-overload]
        *parents, key = dotted.split(".")
        target = body
        for name in parents:
            target = target[name]
        target[key] = value
    text = json.dumps(body)
    for recorded in RECORDED_ROOTS:
        text = text.replace(recorded, str(root))
    return text


def context_of(shape: str, stdout: str, echo: object) -> str:
    """The context text of a context reply, asserting the host's exact shape."""
    if shape == "plain":
        assert not stdout.lstrip().startswith("{"), f"Kiro takes plain stdout, got JSON: {stdout[:200]!r}"
        return stdout
    body = json.loads(stdout)
    if shape == "hookSpecificOutput":
        assert list(body) == ["hookSpecificOutput"] and sorted(body["hookSpecificOutput"]) == ["additionalContext", "hookEventName"], body
        assert body["hookSpecificOutput"]["hookEventName"] == echo, "hookEventName must echo the firing event, or the host drops the reply"
        return str(body["hookSpecificOutput"]["additionalContext"])
    if shape == "contextModification":
        assert sorted(body) == ["cancel", "contextModification"] and body["cancel"] is False, body
        return str(body["contextModification"])
    assert list(body) == [shape], body
    return str(body[shape])


@pytest.mark.parametrize("host", sorted(SESSIONS))
def test_recorded_session(host: str, project: tuple[Path, dict[str, str]]) -> None:
    root, env = project
    session = SESSIONS[host]
    delivered: dict[str, int] = {}  # memory tag -> the step that delivered it
    for number, step in enumerate(session["steps"], 1):
        argv = [MEMHOOKS, "hook", "--agent", session["agent"], *([step["event"]] if step.get("event") else [])]
        done = subprocess.run(argv, input=payload(step, root), env=env, cwd=root, capture_output=True, text=True, timeout=60, check=False)
        where = f"{host} step {number} ({step['payload']}: {step['why']})"
        assert done.returncode == 0, f"{where}: exit {done.returncode}"
        assert len(done.stderr.splitlines()) <= 1, f"{where}: more than one line on stderr: {done.stderr!r}"
        stdout = done.stdout.rstrip("\n")
        if step["reply"] == "noop":
            assert stdout == step["stdout"], f"{where}: expected the host's no-op {step['stdout']!r}, got {stdout[:500]!r}\n{done.stderr}"
            continue
        assert stdout not in ("", "{}", '{"cancel":false}'), f"{where}: expected context, got the no-op {stdout!r}\n{done.stderr}"
        context = context_of(session["shape"], stdout, step.get("echo"))
        for tag in step.get("has", []):
            assert tag in context, f"{where}: {tag} missing from the reply {context[:800]!r}\n{done.stderr}"
        for tag in step.get("lacks", []):
            assert tag not in context, f"{where}: {tag} does not belong in this reply {context[:800]!r}"
        assert "untrusted" in context, f"{where}: injected repository text must be labelled untrusted"
        assert len(context) <= step.get("budget", 8000), f"{where}: {len(context)} characters, over the budget"  # prompt time: MEMHOOKS_MAX_CHARS
        tags = TAG.findall(context)
        assert len(tags) == len(set(tags)), f"{where}: a memory twice in one reply: {tags}"
        for tag in tags:
            assert tag not in delivered, f"{where}: {tag} already reached the host at step {delivered[tag]}"
            delivered[tag] = number
