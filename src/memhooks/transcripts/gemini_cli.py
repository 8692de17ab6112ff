"""Gemini CLI's saved chats: ``~/.gemini/tmp/<project>/chats/session-*.jsonl``.

Where: ``~/.gemini/tmp/<project>/chats/`` (``$GEMINI_CLI_HOME`` replaces the home folder),
one file per session (Gemini CLI docs, "Session management":
https://geminicli.com/docs/cli/session-management). ``<project>`` was the SHA-256 of
the project's root folder; Gemini CLI 0.61 names it after the folder
(``~/.gemini/projects.json`` maps one to the other) and writes the root into
``<project>/.project_root``. Both are read. Checked on files Gemini CLI 0.61.0 wrote
(``tests/transcripts/data/gemini-cli``). A resumed session's snapshot writes replies in the
API's shape (tool calls as ``functionCall`` parts of ``content``) and gives a tool
result the id of the reply that called it: messages are keyed by id and type.

0.61 writes JSONL: a header ``{"sessionId", "projectHash", "startTime", "kind"}`` (again
after each resume), then message records ``{"id", "timestamp", "type": "user" |
"gemini" | "info" | "error", "content", "toolCalls"}``; a record with an ``id`` seen
before replaces that message (a reply is written first without, then with its tool
calls), and ``{"$set": {"messages": [...]}}`` replaces them all. Older versions wrote one
JSON document ``{"sessionId", "projectHash", "messages": [...]}`` (``session-*.json``).
User parts that are tool results (``functionResponse``) or Gemini CLI's own
``<session_context>`` are not the user's words.
"""

from __future__ import annotations

import os

from ..agents.gemini_cli import TOOLS
from .lines import Damage, document, records, string, text_of
from .model import ASSISTANT, USER, Message, Transcript
from .tooluse import tool_use

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

NAME = "gemini-cli"
_NOT_SAID = ("<session_context>", "<hook_context>")


def folder(env: Mapping[str, str]) -> str:
    """Gemini CLI's per-project folders."""
    base = env.get("GEMINI_CLI_HOME") or env.get("HOME") or "~"
    return os.path.join(os.path.expanduser(base), ".gemini", "tmp")


def sessions(env: Mapping[str, str]) -> Iterator[str]:
    """Every saved chat Gemini CLI kept, any project."""
    try:
        projects = sorted(os.scandir(folder(env)), key=lambda e: e.name)
    except OSError:
        return
    for project in projects:
        chats = os.path.join(project.path, "chats")
        try:
            names = sorted(os.listdir(chats))
        except OSError:
            continue
        for name in names:
            if name.startswith("session-") and name.endswith((".json", ".jsonl")):
                yield os.path.join(chats, name)


def cwd(path: str) -> str | None:
    """The project root the chat belongs to: ``<project>/.project_root``."""
    marker = os.path.join(os.path.dirname(os.path.dirname(path)), ".project_root")
    try:
        with open(marker, encoding="utf-8") as fp:
            return fp.read(4096).strip() or None
    except (OSError, UnicodeDecodeError):
        return None


def read(path: str, damage: Damage) -> Transcript | None:
    """The chat at ``path``; None when it holds no conversation. Raises OSError."""
    found = Transcript(NAME, os.path.basename(path), path, cwd(path))
    messages: dict[str, dict[str, object]] = {}
    if path.endswith(".json"):
        try:
            whole = document(path)
        except ValueError:
            damage.lines += 1
            return None
        entries = [whole] if isinstance(whole, dict) else []
    else:
        entries = list(records(path, damage))
    for entry in entries:
        found.session = string(entry.get("sessionId")) or found.session
        update = entry.get("$set")
        listed = update.get("messages") if isinstance(update, dict) else entry.get("messages")
        if isinstance(listed, list):
            before, messages = messages, {}
            for message in listed:
                _keep(messages, message, before)
        elif "type" in entry and "id" in entry:
            _keep(messages, entry, messages)
    for message in messages.values():
        _add(found, message)
    return found if any(m.role == USER for m in found.messages) else None


def _keep(
    messages: dict[str, dict[str, object]],
    message: object,
    before: dict[str, dict[str, object]] | None = None,
) -> None:
    """Add or replace ``message`` by its id. A resumed session's snapshot (``$set``) lists
    the replies without their tool calls: those of the same message ``before`` are kept."""
    if not isinstance(message, dict):
        return
    # A resumed session's snapshot gives a tool's result the id of the reply that called it.
    key = f"{message.get('id', len(messages))}\0{message.get('type')}"
    earlier = (before or {}).get(key)
    if earlier is not None and earlier.get("toolCalls") and not message.get("toolCalls"):
        message = {**message, "toolCalls": earlier["toolCalls"]}
    messages[key] = message


def _add(found: Transcript, message: dict[str, object]) -> None:
    at = string(message.get("timestamp"))
    text = text_of(message.get("content")).strip()
    if message.get("type") == USER:
        if text and not text.startswith(_NOT_SAID):
            found.messages.append(Message(USER, text, at))
    elif message.get("type") == "gemini":
        reply = Message(ASSISTANT, text, at)
        calls = message.get("toolCalls")
        if not (isinstance(calls, list) and calls):
            content = message.get("content")
            parts = content if isinstance(content, list) else []
            calls = [p.get("functionCall") for p in parts if isinstance(p, dict)]
        for call in calls:
            if isinstance(call, dict):
                reply.tools.append(tool_use(call.get("name"), call.get("args"), TOOLS))
        if reply.text or reply.tools:
            found.messages.append(reply)
