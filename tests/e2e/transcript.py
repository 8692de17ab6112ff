"""Where hook context reached the model, read from one model request of a real agent.

A model request carries the whole conversation so far. :func:`read` turns the last one
into a :class:`Transcript`: the tool calls in order (``"Read billing/invoice.py"``: tool
name and root-relative path), and each piece of hook context the host put into the
conversation, attached to what it followed — ``"prompt"`` (prompt time, before any tool
call) or the tool call whose result it rides on (``"Read a.py + Read b.py"``, in call
order, when the host put the context of parallel calls after all their results, as Claude
Code does: it orders the results as the calls finish). Only the host's own hook channel
counts as hook context (``shared/spec/real-agents.md``, verified with a recording hook on
the read tools):

=========== =================== ===========================================================
host        request             hook context
=========== =================== ===========================================================
claude-code Anthropic messages  prompt: ``UserPromptSubmit hook additional context:`` in the
                                mid-conversation ``system`` message (or a
                                ``<system-reminder>`` of the first user message); tool: a
                                ``<system-reminder>`` text block ``PostToolUse:<Tool> hook
                                additional context:`` right after the ``tool_result``
codex       OpenAI Responses    a ``developer`` message of its own: before the first call
                                (prompt), or between a call and its output (tool)
gemini-cli  Gemini contents     ``<hook_context>…</hook_context>``: a part of the user turn
                                (prompt), or appended to the ``functionResponse``'s
                                ``response.output`` (tool)
copilot-cli OpenAI chat         ``<system_reminder>`` appended to the prompt (prompt);
                                after ``Additional guidance from postToolUse hooks:`` in
                                the ``tool`` message (tool)
opencode    OpenAI chat         memhooks' own plugin: a text part of the user message
                                (prompt), appended to the ``tool`` message (tool); both
                                start with memhooks' ``[MemHooks`` label
=========== =================== ===========================================================

Text found anywhere else is reported as ``unattributed`` with its JSON path, so an
assertion on :meth:`Transcript.arrivals` names where a memory arrived, not only whether.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

PROMPT = "prompt"
UNATTRIBUTED = "unattributed"


@dataclass
class Context:
    """One piece of hook context: ``after`` is PROMPT or a call label; ``channel`` says
    how the host carried it (``"<system-reminder> after the tool_result"``); ``path`` is
    the JSON path of the string holding it (as ``fake_llm.locate`` names it); ``text`` the
    context alone (the tool's own output or the prompt around it cut off)."""

    after: str
    channel: str
    path: str
    text: str


@dataclass(frozen=True)
class Arrival:
    """One occurrence of a text in a request: what it followed, through which channel
    (UNATTRIBUTED for both when it is not in hook context), and its JSON path."""

    after: str
    channel: str
    path: str


@dataclass
class Transcript:
    calls: list[str] = field(default_factory=list)
    contexts: list[Context] = field(default_factory=list)
    body: object = None

    def after(self, label: str) -> list[Context]:
        """The hook context attached to ``label`` (PROMPT or a call label)."""
        return [c for c in self.contexts if c.after == label]

    def arrivals(self, needle: str) -> list[Arrival]:
        """Every occurrence of ``needle`` in the request, in order: in hook context, or
        UNATTRIBUTED anywhere else (a tool's output, the prompt, the system prompt...)."""
        from fake_llm import locate

        found: list[Arrival] = []
        for path in dict.fromkeys(locate(self.body, needle, "body")):
            inside = 0
            for context in self.contexts:
                if context.path == path and needle in context.text:
                    count = context.text.count(needle)
                    found += [Arrival(context.after, context.channel, path)] * count
                    inside += count
            loose = _at(self.body, path).count(needle) - inside
            found += [Arrival(UNATTRIBUTED, UNATTRIBUTED, path)] * loose
        return found

    def excerpt(self, needle: str, width: int = 240) -> str:
        """Each string holding ``needle``, cut around it (for failure messages)."""
        from fake_llm import locate

        lines = []
        for path in dict.fromkeys(locate(self.body, needle, "body")):
            string = _at(self.body, path)
            at = string.find(needle)
            lines.append(f"{path}: …{string[max(0, at - width) : at + width]!r}…")
        return "\n".join(lines) or f"{needle} is nowhere in the request"


def read(host: str, body: dict, root: Path) -> Transcript:
    """The transcript of ``body`` (one model request of ``host``) for a project at ``root``."""
    transcript = Transcript(body=body)
    READERS[host](body, _Paths(root), transcript)
    return transcript


class _Paths:
    def __init__(self, root: Path) -> None:
        self.root = root.resolve()

    def rel(self, path: str | None) -> str:
        if not path:
            return "?"
        full = Path(path) if Path(path).is_absolute() else self.root / path
        try:
            return full.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return path

    def in_command(self, command: str) -> str:
        """The first word of a shell command naming a file inside the root."""
        for word in shlex.split(command):
            candidate = Path(word) if Path(word).is_absolute() else self.root / word
            if not word.startswith("-") and candidate.is_file():
                return self.rel(word)
        return "?"


def _at(body: object, path: str) -> str:
    value = body
    for key, index in re.findall(r"\.([^.\[\]]+)|\[(\d+)\]", path[len("body") :]):
        value = value[int(index)] if index else value[key]  # type: ignore[index]
    return value  # type: ignore[return-value]


CLAUDE_TOOL = "<system-reminder> after the tool_result"
PROMPT_LABEL = "UserPromptSubmit hook additional context:"


def _claude(body: dict, paths: _Paths, t: Transcript) -> None:
    calls: dict[str, str] = {}
    for i, message in enumerate(body.get("messages") or []):
        content = message.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
        results: list[str] = []  # parallel calls: all results first, then every call's reminder
        for j, block in enumerate(blocks):
            where = f"body.messages[{i}].content" + (
                "" if isinstance(content, str) else f"[{j}].text"
            )
            kind = block.get("type")
            if kind == "tool_use":
                inputs = block.get("input") or {}
                label = (
                    f"{block['name']} {paths.rel(inputs.get('file_path') or inputs.get('path'))}"
                )
                calls[block["id"]] = label
                t.calls.append(label)
            elif kind == "tool_result":
                results.append(calls.get(block.get("tool_use_id"), "?"))
            elif kind == "text":
                text = block.get("text") or ""
                tool = re.match(
                    r"<system-reminder>\n(?:Pre|Post)ToolUse:\w+ hook additional context: (.*)</system-reminder>",
                    text,
                    re.DOTALL,
                )
                if results and tool:
                    batch = " + ".join(
                        sorted(results, key=t.calls.index)
                    )  # call order, not completion order
                    t.contexts.append(Context(batch, CLAUDE_TOOL, where, tool.group(1)))
                elif not t.calls and PROMPT_LABEL in text:
                    channel = (
                        "system message"
                        if message.get("role") == "system"
                        else "<system-reminder> in the user message"
                    )
                    t.contexts.append(
                        Context(PROMPT, channel, where, text.split(PROMPT_LABEL, 1)[1])
                    )


CODEX_TOOL = "developer message between the call and its output"


def _codex(body: dict, paths: _Paths, t: Transcript) -> None:
    calls: dict[str, str] = {}
    last: str | None = None
    pending: set[str] = set()
    prompted = False  # Codex's own developer instructions come before the user's messages
    for i, item in enumerate(body.get("input") or []):
        kind = item.get("type")
        if kind == "message" and item.get("role") == "user":
            prompted = True
        elif str(kind).endswith("_call_output"):
            pending.discard(item.get("call_id"))
        elif kind in ("function_call", "custom_tool_call"):
            if kind == "custom_tool_call":
                patched = re.search(
                    r"\*\*\* (?:Add|Update|Delete) File: (.+)", item.get("input") or ""
                )
                target = paths.rel(patched.group(1).strip()) if patched else "?"
            else:
                args = json.loads(item.get("arguments") or "{}")
                target = paths.in_command(args.get("cmd") or args.get("command") or "")
            last = calls[item["call_id"]] = f"{item['name']} {target}"
            pending.add(item["call_id"])
            t.calls.append(last)
        elif kind == "message" and item.get("role") == "developer" and prompted:
            if last is None:
                channel = "developer message after the prompt"
            else:
                channel = CODEX_TOOL if pending else "developer message after the call's output"
            for j, part in enumerate(item.get("content") or []):
                t.contexts.append(
                    Context(
                        last or PROMPT,
                        channel,
                        f"body.input[{i}].content[{j}].text",
                        part.get("text") or "",
                    )
                )


GEMINI_TOOL = "<hook_context> appended to functionResponse.response.output"


def _gemini(body: dict, paths: _Paths, t: Transcript) -> None:
    calls: dict[str, str] = {}
    for i, content in enumerate(body.get("contents") or []):
        for j, part in enumerate(content.get("parts") or []):
            if "functionCall" in part:
                call = part["functionCall"]
                args = call.get("args") or {}
                label = f"{call['name']} {paths.rel(args.get('file_path') or args.get('absolute_path'))}"
                calls[call.get("id") or label] = label
                t.calls.append(label)
            elif "functionResponse" in part:
                response = part["functionResponse"]
                output = (response.get("response") or {}).get("output") or ""
                where = f"body.contents[{i}].parts[{j}].functionResponse.response.output"
                after = calls.get(response.get("id"), t.calls[-1] if t.calls else "?")
                for hook in re.findall(r"<hook_context>(.*?)</hook_context>", output, re.DOTALL):
                    t.contexts.append(Context(after, GEMINI_TOOL, where, hook))
            elif content.get("role") == "user" and not t.calls:
                for hook in re.findall(
                    r"<hook_context>(.*?)</hook_context>", part.get("text") or "", re.DOTALL
                ):
                    channel = "<hook_context> part of the user turn"
                    t.contexts.append(
                        Context(PROMPT, channel, f"body.contents[{i}].parts[{j}].text", hook)
                    )


GUIDANCE = "Additional guidance from postToolUse hooks:\n"
COPILOT_TOOL = "tool message, after 'Additional guidance from postToolUse hooks:'"


def _copilot(body: dict, paths: _Paths, t: Transcript) -> None:
    calls: dict[str, str] = {}
    for i, message in enumerate(body.get("messages") or []):
        where = f"body.messages[{i}].content"
        text = message.get("content") if isinstance(message.get("content"), str) else ""
        if message.get("role") == "assistant":
            for call in message.get("tool_calls") or []:
                args = json.loads(call["function"].get("arguments") or "{}")
                label = f"{call['function']['name']} {paths.rel(args.get('path'))}"
                calls[call["id"]] = label
                t.calls.append(label)
        elif message.get("role") == "tool" and GUIDANCE in text:
            after = calls.get(message.get("tool_call_id"), "?")
            t.contexts.append(Context(after, COPILOT_TOOL, where, text.split(GUIDANCE, 1)[1]))
        elif message.get("role") == "user" and not t.calls:
            for hook in re.findall(r"<system_reminder>(.*?)</system_reminder>", text, re.DOTALL):
                t.contexts.append(
                    Context(PROMPT, "<system_reminder> in the prompt message", where, hook)
                )


OPENCODE_TOOL = "appended to the tool message"
LABEL = "[MemHooks"
#: The label of line-level recall's text (memhooks.recall.why_text.LABEL's start).
LINES_LABEL = "[memhooks: why these lines"


def _labelled(content: str) -> int:
    """Where memhooks' text starts in ``content`` (either label), or -1."""
    found = [at for at in (content.find(LABEL), content.find(LINES_LABEL)) if at >= 0]
    return min(found) if found else -1


def _opencode(body: dict, paths: _Paths, t: Transcript) -> None:
    calls: dict[str, str] = {}
    for i, message in enumerate(body.get("messages") or []):
        content = message.get("content")
        if message.get("role") == "assistant":
            for call in message.get("tool_calls") or []:
                args = json.loads(call["function"].get("arguments") or "{}")
                label = f"{call['function']['name']} {paths.rel(args.get('filePath'))}"
                calls[call["id"]] = label
                t.calls.append(label)
        elif message.get("role") == "tool" and isinstance(content, str) and _labelled(content) >= 0:
            after = calls.get(message.get("tool_call_id"), "?")
            t.contexts.append(
                Context(
                    after,
                    OPENCODE_TOOL,
                    f"body.messages[{i}].content",
                    content[_labelled(content) :],
                )
            )
        elif message.get("role") == "user" and isinstance(content, list) and not t.calls:
            for j, part in enumerate(content[1:], 1):  # the first part is the prompt itself
                if LABEL in (part.get("text") or ""):
                    t.contexts.append(
                        Context(
                            PROMPT,
                            "text part of the user message",
                            f"body.messages[{i}].content[{j}].text",
                            part["text"],
                        )
                    )


READERS = {
    "claude-code": _claude,
    "codex": _codex,
    "gemini-cli": _gemini,
    "copilot-cli": _copilot,
    "opencode": _opencode,
}
#: host -> the channel its tool-time hook context arrives through
TOOL_CHANNEL = {
    "claude-code": CLAUDE_TOOL,
    "codex": CODEX_TOOL,
    "gemini-cli": GEMINI_TOOL,
    "copilot-cli": COPILOT_TOOL,
    "opencode": OPENCODE_TOOL,
}
