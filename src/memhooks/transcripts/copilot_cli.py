"""GitHub Copilot CLI's session state: ``~/.copilot/session-state/<session id>/events.jsonl``.

Where: ``$COPILOT_HOME`` when set, else ``~/.copilot`` (``copilot help environment``);
one folder per session with its event log, appended to when the session is resumed.
The event format is not documented; this reader was checked on files Copilot CLI
1.0.102 wrote (``tests/transcripts/data/copilot-cli``).

Each line is ``{"type", "data", "id", "timestamp", "parentId"}``: ``session.start``
(``data.context.cwd``, ``gitRoot``; ``data.sessionId``), ``session.resume``,
``user.message`` (``data.content``: what the user typed; ``transformedContent`` adds
Copilot's own preamble and is not read), ``assistant.message`` (``data.content``,
``data.toolRequests`` ``[{name, arguments}]``), ``tool.execution_*`` and bookkeeping.
"""

from __future__ import annotations

import os

from ..agents.copilot_cli import TOOLS
from .lines import Damage, first_record, records, string
from .model import ASSISTANT, USER, Message, Transcript
from .tooluse import tool_use

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

NAME = "copilot-cli"


def folder(env: Mapping[str, str]) -> str:
    """Copilot CLI's session-state folder."""
    base = env.get("COPILOT_HOME") or os.path.join(env.get("HOME") or "~", ".copilot")
    return os.path.join(os.path.expanduser(base), "session-state")


def sessions(env: Mapping[str, str]) -> Iterator[str]:
    """Every session event log Copilot CLI kept, any project."""
    try:
        entries = sorted(os.scandir(folder(env)), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        path = os.path.join(entry.path, "events.jsonl")
        if entry.is_dir(follow_symlinks=False) and os.path.isfile(path):
            yield path


def cwd(path: str) -> str | None:
    """The folder the session ran in, from its first event (``session.start``)."""
    first = first_record(path)
    data = first.get("data") if first else None
    context = data.get("context") if isinstance(data, dict) else None
    return string(context.get("cwd")) if isinstance(context, dict) else None


def read(path: str, damage: Damage) -> Transcript | None:
    """The session at ``path``; None when it holds no conversation. Raises OSError."""
    session = os.path.basename(os.path.dirname(path))
    found = Transcript(NAME, session, path, None)
    for record in records(path, damage):
        data = record.get("data")
        if not isinstance(data, dict):
            continue
        kind = record.get("type")
        at = string(record.get("timestamp"))
        if kind in ("session.start", "session.resume"):
            context = data.get("context")
            if isinstance(context, dict):
                found.cwd = found.cwd or string(context.get("cwd"))
            found.session = string(data.get("sessionId")) or found.session
        elif kind == "user.message":
            text = string(data.get("content"))
            if text:
                found.messages.append(Message(USER, text.strip(), at))
        elif kind == "assistant.message":
            reply = Message(ASSISTANT, (string(data.get("content")) or "").strip(), at)
            for request in data.get("toolRequests") or ():
                if isinstance(request, dict):
                    use = tool_use(request.get("name"), request.get("arguments"), TOOLS)
                    reply.tools.append(use)
            if reply.text or reply.tools:
                found.messages.append(reply)
    return found if any(m.role == USER for m in found.messages) else None
