"""Support for the session tests: a root-launched project (``tests/hook/data/billing_project.json``) and a way to send it
hook payloads the way Claude Code does, each call a fresh handler run on one state file."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

DATA = Path(__file__).parent.parent / "hook" / "data"


def build(base: Path) -> tuple[Path, Path]:
    """(project root, store file) of the billing project."""
    from memhooks.store import MemoryStore, project_id

    spec = json.loads((DATA / "billing_project.json").read_text(encoding="utf-8"))
    root = base / "proj"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for rel, text in {**spec["hooks"], **spec["files"]}.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    store_path = base / "store.sqlite3"
    store = MemoryStore(str(store_path))
    try:
        project = project_id(str(root.resolve()))
        many = spec["root_memories"]
        for i in range(many["count"]):
            store.add(project, many["text"].format(i=i), id=f"root-{i:02d}")
        for memory in spec["memories"]:
            store.add(project, memory["text"], id=memory["id"], scope=memory["scope"], files=memory["files"])
    finally:
        store.close()
    return root.resolve(), store_path


class Agent:
    """Sends Claude Code-shaped payloads for one session to the hook handler."""

    def __init__(self, root: Path, env: dict[str, str], session: str = "S1", host: str = "claude-code") -> None:
        self.root = root
        self.env = env
        self.session = session
        self.host = host

    def send(self, payload: dict[str, object]) -> str:
        from memhooks.hook import handle

        body = {"session_id": self.session, "cwd": str(self.root), "transcript_path": "/dev/null", **payload}
        reply = handle(json.dumps(body), agent=self.host, env=self.env, time_s=30.0)
        assert reply.note is None, reply.note
        return reply.stdout

    def prompt(self, text: str) -> str:
        return self.send({"hook_event_name": "UserPromptSubmit", "prompt": text})

    def read(self, rel: str) -> str:
        path = str(self.root / rel)
        return self.send({"hook_event_name": "PostToolUse", "tool_name": "Read", "tool_input": {"file_path": path}, "tool_response": {"type": "text", "file": {"filePath": path}}})


def delivered(stdout: str) -> list[str]:
    """The memory ids a Claude Code reply delivers, as the model sees them."""
    if not stdout:
        return []
    context = json.loads(stdout)["hookSpecificOutput"]["additionalContext"]
    body = json.loads(context.split("\n", 2)[2])
    return [m["id"] for m in body["memories"]]


