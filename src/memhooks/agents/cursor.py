"""Cursor agent hooks (cursor.com/docs/hooks): snake_case stdin, camelCase event names.

Every payload carries ``conversation_id``, ``generation_id``, ``cursor_version``
and ``workspace_roots``; tool events add ``cwd``, other events do not, so the
first workspace root stands in. ``afterFileEdit`` names its file in ``file_path``
(``edits[]`` hold only old/new strings); ``postToolUse`` has ``tool_name``,
``tool_input`` and ``tool_output`` (a JSON string); shell events have ``command``.
Prompt ``attachments[].file_path`` are reported as ``read`` (the files the user
pointed at). Tab-completion events are ignored: they are not the agent's work.
No real capture yet (fixtures ``docs/cursor-*`` and ``memorix-derived/cursor-*``).
"""

from __future__ import annotations

from . import base, claude_shape, outcome
from .base import READ, WRITTEN, FileChange, NormalizedEvent
from .delivery import SNAKE, Delivery
from .fields import MAX_ITEMS, first_text, strings, text, wrong, wrong_fields
from .paths import clean_dir
from .tools import COMMAND, DELETE, EDIT, OTHER, READ_KIND, SEARCH, ToolCall, add, unique

NAME = "cursor"

EVENTS: dict[str, str | None] = {
    "sessionStart": base.SESSION_START,
    "beforeSubmitPrompt": base.USER_PROMPT,
    "preToolUse": base.PRE_TOOL,
    "postToolUse": base.POST_TOOL,
    "postToolUseFailure": base.POST_TOOL,
    "beforeShellExecution": base.PRE_TOOL,
    "afterShellExecution": base.POST_COMMAND,
    "beforeMCPExecution": base.PRE_TOOL,
    "afterMCPExecution": base.POST_TOOL,
    "beforeReadFile": base.PRE_TOOL,
    "afterFileEdit": base.POST_EDIT,
    "preCompact": base.PRE_COMPACT,
    "stop": base.STOP,
    "sessionEnd": base.SESSION_END,
    "subagentStart": None,
    "subagentStop": None,
    "afterAgentResponse": None,
    "afterAgentThought": None,
    "beforeTabFileRead": None,
    "afterTabFileEdit": None,
    "workspaceOpen": None,
}

DELIVERY = Delivery(
    SNAKE,
    ("sessionStart",),  # beforeSubmitPrompt can only allow or block
    ("postToolUse",),
    noop="{}",
    prompt_channel="sessionStart additional_context (once per session; beforeSubmitPrompt cannot inject)",
    tool_channel="postToolUse additional_context",
)
PROJECT_VARS: tuple[str, ...] = ("CURSOR_PROJECT_DIR", "CLAUDE_PROJECT_DIR")

TOOLS = {
    "shell": COMMAND,
    "read": READ_KIND,
    "write": EDIT,
    "delete": DELETE,
    "grep": SEARCH,
    "task": OTHER,
}

#: The payload's text fields (:func:`~.fields.wrong_fields`).
TEXT_FIELDS = ("cwd", "session_id", "conversation_id", "transcript_path", "tool_name", "file_path")

_MARKERS = ("conversation_id", "cursor_version", "generation_id", "workspace_roots")


def detect(payload: dict[str, object]) -> bool:
    if claude_shape.named(payload, EVENTS, "hook_event_name") is None:
        return False
    return any(key in payload for key in _MARKERS)


