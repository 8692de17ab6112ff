"""Windsurf / Devin Cascade hooks (docs.windsurf.com/windsurf/cascade/hooks).

The event is ``agent_action_name``; everything else sits in ``tool_info``:
``file_path`` for read/write events (a read may name a directory: the consumer
checks), ``command_line`` and ``cwd`` for commands, ``user_prompt``, ``response``,
and the MCP call for ``*_mcp_tool_use``. The conversation id is ``trajectory_id``.
There is no session-start or compaction event, and only run events carry a cwd,
so relative paths elsewhere stay relative.
No real capture yet (fixtures ``docs/windsurf-*`` and ``memorix-derived/windsurf-*``).
"""

from __future__ import annotations

from . import base, outcome
from .base import READ, WRITTEN, FileChange, NormalizedEvent
from .delivery import Delivery
from .fields import child, first_text, mapping, text, wrong, wrong_fields
from .paths import clean_dir
from .tools import add

NAME = "windsurf"

EVENTS: dict[str, str | None] = {
    "pre_user_prompt": base.USER_PROMPT,
    "pre_read_code": base.PRE_TOOL,
    "post_read_code": base.POST_TOOL,
    "pre_write_code": base.PRE_TOOL,
    "post_write_code": base.POST_EDIT,
    "pre_run_command": base.PRE_TOOL,
    "post_run_command": base.POST_COMMAND,
    "pre_mcp_tool_use": base.PRE_TOOL,
    "post_mcp_tool_use": base.POST_TOOL,
    "post_cascade_response": base.STOP,
    "post_cascade_response_with_transcript": base.STOP,
    "post_setup_worktree": None,
}

#: No documented model-visible hook output: stdout reaches the user only.
DELIVERY = Delivery(None)
PROJECT_VARS: tuple[str, ...] = ()
#: ``tool_info``'s text fields (:func:`~.fields.wrong_fields`).
INFO_TEXT = ("cwd", "file_path", "command_line", "mcp_tool_name")


def detect(payload: dict[str, object]) -> bool:
    return isinstance(payload.get("agent_action_name"), str)


def normalize(payload: dict[str, object], native_event: str | None) -> NormalizedEvent:
    native = text(payload.get("agent_action_name")) or text(native_event)
    event = EVENTS.get(native) if native is not None else None
    info = child(payload, "tool_info") or {}
    cwd = clean_dir(info.get("cwd"))
    files: list[FileChange] = []
    if native is not None and native.endswith(("_read_code", "_write_code")):
        add(files, info.get("file_path"), READ if "read" in native else WRITTEN, cwd)
    is_command = native in ("pre_run_command", "post_run_command")
    if is_command:
        result = outcome.Outcome(output=text(info.get("output")))
    else:
        result = outcome.read(info.get("mcp_result"))
    return NormalizedEvent(
        NAME,
        event,
        native_event=native,
        cwd=cwd,
        session_id=text(payload.get("trajectory_id")),
        prompt=text(info.get("user_prompt")),
        tool_name=text(info.get("mcp_tool_name")),
        tool_input=mapping(info.get("mcp_tool_arguments")),
        files=files,
        command=first_text(info, "command_line") if is_command else None,
        exit_code=result.exit_code,
        success=result.success,
        output=result.output,
        error=outcome.error_text(info.get("error")),
        response=text(info.get("response")),
        raw=payload,
        malformed=wrong_fields(payload, ("trajectory_id",))
        or wrong_fields(info, INFO_TEXT, "its tool_info.")
        or (
            wrong(info.get("user_prompt"), "its tool_info.user_prompt", required=True)
            if event == base.USER_PROMPT
            else None
        ),
    )


# Install side: how `memhooks agents install` wires this host (keys: ``wiring.py``).
# A dict literal, so the hook, which imports this module on every call, pays nothing for it.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .wiring import Wiring

INSTALL: Wiring = {
    "title": "Windsurf",
    "project": ".windsurf/hooks.json",
    "user": ".codeium/windsurf/hooks.json",
    # no hook output reaches the model here: edits only, for hook maintenance
    "events": (("post_write_code", None),),
    "without_tool_channel": "Windsurf hooks cannot add context for the model at all (maintenance only)",
    "capture": (("post_run_command", None), ("post_cascade_response", None)),
    "hook": {"command": "$COMMAND", "show_output": False},
    "skeleton": {"hooks": {}},
    "launch": "workspace",
    "mcp": (
        None,
        ".codeium/windsurf/mcp_config.json",
        "mcpServers",
        {"command": None, "args": None},
    ),
    "skills": (".windsurf/skills", ".codeium/windsurf/skills"),
    "programs": ("windsurf",),
    "dirs": (".codeium/windsurf",),
    "source": "https://docs.windsurf.com/windsurf/cascade/hooks (not run here)",
}
