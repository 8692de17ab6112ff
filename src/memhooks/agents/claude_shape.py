"""The Claude-compatible payload that several hosts send (agent-hooks.md sections 1-4, 7).

Claude Code, Codex, Gemini CLI, VS Code Copilot and Kiro all put the event in
``hook_event_name`` (VS Code: ``hookEventName``) next to ``session_id``,
``cwd``, ``transcript_path``, ``prompt``, ``tool_name``, ``tool_input`` and
``tool_response``; they differ in event names, tool names and small extras,
which their own modules pass in.
"""

from __future__ import annotations

from . import base, outcome
from .base import EVENTS, TOOL_TIME_EVENTS, NormalizedEvent
from .fields import first_text, text, wrong, wrong_fields, wrong_kinds
from .paths import clean_dir
from .tools import OTHER, ToolCall, told

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: see base.py
if TYPE_CHECKING:
    from collections.abc import Callable

    #: A host's table of what its tools hold where memhooks reads them: tool name
    #: (lower-cased) -> ``(field, type)`` pairs (:func:`~.fields.wrong_kinds`).
    Kinds = dict[str, tuple[tuple[str, type], ...]]

EVENT_KEYS = ("hook_event_name", "hookEventName")
#: The hook event names of Claude Code that the hosts copying its protocol kept as they
#: are (Codex, Copilot in VS Code); each host's own table adds its other names.
CLAUDE_EVENTS: dict[str, str | None] = {
    "SessionStart": base.SESSION_START,
    "UserPromptSubmit": base.USER_PROMPT,
    "PreToolUse": base.PRE_TOOL,
    "PostToolUse": base.POST_TOOL,
    "PreCompact": base.PRE_COMPACT,
    "Stop": base.STOP,
}
#: The payload's text fields: one that holds anything else (``"cwd": 7``) is malformed
#: (:func:`~.fields.wrong_fields`), never taken as absent.
TEXT_FIELDS = (
    "cwd", "session_id", "sessionId", "transcript_path", "transcriptPath", "tool_name", "toolName",
)  # fmt: skip
#: The payload's session ids: a blank one (``"session_id": ""``) is malformed as a wrong
#: type is — taken as absent, the call was filed under ``anonymous-…`` with nothing said.
ID_FIELDS = ("session_id", "sessionId")


def event_name(payload: dict[str, object], hint: str | None) -> str | None:
    """The payload's own event name, else the caller's hint."""
    return first_text(payload, *EVENT_KEYS) or text(hint)


def named(payload: dict[str, object], events: dict[str, str | None], key: str) -> str | None:
    """``payload[key]`` when it is a string that ``events`` knows (for ``detect``)."""
    value = payload.get(key)
    return value if isinstance(value, str) and value in events else None


def lookup(events: dict[str, str | None], native: str | None) -> str | None:
    """The normalized event for ``native``; a hint that already is one passes through."""
    if native is None:
        return None
    if native in events:
        return events[native]
    return native if native in EVENTS else None


def normalize(
    host: str,
    payload: dict[str, object],
    hint: str | None,
    events: dict[str, str | None],
    tools: dict[str, str],
    *,
    prompt: Callable[[str | None], str | None] = text,
    read: Callable[[object], outcome.Outcome] = outcome.read,
    unnamed: str = OTHER,
    fields: Kinds | None = None,
    responses: Kinds | None = None,
) -> NormalizedEvent:
    """Normalize a Claude-shaped payload with ``host``'s event and tool tables.

    ``prompt`` cleans the prompt text (Gemini strips its own injected context);
    ``read`` parses ``tool_response`` (Codex sends ``Exit code: N`` text);
    ``unnamed`` is the tool kind assumed when no ``tool_name`` is given;
    ``fields``: its tools' input fields and their types, ``responses``: the type of their
    ``tool_response`` (:data:`Kinds`, as ``("tool_response", dict)``); another type there
    is malformed.
    """
    native = event_name(payload, hint)
    event = lookup(events, native)
    cwd = clean_dir(payload.get("cwd"))
    is_tool = event in TOOL_TIME_EVENTS
    call = ToolCall(
        first_text(payload, "tool_name", "toolName") if is_tool else None,
        payload.get("tool_input") if is_tool else None,
        tools,
        cwd,
        unnamed,
    )
    result = read(payload.get("tool_response"))
    tool = call.name.lower() if call.name is not None else ""
    said = told(call, result)
    said["malformed"] = (
        wrong_fields(payload, TEXT_FIELDS)
        or _blank_id(payload)
        or call.problem
        or (wrong_kinds(call.input, fields.get(tool, ()), "the tool's ") if fields else None)
        or (wrong_kinds(payload, responses.get(tool, ()), "its ") if responses else None)
        or (wrong(payload.get("prompt"), "its prompt", required=True) if event == base.USER_PROMPT else None)
    )  # fmt: skip
    success = result.success
    if native is not None and native.endswith("Failure"):
        success = False  # PostToolUseFailure: the tool failed, whatever it printed
    return NormalizedEvent(
        host,
        call.event(event),
        native_event=native,
        cwd=cwd,
        session_id=first_text(payload, "session_id", "sessionId"),
        prompt=prompt(text(payload.get("prompt"))),
        **said,
        success=success,
        error=result.error or outcome.error_text(payload.get("error")),
        response=first_text(payload, "last_assistant_message", "prompt_response"),
        summary=text(payload.get("compact_summary")),
        reason=first_text(payload, "source", "reason", "trigger"),
        transcript_path=first_text(payload, "transcript_path", "transcriptPath"),
        raw=payload,
    )


def _blank_id(payload: dict[str, object]) -> str | None:
    """:func:`~.fields.wrong` of the first of :data:`ID_FIELDS` that is blank text."""
    for key in ID_FIELDS:
        said = wrong(payload.get(key), "its " + key, filled=True)
        if said is not None:
            return said
    return None