def normalize(payload: dict[str, object], native_event: str | None) -> NormalizedEvent:
    native = claude_shape.event_name(payload, native_event)
    event = claude_shape.lookup(EVENTS, native)
    roots = [r for r in map(clean_dir, strings(payload.get("workspace_roots"))) if r]
    cwd = clean_dir(payload.get("cwd")) or (roots[0] if roots else None)
    call = ToolCall(payload.get("tool_name"), payload.get("tool_input"), TOOLS, cwd)
    files = call.files
    command = call.command or text(payload.get("command"))
    if native in ("afterFileEdit", "beforeReadFile"):
        files = []
        add(files, payload.get("file_path"), WRITTEN if native == "afterFileEdit" else READ, cwd)
    elif native == "beforeSubmitPrompt":
        files = attachments(payload.get("attachments"), cwd)
    if native in ("beforeShellExecution", "afterShellExecution"):
        result = outcome.read(payload)  # ``output`` sits at the top level here
    else:
        result = outcome.read(payload.get("tool_output") or payload.get("result_json"))
    return NormalizedEvent(
        NAME,
        call.event(event),
        native_event=native,
        cwd=cwd,
        session_id=first_text(payload, "session_id", "conversation_id"),
        prompt=text(payload.get("prompt")),
        tool_name=call.name,
        tool_input=call.input,
        files=unique(files),
        command=command if event in (base.PRE_TOOL, base.POST_TOOL, base.POST_COMMAND) else None,
        exit_code=result.exit_code,
        success=False if native == "postToolUseFailure" else result.success,
        output=result.output,
        error=result.error or outcome.error_text(payload.get("error")),
        reason=first_text(payload, "trigger", "reason", "status"),
        workspace_roots=roots,
        transcript_path=text(payload.get("transcript_path")),
        raw=payload,
        malformed=wrong_fields(payload, TEXT_FIELDS)
        or call.problem
        or (
            wrong(payload.get("prompt"), "its prompt", required=True)
            if event == base.USER_PROMPT
            else None
        ),
    )


def attachments(value: object, cwd: str | None) -> list[FileChange]:
    """``beforeSubmitPrompt`` attachments that are files, as ``read``."""
    found: list[FileChange] = []
    for item in value[:MAX_ITEMS] if isinstance(value, list) else ():
        if isinstance(item, dict):
            add(found, item.get("file_path"), READ, cwd)
    return found


# Install side: how `memhooks agents install` wires this host (keys: ``wiring.py``).
# A dict literal, so the hook, which imports this module on every call, pays nothing for it.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .wiring import Wiring

INSTALL: Wiring = {
    "title": "Cursor",
    # packaged as a plugin too (memhooks.install.plugins): the manifest follows Cursor's
    # published schema (cursor/plugins schemas/plugin.schema.json); plugin hooks find
    # their folder in $CURSOR_PLUGIN_ROOT; installed ones live in ~/.cursor/plugins/
    "plugin": {
        "kind": "cursor-plugin",
        "manifest": ".cursor-plugin/plugin.json",
        "hooks": "hooks/hooks.json",
        "root_var": "CURSOR_PLUGIN_ROOT",
        "mcp_file": "mcp.json",
        "remove": "Cursor's Customize page (Plugins)",
    },
    "project": ".cursor/hooks.json",
    "user": ".cursor/hooks.json",
    # postToolUse carries context for the tool just run; edits keep afterFileEdit (the
    # documented place of the written file), so a Write is not handled twice
    "events": (
        ("sessionStart", None),
        ("postToolUse", "Read|Grep"),
        ("afterFileEdit", None),
        ("preCompact", None),  # compaction: the session's ledger starts over
    ),
    "capture": (
        ("afterShellExecution", None),
        ("postToolUseFailure", None),
        ("stop", None),
        ("sessionEnd", None),
    ),
    "hook": {"command": "$COMMAND", "timeout": 10},
    "skeleton": {"version": 1, "hooks": {}},
    "launch": "workspace",
    "reads": ("claude-code",),  # with its third-party hooks setting on
    # user-level commands run in ~/.cursor: the hook takes the folder from the payload
    "user_notes": ("Cursor's cloud and background agents run project-level hooks only",),
    "mcp": (".cursor/mcp.json", ".cursor/mcp.json", "mcpServers", {"command": None, "args": None}),
    "skills": (".cursor/skills", ".cursor/skills"),
    "programs": ("cursor", "cursor-agent"),
    "dirs": (".cursor",),
    "source": "https://cursor.com/docs/hooks (not run here)",
}
