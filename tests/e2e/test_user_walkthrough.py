"""A new user's first session, end to end, with nothing but the CLI and real Claude Code.

In a fresh git project (HOME and the XDG folders sandboxed, no ``MEMHOOKS_*`` setting, so
the store and the state file are in their default places): ``memhooks init``, a hook in
``billing/``, one memory about billing stored with ``memhooks remember --cwd billing``,
``memhooks agents install --agent claude-code`` (the default: user level), then
``claude -p`` launched at the project **root**. The fake model (``read-write`` scenario)
reads ``billing/invoice.py``, then writes it.

The billing memory must reach the model exactly once: at tool time, in the ``PostToolUse``
reply to the Read (a ``<system-reminder>`` right after the Read's result), so in the
request that plans the Write, and not again in the reply to the Write. Two records say
so independently: the model's last request (the whole conversation, read through
:mod:`transcript`) and Claude Code's own hook log (``--include-hook-events``). Then
``memhooks sessions list`` / ``show`` name that session and that one delivery.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import transcript
from e2e_support import AGENT_ENV, binary, fake_llm, memhooks_cli, sandbox_env

PROMPT = "Make the totals use two decimals"
TAG = "E2E-WALK-6208"
MEMORY = f"{TAG}: money is kept as integer cents end to end; invoice.py never stores a float."
INVOICE = "TOTAL_DECIMALS = 0\n\n\ndef total(items):\n    return round(sum(items), TOTAL_DECIMALS)\n"
BILLING_HOOK = """---
schema: memhooks/v2
recall_queries:
  - query: "How does billing round invoice amounts?"
    priority: 0.9
---
"""
def test_claude_code_launched_at_the_root_gets_the_billing_memory_once_at_the_read(tmp_path: Path) -> None:
    claude = binary("claude")
    home, root = tmp_path / "home", tmp_path / "proj"
    env = sandbox_env(home)
    home.mkdir()
    (root / "billing").mkdir(parents=True)
    invoice = root / "billing" / "invoice.py"
    invoice.write_text(INVOICE)
    git = ["git", "-C", str(root), "-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid"]
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=env)
    subprocess.run([*git, "add", "-A"], check=True, env=env)
    subprocess.run([*git, "commit", "-qm", "billing"], check=True, env=env)

    def memhooks(*args: str) -> str:
        done = subprocess.run([memhooks_cli(), *args], env=env, cwd=root, capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, f"memhooks {' '.join(args)}: {done.stderr}"
        return done.stdout

    memhooks("init")
    (root / "billing" / "MEMHOOKS.md").write_text(BILLING_HOOK)
    memhooks("remember", MEMORY, "--cwd", "billing", "--kind", "decision")
    memhooks("agents", "install", "--agent", "claude-code")
    assert (home / ".claude" / "settings.json").is_file() and not (root / ".claude").exists(), "the default install is user level"

    server = fake_llm(tmp_path / "requests.jsonl", scenario="read-write", write_path=str(invoice), write_content=INVOICE.replace("= 0", "= 2"))
    try:
        argv = [claude, "-p", PROMPT, "--permission-mode", "acceptEdits", "--output-format", "stream-json", "--verbose", "--include-hook-events"]
        done = subprocess.run(argv, env={**env, **AGENT_ENV["claude-code"](server.base_url), "PWD": str(root)}, cwd=root,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=240, check=False)  # fmt: skip
    finally:
        server.stop()
    output = f"exit {done.returncode}\nstderr: …{done.stderr[-1500:]}"
    assert done.returncode == 0 and "TOTAL_DECIMALS = 2" in invoice.read_text(), f"the session did not write billing/invoice.py\n{output}"

    # 1. The model's last request: the memory once, after the Read, in Claude Code's tool channel.
    requests = server.requests()
    seen = transcript.read("claude-code", requests[-1]["body"], root)  # type: ignore[arg-type]
    assert seen.calls == ["Read billing/invoice.py", "Write billing/invoice.py"], output
    where = [(a.after, a.channel) for a in seen.arrivals(TAG)]
    assert where == [("Read billing/invoice.py", transcript.CLAUDE_TOOL)], f"{seen.excerpt(TAG)}\n{output}"
    planned = [r for r in requests if str(r["reply"]).startswith("tool_call:Write")]
    assert len(planned) == 1 and TAG in json.dumps(planned[0]["body"]), "the request that planned the Write lacked the memory"

    # 2. Claude Code's hook log: only the PostToolUse reply to the Read carried it (the
    # PreToolUse of the Write is wired for line-level recall: a new file owns no lines).
    events = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    replies = [(e["hook_name"], TAG in e.get("stdout", "")) for e in events if e.get("subtype") == "hook_response"]
    assert replies == [("UserPromptSubmit", False), ("PostToolUse:Read", True), ("PreToolUse:Write", False),
                       ("PostToolUse:Write", False)], replies  # fmt: skip
    session_ids = {e["session_id"] for e in events if e.get("subtype") == "hook_response"}

    # 3. What memhooks says reached the agent, from the default state file.
    listed = json.loads(memhooks("sessions", "list", "--format", "json"))
    assert Path(listed["state"]) == home / ".local/state/memhooks/state.sqlite3"
    assert [(s["host"], s["session"], s["root"]) for s in listed["sessions"]] == [("claude-code", *session_ids, str(root))], listed
    shown = json.loads(memhooks("sessions", "show", listed["sessions"][0]["session"], "--format", "json"))
    memories = [(d["event"], d["target"], [i["words"][: len(TAG)] for i in d["items"] if not i["item"].startswith("guidance:")]) for d in shown["deliveries"]]
    assert [m for m in memories if m[2]] == [("PostToolUse", "billing", [TAG])], shown["deliveries"]
    human = memhooks("sessions", "show", listed["sessions"][0]["session"])
    assert re.search(rf"PostToolUse\s+for billing\b.*\n\s+\S+\s+{TAG}", human), human

    # No session state, store or journal in the repository: only what the user and the hook files changed.
    changed = subprocess.run([*git, "status", "--porcelain", "--untracked-files=all"], env=env, capture_output=True, text=True, check=True).stdout
    assert {line[3:] for line in changed.splitlines()} <= {"MEMHOOKS.md", "billing/MEMHOOKS.md", "billing/invoice.py"}, changed
