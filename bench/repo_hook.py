"""The hook as Claude Code runs it: the handlers ``memhooks agents install`` wrote, each a
shell command started in the launch folder with the payload on stdin and killed at its
``timeout`` (code.claude.com/docs/en/hooks: a matcher is the tool name or a regular
expression over it; empty or ``*`` matches every tool; a hook that times out gives
nothing). Replies are read as the host reads them (:mod:`claude_host`).
"""

from __future__ import annotations

import json
import re
import subprocess
import time

import claude_host


def matches(handler: dict, event: str, tool: str | None) -> bool:
    """Does ``handler`` (one of :func:`repo_clone.install`'s) fire for ``event`` on
    ``tool``?"""
    if handler["event"] != event:
        return False
    matcher = handler["matcher"]
    if tool is None or matcher in ("", "*"):
        return True
    return re.fullmatch(matcher, tool) is not None


def run(command: str, raw: bytes, env: dict[str, str], cwd: str, timeout: float) -> dict:
    """One hook process: ``{stdout, note, code, ms}``; ``code`` is None when the host
    would have killed it at ``timeout`` seconds (and read nothing)."""
    started = time.perf_counter()
    try:
        done = subprocess.run(["/bin/sh", "-c", command], input=raw, env=env, cwd=cwd,
                              capture_output=True, timeout=timeout, check=False)  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"stdout": "", "note": f"killed at {timeout} s", "code": None,
                "ms": (time.perf_counter() - started) * 1000}  # fmt: skip
    ms = (time.perf_counter() - started) * 1000
    note = done.stderr.decode("utf-8", "replace").strip() or None
    return {"stdout": done.stdout.decode("utf-8", "replace"), "note": note,
            "code": done.returncode, "ms": ms}  # fmt: skip


def call(handlers: list[dict], step: str, raw: bytes, env: dict[str, str], cwd: str,
         unwired: bool = False) -> dict:  # fmt: skip
    """One step of the session as the host plays it: every matching handler runs, what
    reached the model is kept (``text``: its context; ``ids``: the memories in it, in
    order; ``commits``: the commit each names, or ``""``). A step no handler matches is not sent (``wired`` False) unless
    ``unwired``, then through the prompt handler's command, and marked so."""
    payload = json.loads(raw)
    event, tool = payload["hook_event_name"], payload.get("tool_name")
    fired = [h for h in handlers if matches(h, event, tool)]
    wired = bool(fired)
    if not fired and unwired:
        fired = [h for h in handlers if h["event"] == "UserPromptSubmit"][:1]
    row: dict = {"step": step, "event": event, "tool": tool, "wired": wired, "calls": 0,
                 "ms": None, "notes": [], "chars": 0, "ids": [], "commits": [], "text": ""}  # fmt: skip
    texts = []
    for handler in fired:
        out = run(handler["command"], raw, env, cwd, float(handler["timeout"]))
        row["calls"] += 1
        row["ms"] = (row["ms"] or 0.0) + out["ms"]
        if out["note"]:
            row["notes"].append(out["note"])
        if out["code"] == 0:  # other exit codes: the host shows no context
            text = claude_host.model_text(out["stdout"], event)
            if text:
                texts.append(text)
    row["text"] = "\n".join(texts)
    row["chars"] = sum(len(t) for t in texts)
    memories = claude_host.memories(row["text"])
    row["ids"] = [m["id"] for m in memories]
    row["commits"] = [m["commit"] if isinstance(m.get("commit"), str) else "" for m in memories]
    for commit in claude_host.line_commits(row["text"]):  # line-level: commits, not memories
        row["ids"].append("line:" + commit)
        row["commits"].append(commit)
    return row


def bare(python: str, env: dict[str, str], cwd: str) -> float:
    """Milliseconds of a bare interpreter (``python -S -c pass``, ``python`` the
    memhooks venv's) started through the same shell: the floor a hook process cannot go
    below."""
    return run(f"{python} -S -c pass", b"", env, cwd, 30.0)["ms"]
