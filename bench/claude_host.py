"""Claude Code as the benchmarks play it: payloads shaped like recorded ones, replies read
the way the host reads them.

Payloads start from the fixtures captured from Claude Code 2.1.197
(``tests/agents/data/payloads/real/claude-code-*.json``, copies of
``shared/fixtures/payloads/real``): every field the host sends is kept (``session_id``,
``transcript_path``, ``cwd``, ``prompt_id``, ``permission_mode``, ``effort``,
``tool_use_id``, ``duration_ms`` ...), only the values change. No Read was recorded, so
a Read's ``PostToolUse`` is the recorded ``PostToolUse`` envelope (a Write's) with
``tool_name: "Read"``, ``tool_input: {"file_path": ABS, "offset"?, "limit"?}`` and
Claude Code's Read result ``{"type": "text", "file": {"filePath", "content",
"numLines", "startLine", "totalLines"}}`` (at most 2,000 lines unless ``limit`` says).
An Edit is the recorded ``PreToolUse`` / ``PostToolUse`` envelope with Claude Code's Edit input ``{file_path, old_string, new_string, replace_all}``
(code.claude.com/docs/en/hooks) and, after the tool ran, its result ``{filePath,
oldString, newString, originalFile, structuredPatch, userModified, replaceAll}``
(anthropics/claude-code#3671); a Write of a new file is the recorded Write.

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
#: Lines a Read without ``limit`` returns (Claude Code's Read tool: "reads up to 2000
#: lines starting from the beginning of the file" by default).
READ_LINES = 2000
#: Events whose plain (non-JSON) stdout Claude Code adds to the model's context.
PLAIN_EVENTS = ("SessionStart", "UserPromptSubmit")
#: The label memhooks opens a line-level delivery with (``recall/why_text.py``).
WHY_LABEL = "[memhooks: why these lines"
_NAMED = re.compile(r'(?<![0-9A-Za-z])([0-9a-f]{7,40}) "')
_SCHEMA_AT = re.compile(r'\{\s*"schema"\s*:\s*"' + re.escape(MEMORIES_SCHEMA) + '"')


def recorded(event: str) -> dict:
    """The recorded Claude Code payload of ``event`` (e.g. ``UserPromptSubmit``)."""
    with open(os.path.join(REAL, f"claude-code-{event}.json"), encoding="utf-8") as fp:
        return json.load(fp)


def hook_command(exe: str | None = None) -> list[str]:
    """The Claude Code hook command ``memhooks agents install`` writes for the install
    whose ``memhooks`` command is ``exe`` (default: this interpreter's), as that install
    itself words it (:func:`memhooks.install.command.argv`: ``python -S …/__main__.py``,
    not the console script) — so a baseline install is timed as its users run it."""
    import subprocess
    import sys

    python = (
        os.path.join(os.path.dirname(os.path.abspath(exe)), "python") if exe else sys.executable
    )
    probe = "import json; from memhooks.install.command import argv; print(json.dumps(argv('claude-code')))"
    done = subprocess.run([python, "-c", probe], capture_output=True, text=True, check=True)
    return [str(word) for word in json.loads(done.stdout)]


class Session:
    """One Claude Code session launched in ``cwd``: its payloads, as bytes for stdin.

    ``session_id`` defaults to a fresh UUID (Claude Code's form); ``home`` is the user's
    home folder the transcript path is under. Each :meth:`prompt` starts a new turn
    (a new ``prompt_id``); tool events carry the current turn's ``prompt_id``.
    """

    def __init__(
        self, cwd: str, session_id: str | None = None, home: str = "/home/user",
        *, seeded: bool = False,
    ) -> None:  # fmt: skip
        self.cwd = cwd
        self.session_id = session_id or str(uuid.uuid4())
        slug = re.sub(r"[^A-Za-z0-9]", "-", cwd)
        self.transcript = os.path.join(
            home, ".claude", "projects", slug, f"{self.session_id}.jsonl"
        )
        # seeded: every prompt and tool-use id derives from the session id, so a replay
        # sends the same bytes each time (a benchmark that resumes or re-runs a task)
        self._seeded = seeded
        self._count = 0
        self.prompt_id = self._uuid()
        self._prompt = recorded("UserPromptSubmit")
        self._tool = recorded("PostToolUse")
        self._pre = recorded("PreToolUse")

    def _uuid(self) -> str:
        if not self._seeded:
            return str(uuid.uuid4())
        self._count += 1
        return str(uuid.uuid5(uuid.NAMESPACE_OID, f"{self.session_id}/{self._count}"))

    def _tool_use_id(self) -> str:
        return "toolu_" + self._uuid().replace("-", "")[:24]

    def _envelope(self, template: dict) -> dict:
        payload = dict(template)
        payload.update(session_id=self.session_id, transcript_path=self.transcript, cwd=self.cwd)
        if "prompt_id" in payload:
            payload["prompt_id"] = self.prompt_id
        return payload

    def prompt(self, text: str) -> bytes:
        """``UserPromptSubmit`` with ``text`` as the prompt (starts a turn)."""
        self.prompt_id = self._uuid()
        payload = self._envelope(self._prompt)
        payload["prompt"] = text
        return encode(payload)

    def read(self, path: str, offset: int | None = None, limit: int | None = None) -> bytes:
        """``PostToolUse`` of a Read of the absolute file ``path`` (its content is read
        from disk, as the tool would return it): from line ``offset`` (1-based; default
        the first), ``limit`` lines (default :data:`READ_LINES`, the tool's own)."""
        try:
            with open(path, encoding="utf-8", errors="replace") as fp:
                lines = fp.read().splitlines(keepends=True)
        except OSError:
            lines = []
        start = offset or 1
        shown = lines[start - 1 : start - 1 + (limit or READ_LINES)]
        tool_input: dict[str, object] = {"file_path": path}
        if offset is not None:
            tool_input["offset"] = offset
        if limit is not None:
            tool_input["limit"] = limit
        payload = self._envelope(self._tool)
        payload.update(
            tool_name="Read",
            tool_input=tool_input,
            tool_response={
                "type": "text",
                "file": {
                    "filePath": path,
                    "content": "".join(shown),
                    "numLines": len(shown),
                    "startLine": start,
                    "totalLines": len(lines),
                },
            },
            tool_use_id=self._tool_use_id(),
        )
        return encode(payload)

    def edit(
        self, path: str, old: str, new: str, original: str, patch: list[dict]
    ) -> tuple[bytes, bytes]:
        """(``PreToolUse``, ``PostToolUse``) of one Edit of the absolute file ``path``
        replacing ``old`` by ``new``; ``original`` is the file before the edit and
        ``patch`` the tool's ``structuredPatch`` (``[{oldStart, oldLines, newStart,
        newLines, lines}]``)."""
        tool_input = {"file_path": path, "old_string": old, "new_string": new, "replace_all": False}
        pre = self._envelope(self._pre)
        pre.update(tool_name="Edit", tool_input=tool_input, tool_use_id=self._tool_use_id())
        post = self._envelope(self._tool)
        post.update(
            tool_name="Edit",
            tool_input=tool_input,
            tool_response={
                "filePath": path, "oldString": old, "newString": new, "originalFile": original,
                "structuredPatch": patch, "userModified": False, "replaceAll": False,
            },
            tool_use_id=pre["tool_use_id"],
        )  # fmt: skip
        return encode(pre), encode(post)

    def pre_tool(self, tool_name: str, tool_input: dict[str, object]) -> bytes:
        """``PreToolUse`` of one call of ``tool_name`` (a Read's is the no-op that hosts
        without a matcher, Codex and Cline, send for every tool)."""
        pre = self._envelope(self._pre)
        pre.update(tool_name=tool_name, tool_input=tool_input, tool_use_id=self._tool_use_id())
        return encode(pre)

    def write(self, path: str, content: str) -> tuple[bytes, bytes]:
        """(``PreToolUse``, ``PostToolUse``) of a Write creating the absolute file
        ``path`` with ``content``."""
        pre = self._envelope(self._pre)
        pre.update(
            tool_input={"file_path": path, "content": content}, tool_use_id=self._tool_use_id()
        )
        post = self._envelope(self._tool)
        post.update(
            tool_input=pre["tool_input"],
            tool_response={"type": "create", "filePath": path, "content": content,
                           "structuredPatch": [], "originalFile": None, "userModified": False},
            tool_use_id=pre["tool_use_id"],
        )  # fmt: skip
        return encode(pre), encode(post)


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
    return [memory["id"] for memory in memories(context)]


def memories(context: str | None) -> list[dict]:
    """The memories (``{"id", "text", ...}``) of every ``memhooks/memories-v1`` JSON
    object in ``context``, in the order the model reads them."""
    if not context:
        return []
    decoder = json.JSONDecoder()
    out: list[dict] = []
    for match in _SCHEMA_AT.finditer(context):
        try:
            body, _end = decoder.raw_decode(context, match.start())
        except ValueError:
            continue
        for memory in body.get("memories") or ():
            if isinstance(memory, dict) and isinstance(memory.get("id"), str):
                out.append(memory)
    return out


def line_commits(context: str | None) -> list[str]:
    """The commits a line-level delivery in ``context`` names, in the order the model
    reads them: after each ``[memhooks: why these lines ...]`` label, every
    ``<hash> "<subject>"`` of the lines saying which lines a commit explains (``path
    a–b: <hash> "…" (date); before it <hash> "…" (date)``); what a commit said (the
    indented ``<hash> said:`` and ``|`` lines) names none."""
    if not context or WHY_LABEL not in context:
        return []
    out: list[str] = []
    for block in context.split(WHY_LABEL)[1:]:
        for line in block.split("\n")[1:]:
            if line.startswith("{"):
                break  # a memories-v1 delivery follows
            if line and not line[0].isspace() and not line.startswith("["):
                out += [h for h in _NAMED.findall(line) if h not in out]
    return out
