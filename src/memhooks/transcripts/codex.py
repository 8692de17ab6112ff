"""Codex's session files ("rollouts"): ``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``.

Where: ``$CODEX_HOME/sessions`` when set, else ``~/.codex/sessions``, and the
``archived_sessions`` folder beside it; one JSONL file per session, appended to when the
session is resumed (``codex resume``, ``codex exec resume``). Checked on files Codex
0.171.0 wrote (``tests/transcripts/data/codex``).

Each line is ``{"timestamp", "type", "payload"}``. ``session_meta``'s payload has the
session ``id`` and ``cwd``; ``turn_context`` repeats the ``cwd``. ``response_item``
payloads are what the model saw: ``message`` (``role`` ``user``/``assistant``/
``developer``, ``content`` parts ``input_text``/``output_text``), ``function_call``
(``name``, ``arguments`` as a JSON string), ``custom_tool_call`` (``apply_patch`` with
its patch as ``input``), ``local_shell_call`` (``action.command``), and their outputs.
``event_msg`` records repeat the same for the terminal and are not read. Developer
messages (instructions, hook context) and the user messages Codex writes itself
(``<environment_context>``, ``<user_instructions>``, AGENTS.md) are not the user's words.
"""

from __future__ import annotations

import os

from ..agents.codex import TOOLS
from .lines import Damage, first_record, records, string, text_of
from .model import ASSISTANT, USER, Message, Transcript
from .tooluse import tool_use

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

NAME = "codex"
_NOT_SAID = (
    "<environment_context>",
    "<user_instructions>",
    "<turn_aborted>",
    "<user_shell_command>",
    "# AGENTS.md instructions",
)
_CALLS = frozenset({"function_call", "custom_tool_call", "local_shell_call"})


def folder(env: Mapping[str, str]) -> str:
    """Codex's home folder."""
    return os.path.expanduser(
        env.get("CODEX_HOME") or os.path.join(env.get("HOME") or "~", ".codex")
    )


def sessions(env: Mapping[str, str]) -> Iterator[str]:
    """Every rollout file Codex kept, archived ones included, oldest folder first."""
    for sub in ("sessions", "archived_sessions"):
        top = os.path.join(folder(env), sub)
        for where, dirs, files in os.walk(top):
            dirs.sort()
            for name in sorted(files):
                if name.startswith("rollout-") and name.endswith(".jsonl"):
                    yield os.path.join(where, name)


def cwd(path: str) -> str | None:
    """The folder the session ran in, from its first line (``session_meta``)."""
    first = first_record(path)
    payload = first.get("payload") if first else None
    return string(payload.get("cwd")) if isinstance(payload, dict) else None


def read(path: str, damage: Damage) -> Transcript | None:
    """The session at ``path``; None when it holds no conversation. Raises OSError."""
    found = Transcript(NAME, _id_of(path), path, None)
    for record in records(path, damage):
        payload = record.get("payload")
        if not isinstance(payload, dict):
            continue
        kind = record.get("type")
        at = string(record.get("timestamp"))
        if kind in ("session_meta", "turn_context"):
            found.cwd = found.cwd or string(payload.get("cwd"))
            if kind == "session_meta":
                found.session = string(payload.get("id")) or found.session
        elif kind == "response_item":
            _item(found, payload, at)
    return found if any(m.role == USER for m in found.messages) else None


def _item(found: Transcript, payload: dict[str, object], at: str | None) -> None:
    kind = payload.get("type")
    if kind == "message":
        role = payload.get("role")
        text = text_of(payload.get("content")).strip()
        if role == USER and text and not text.startswith(_NOT_SAID):
            found.messages.append(Message(USER, text, at))
        elif role == ASSISTANT and text:
            _assistant(found, at).text += ("\n\n" if found.messages[-1].text else "") + text
    elif kind in _CALLS:
        if kind == "local_shell_call":
            action = payload.get("action")
            command = action.get("command") if isinstance(action, dict) else None
            use = tool_use("local_shell", {"command": command}, TOOLS)
        else:
            arguments = payload.get("arguments", payload.get("input"))
            use = tool_use(payload.get("name"), arguments, TOOLS)
        _assistant(found, at).tools.append(use)


def _assistant(found: Transcript, at: str | None) -> Message:
    """The assistant message being written: the last one, or a new one after the user's."""
    if not found.messages or found.messages[-1].role != ASSISTANT:
        found.messages.append(Message(ASSISTANT, "", at))
    return found.messages[-1]


def _id_of(path: str) -> str:
    # rollout-2026-12-01T21-43-22-<uuid>.jsonl: the uuid is the last 36 characters.
    stem = os.path.splitext(os.path.basename(path))[0]
    return stem[-36:] if len(stem) > 36 else stem
