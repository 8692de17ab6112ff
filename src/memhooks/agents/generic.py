"""Any host that speaks memhooks' own vocabulary, or a Claude-compatible one we do not know.

Detected only when the event name (``hook_event_name``, ``hookEventName`` or
``event``) is itself a normalized event (``post_edit``, ``user_prompt``, ...).
With ``--agent generic`` Claude's event names are understood too, so any
Claude-compatible host (CodeBuddy, ...) can be wired up without an adapter.

Fields read: ``cwd``, ``session_id``/``sessionId``, ``prompt``, ``tool_name``,
``tool_input``, ``tool_response``, ``transcript_path``, ``workspace_roots`` and,
top level, ``files`` (paths, or ``{"path", "action", "old_path"}`` objects),
``command``, ``exit_code``, ``success``, ``output``, ``error``, ``response``,
``summary``. A bare path in ``files`` is ``written`` for ``post_edit`` and
``read`` otherwise; so are the paths of a ``tool_input`` that names no tool.
"""

from __future__ import annotations

from . import claude_shape
from .base import ACTIONS, POST_EDIT, READ, RENAMED, WRITTEN, FileChange, NormalizedEvent
from .base import EVENTS as NORMALIZED
from .claude_code import EVENTS as CLAUDE_EVENTS
from .claude_code import TOOLS
from .delivery import HOOK_SPECIFIC, Delivery
from .fields import boolean, first_text, integer, strings, text
from .paths import clean_dir, clean_path
from .tools import READ_KIND, unique

NAME = "generic"

EVENTS: dict[str, str | None] = {**CLAUDE_EVENTS, **{name: name for name in NORMALIZED}}

DELIVERY = Delivery(
    HOOK_SPECIFIC,
    ("SessionStart", "UserPromptSubmit", "session_start", "user_prompt"),
    ("PostToolUse", "post_tool", "post_edit", "post_command"),
    prompt_channel="hookSpecificOutput.additionalContext on prompt events",
    tool_channel="hookSpecificOutput.additionalContext on tool events",
)
PROJECT_VARS: tuple[str, ...] = ()
EVENT_KEYS = ("hook_event_name", "hookEventName", "event")


def detect(payload: dict[str, object]) -> bool:
    return first_text(payload, *EVENT_KEYS) in NORMALIZED


def normalize(payload: dict[str, object], native_event: str | None) -> NormalizedEvent:
    hint = first_text(payload, *EVENT_KEYS) or native_event
    event = claude_shape.normalize(NAME, payload, hint, EVENTS, TOOLS, unnamed=READ_KIND)
    if event.event is None:
        return event
    default = WRITTEN if event.event == POST_EDIT else READ
    event.files = unique(event.files + listed_files(payload.get("files"), default, event.cwd))
    event.workspace_roots = [
        r for r in map(clean_dir, strings(payload.get("workspace_roots"))) if r
    ]
    event.command = event.command or text(payload.get("command"))
    explicit_exit = integer(payload.get("exit_code"))
    event.exit_code = explicit_exit if explicit_exit is not None else event.exit_code
    explicit_success = boolean(payload.get("success"))
    event.success = explicit_success if explicit_success is not None else event.success
    event.output = event.output or text(payload.get("output"))
    event.error = event.error or text(payload.get("error"))
    event.response = event.response or text(payload.get("response"))
    event.summary = event.summary or text(payload.get("summary"))
    return event


def listed_files(value: object, default: str, cwd: str | None) -> list[FileChange]:
    """``files``: path strings (``default`` action) or ``{"path","action","old_path"}``."""
    found: list[FileChange] = []
    for item in value[:1024] if isinstance(value, list) else strings(value):
        if isinstance(item, dict):
            action = item.get("action", default)
            path = clean_path(item.get("path"), cwd)
            old = clean_path(item.get("old_path"), cwd)
            if path is None or action not in ACTIONS or (action == RENAMED) != (old is not None):
                continue
            found.append(FileChange(path, str(action), old))
        else:
            path = clean_path(item, cwd)
            if path is not None:
                found.append(FileChange(path, default))
    return found
