"""Cline hooks (docs.cline.bot/features/hooks/hook-reference; proto ``cline/hooks.proto``).

proto3 JSON in camelCase: ``hookName`` names the event and the event's data
sits under the same name in lowerCamelCase (``postToolUse``, ``userPromptSubmit``...).
The task is the session (``taskId``); the working directory is
``workspaceRoots[0]`` (older builds: ``workspacePath``). Tool ``parameters`` is a
string map, paths as the model wrote them (workspace-relative, joined here).
The overview page's older names (``tool``, ``durationMs``) are read too.
No real capture yet (fixtures ``docs/cline-*``).
"""

from __future__ import annotations

from . import base, outcome
from .base import NormalizedEvent
from .delivery import CLINE, Delivery
from .fields import boolean, child, first_text, strings, text, wrong, wrong_fields
from .paths import clean_dir
from .tools import COMMAND, EDIT, READ_KIND, SEARCH, ToolCall

NAME = "cline"

EVENTS: dict[str, str | None] = {
    "TaskStart": base.SESSION_START,
    "TaskResume": base.SESSION_START,
    "UserPromptSubmit": base.USER_PROMPT,
    "PreToolUse": base.PRE_TOOL,
    "PostToolUse": base.POST_TOOL,
    "PreCompact": base.PRE_COMPACT,
    # A Cline task is the session: it ends when completed or cancelled.
    "TaskComplete": base.SESSION_END,
    "TaskCancel": base.SESSION_END,
    "Notification": None,
}

DELIVERY = Delivery(
    CLINE,
    ("TaskStart", "TaskResume", "UserPromptSubmit"),
    ("PostToolUse",),
    noop='{"cancel":false}',
    cap=49000,  # Cline truncates contextModification at 50,000 characters
    prompt_channel="UserPromptSubmit contextModification (the next request; discarded by Cline 4.1.x, cline/cline#13554)",
    tool_channel="PostToolUse contextModification (the next request)",
    pre_tool_events=("PreToolUse",),
    edit_channel="PreToolUse contextModification: in the next request, with the edit's result",
)
PROJECT_VARS: tuple[str, ...] = ()

TOOLS = {
    "write_to_file": EDIT,
    "replace_in_file": EDIT,
    "read_file": READ_KIND,
    "execute_command": COMMAND,
    "list_files": SEARCH,
    "search_files": SEARCH,
    "list_code_definition_names": SEARCH,
}


def detect(payload: dict[str, object]) -> bool:
    name = payload.get("hookName")
    if not isinstance(name, str):
        return False
    return "clineVersion" in payload or "taskId" in payload or _data_key(name) in payload


def normalize(payload: dict[str, object], native_event: str | None) -> NormalizedEvent:
    native = text(payload.get("hookName")) or text(native_event)
    event = EVENTS.get(native) if native is not None else None
    data = child(payload, _data_key(native)) if native is not None else None
    roots = [r for r in map(clean_dir, strings(payload.get("workspaceRoots"))) if r]
    legacy_root = clean_dir(payload.get("workspacePath"))
    if not roots and legacy_root is not None:
        roots = [legacy_root]
    cwd = roots[0] if roots else None
    call = ToolCall(
        first_text(data, "toolName", "tool"),
        data.get("parameters") if data is not None else None,
        TOOLS,
        cwd,
    )
    result = outcome.read(data.get("result") if data is not None else None)
    metadata = child(data, "taskMetadata")
    return NormalizedEvent(
        NAME,
        call.event(event),
        native_event=native,
        cwd=cwd,
        session_id=text(payload.get("taskId")),
        prompt=first_text(data, "prompt") or first_text(metadata, "initialTask"),
        tool_name=call.name,
        tool_input=call.input,
        files=call.files,
        command=call.command,
        success=boolean(data.get("success")) if data is not None else None,
        output=result.output,
        reason=first_text(data, "compactionStrategy"),
        workspace_roots=roots,
        raw=payload,
        malformed=wrong_fields(payload, ("taskId", "workspacePath"))
        or call.problem
        or (_prompt_problem(data, native) if event == base.USER_PROMPT else None),
    )


def _prompt_problem(data: dict[str, object] | None, native: str | None) -> str | None:
    """What is wrong with a prompt event's ``<event>.prompt`` (:func:`~.fields.wrong`)."""
    return wrong((data or {}).get("prompt"), f"its {_data_key(native or '')}.prompt", required=True)


def _data_key(hook_name: str) -> str:
    return hook_name[:1].lower() + hook_name[1:]


# Install side: how `memhooks agents install` wires this host (keys: ``wiring.py``).
# A dict literal, so the hook, which imports this module on every call, pays nothing for it.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .wiring import Wiring

INSTALL: Wiring = {
    "title": "Cline",
    # folders: one executable per event, named after it
    "project": ".clinerules/hooks",
    "user": "Documents/Cline/Hooks",
    "events": (
        ("UserPromptSubmit", None),
        ("PostToolUse", None),
        ("PreToolUse", None),  # before an edit: its lines' owners (issue 20 item 3)
        ("PreCompact", None),
    ),
    "installer": "cline",
    "launch": "workspace",
    "skills": (".cline/skills", ".cline/skills"),
    "skills_todo": "Cline uses skills only with Settings → Features → Enable Skills (experimental)",
    "programs": ("cline",),
    "dirs": ("Documents/Cline", ".cline", ".vscode/extensions/saoudrizwan.claude-dev-*"),
    "approval": (
        "enable hooks in Cline: Settings, Features, Hooks (CLI: `cline config set hooks-enabled=true`)"
    ),
    "source": "https://docs.cline.bot/features/hooks/hook-reference (not run here)",
}
