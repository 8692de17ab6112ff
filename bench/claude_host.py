"""Claude Code as the benchmarks play it: payloads shaped like recorded ones, replies read
the way the host reads them.

Payloads start from the fixtures captured from Claude Code 2.1.197
(``tests/agents/data/payloads/real/claude-code-*.json``, copies of
``shared/fixtures/payloads/real``): every field the host sends is kept (``session_id``,
``transcript_path``, ``cwd``, ``prompt_id``, ``permission_mode``, ``effort``,
``tool_use_id``, ``duration_ms`` ...), only the values change. No Read was recorded, so
a Read's ``PostToolUse`` is the recorded ``PostToolUse`` envelope (a Write's) with
``tool_name: "Read"``, ``tool_input: {"file_path": ABS}`` and Claude Code's Read result
``{"type": "text", "file": {"filePath", "content", "numLines", "startLine",
"totalLines"}}``.

Replies are read as Claude Code reads them (code.claude.com/docs/en/hooks,
``shared/spec/real-agents.md``): JSON on stdout with
``hookSpecificOutput.additionalContext`` whose ``hookEventName`` echoes the firing event
(otherwise the host drops it); plain, non-JSON stdout reaches the model only for
``SessionStart`` and ``UserPromptSubmit``. Memory ids are then read from that text alone:
each ``memhooks/memories-v1`` JSON object in it, in order.
"""

from __future__ import annotations

import json
import os
import re
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.join(os.path.dirname(HERE), "tests", "agents", "data", "payloads", "real")
MEMORIES_SCHEMA = "memhooks/memories-v1"
#: Events whose plain (non-JSON) stdout Claude Code adds to the model's context.
PLAIN_EVENTS = ("SessionStart", "UserPromptSubmit")
_SCHEMA_AT = re.compile(r'\{\s*"schema"\s*:\s*"' + re.escape(MEMORIES_SCHEMA) + '"')


def recorded(event: str) -> dict:
    """The recorded Claude Code payload of ``event`` (e.g. ``UserPromptSubmit``)."""
    with open(os.path.join(REAL, f"claude-code-{event}.json"), encoding="utf-8") as fp:
        return json.load(fp)


class Session:
    """One Claude Code session launched in ``cwd``: its payloads, as bytes for stdin.

    ``session_id`` defaults to a fresh UUID (Claude Code's form); ``home`` is the user's
    home folder the transcript path is under. Each :meth:`prompt` starts a new turn
    (a new ``prompt_id``); tool events carry the current turn's ``prompt_id``.
    """

    def __init__(self, cwd: str, session_id: str | None = None, home: str = "/home/user") -> None:
        self.cwd = cwd
        self.session_id = session_id or str(uuid.uuid4())
        slug = re.sub(r"[^A-Za-z0-9]", "-", cwd)
        self.transcript = os.path.join(
            home, ".claude", "projects", slug, f"{self.session_id}.jsonl"
        )
        self.prompt_id = str(uuid.uuid4())
        self._prompt = recorded("UserPromptSubmit")
        self._tool = recorded("PostToolUse")

    def _envelope(self, template: dict) -> dict:
        payload = dict(template)
        payload.update(session_id=self.session_id, transcript_path=self.transcript, cwd=self.cwd)
        if "prompt_id" in payload:
            payload["prompt_id"] = self.prompt_id
        return payload

    def prompt(self, text: str) -> bytes:
        """``UserPromptSubmit`` with ``text`` as the prompt (starts a turn)."""
        self.prompt_id = str(uuid.uuid4())
        payload = self._envelope(self._prompt)
        payload["prompt"] = text
        return encode(payload)

    def read(self, path: str) -> bytes:
        """``PostToolUse`` of a Read of the absolute file ``path`` (its content is read
        from disk, as the tool would return it)."""
        try:
            with open(path, encoding="utf-8", errors="replace") as fp:
                content = fp.read()
        except OSError:
            content = ""
        lines = content.count("\n") + (1 if content and not content.endswith("\n") else 0)
        payload = self._envelope(self._tool)
        payload.update(
            tool_name="Read",
            tool_input={"file_path": path},
            tool_response={
                "type": "text",
                "file": {
                    "filePath": path,
                    "content": content,
                    "numLines": lines,
                    "startLine": 1,
                    "totalLines": lines,
                },
            },
            tool_use_id="toolu_" + uuid.uuid4().hex[:24],
        )
        return encode(payload)


def encode(payload: dict) -> bytes:
    return json.dumps(payload, ensure_ascii=False).encode("utf-8")


def event_of(raw: bytes) -> str:
    """The ``hook_event_name`` of a payload built here."""
    return json.loads(raw)["hook_event_name"]


def model_text(stdout: str, event: str) -> str | None:
    """What the model receives from one hook's ``stdout`` for ``event``, or None."""
    text = stdout.strip()
    if not text:
        return None
    try:
        reply = json.loads(text)
    except ValueError:
        return text if event in PLAIN_EVENTS else None
    if not isinstance(reply, dict):
        return None
    specific = reply.get("hookSpecificOutput")
    if not isinstance(specific, dict) or specific.get("hookEventName") != event:
        return None  # Claude Code drops a response naming another event
    context = specific.get("additionalContext")
    return context if isinstance(context, str) and context else None


def memory_ids(context: str | None) -> list[str]:
    """Ids of the memories in ``context``, in the order the model reads them: every
    ``memhooks/memories-v1`` JSON object in the text, first to last."""
    if not context:
        return []
    decoder = json.JSONDecoder()
    ids: list[str] = []
    for match in _SCHEMA_AT.finditer(context):
        try:
            body, _end = decoder.raw_decode(context, match.start())
        except ValueError:
            continue
        for memory in body.get("memories") or ():
            if isinstance(memory, dict) and isinstance(memory.get("id"), str):
                ids.append(memory["id"])
    return ids
