"""GitHub Copilot CLI hooks (docs.github.com/en/copilot/reference/hooks-reference).

With camelCase event names in the hook config, stdin is camelCase and names no
event at all: ``{sessionId, timestamp (epoch ms), cwd, ...}`` plus, per event,
``source``/``initialPrompt`` (sessionStart), ``prompt`` (userPromptSubmitted),
``toolName``/``toolArgs`` (preToolUse) and ``toolResult`` (postToolUse),
``transcriptPath``/``stopReason`` (agentStop), ``trigger`` (preCompact),
``reason`` (sessionEnd), ``error`` (errorOccurred). The event is therefore
taken from the caller's hint (the installer puts it on the command line) or
else inferred from those keys. ``toolArgs`` is an object, or a JSON string in
older versions. File tools: ``create``/``edit`` (written) and ``view`` (read),
path in ``toolArgs.path``.

With PascalCase names in the config Copilot sends Claude-compatible payloads;
those are read like Claude Code's.
Captured from Copilot CLI 1.0.102 (fixtures ``real/copilot-cli-*``).
"""

from __future__ import annotations

from . import base, claude_shape, outcome
from .base import NormalizedEvent
from .claude_code import EVENTS as CLAUDE_EVENTS
from .claude_code import TOOLS as CLAUDE_TOOLS
from .delivery import HOOK_SPECIFIC, TOP_LEVEL, Delivery
from .fields import first_text, text, wrong, wrong_fields
from .paths import clean_dir
from .tools import COMMAND, EDIT, OTHER, READ_KIND, SEARCH, ToolCall, told

NAME = "copilot-cli"

EVENTS: dict[str, str | None] = {
    "sessionStart": base.SESSION_START,
    "userPromptSubmitted": base.USER_PROMPT,
    "preToolUse": base.PRE_TOOL,
    "postToolUse": base.POST_TOOL,
    "postToolUseFailure": base.POST_TOOL,
    "preCompact": base.PRE_COMPACT,
    "agentStop": base.STOP,
    "sessionEnd": base.SESSION_END,
    "userPromptTransformed": None,
    "permissionRequest": None,
    "subagentStart": None,
    "subagentStop": None,
    "errorOccurred": None,  # its ``error`` is kept in NormalizedEvent.error
    "notification": None,
}

#: With PascalCase event names in its config, Copilot CLI speaks Claude's protocol.
_PASCAL = Delivery(HOOK_SPECIFIC, ("SessionStart", "UserPromptSubmit"), cap=9500)
DELIVERY = Delivery(
    TOP_LEVEL,
    ("sessionStart", "userPromptSubmitted"),
    ("postToolUse",),
    noop="{}",
    cap=9500,  # postToolUse additionalContext is capped at 10 KB
    prompt_channel="userPromptSubmitted additionalContext (a <system_reminder> appended to the prompt)",
    tool_channel="postToolUse additionalContext (appended to the tool result as guidance)",
    variants={"SessionStart": _PASCAL, "UserPromptSubmit": _PASCAL},
)
PROJECT_VARS: tuple[str, ...] = ("COPILOT_PROJECT_DIR", "CLAUDE_PROJECT_DIR")

TOOLS = {
    "create": EDIT,
    "edit": EDIT,
    "str_replace_editor": EDIT,
    "apply_patch": EDIT,
    "view": READ_KIND,
    "bash": COMMAND,
    "powershell": COMMAND,
    "glob": SEARCH,
    "grep": SEARCH,
    "task": OTHER,
    "web_fetch": OTHER,
    "ask_user": OTHER,
}

# Payloads that name their event belong to other hosts (or the Claude-compatible mode).
_EVENT_KEYS = ("hook_event_name", "hookEventName", "agent_action_name", "hookName", "agent")
_MARKERS = ("toolName", "toolArgs", "toolResult", "sessionId", "initialPrompt")


def detect(payload: dict[str, object]) -> bool:
    if any(key in payload for key in _EVENT_KEYS):
        return False
    if any(key in payload for key in _MARKERS):
        return True
    stamp = payload.get("timestamp")
    return isinstance(stamp, int) and not isinstance(stamp, bool) and "cwd" in payload


def infer(payload: dict[str, object]) -> str | None:
    """The camelCase event a payload comes from, by the keys only that event sends."""
    if "toolName" in payload or "toolArgs" in payload:
        return "postToolUse" if "toolResult" in payload else "preToolUse"
    for key, name in (
        ("initialPrompt", "sessionStart"),
        ("source", "sessionStart"),
        ("prompt", "userPromptSubmitted"),
        ("trigger", "preCompact"),
        ("stopReason", "agentStop"),
        ("transcriptPath", "agentStop"),
        ("reason", "sessionEnd"),
        ("error", "errorOccurred"),
    ):
        if key in payload:
            return name
    return None


def normalize(payload: dict[str, object], native_event: str | None) -> NormalizedEvent:
    if any(key in payload for key in claude_shape.EVENT_KEYS):
        return claude_shape.normalize(NAME, payload, native_event, CLAUDE_EVENTS, CLAUDE_TOOLS)
    hint = text(native_event)
    native = hint if hint is not None and hint in EVENTS else infer(payload) or hint
    event = claude_shape.lookup(EVENTS, native)
    cwd = clean_dir(payload.get("cwd"))
    is_tool = event in (base.PRE_TOOL, base.POST_TOOL)
    call = ToolCall(
        payload.get("toolName") if is_tool else None,
        payload.get("toolArgs") if is_tool else None,
        TOOLS,
        cwd,
    )
    result = outcome.read(payload.get("toolResult"))
    fields = told(call, result)
    fields["malformed"] = (
        wrong_fields(payload, ("cwd", "sessionId", "toolName", "transcriptPath"))
        or call.problem
        or (wrong(payload.get("prompt"), "its prompt", required=True) if event == base.USER_PROMPT else None)
    )  # fmt: skip
    return NormalizedEvent(
        NAME,
        call.event(event),
        native_event=native,
        cwd=cwd,
        session_id=text(payload.get("sessionId")),
        prompt=first_text(payload, "prompt", "initialPrompt"),
        **fields,
        success=False if native == "postToolUseFailure" else result.success,
        error=result.error or outcome.error_text(payload.get("error")),
        reason=first_text(payload, "source", "reason", "stopReason", "trigger"),
        transcript_path=text(payload.get("transcriptPath")),
        raw=payload,
    )


# Install side: how `memhooks agents install` wires this host (keys: ``wiring.py``).
# A dict literal, so the hook, which imports this module on every call, pays nothing for it.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .wiring import Wiring

INSTALL: Wiring = {
    "title": "Copilot CLI",
    # it runs a hook command with /bin/bash --norc --noprofile -c (run): the command sources the launcher
    "shell": "bash",
    # packaged as a plugin too (memhooks.install.plugins): plugin.json and hooks.json at its
    # root; hooks get COPILOT_PLUGIN_ROOT and run in the plugin's folder (run: 1.0.102)
    "plugin": {
        "kind": "copilot-plugin",
        "manifest": "plugin.json",
        "hooks": "hooks.json",
        "root_var": "COPILOT_PLUGIN_ROOT",
        "remove": "copilot plugin uninstall memhooks",
    },
    "project": ".github/hooks/memhooks.json",
    "user": "{COPILOT_HOME:.copilot}/hooks/memhooks.json",
    # matchers are honoured on postToolUse (run: 1.0.102, "view" left "create" out)
    "events": (
        ("userPromptSubmitted", None),
        ("postToolUse", "view|create|edit|grep|glob"),
        ("preCompact", None),  # compaction: the session's ledger starts over
    ),
    "capture": (
        ("postToolUse", "bash"),
        ("postToolUseFailure", None),
        ("agentStop", None),
        ("sessionEnd", None),
    ),
    "hook": {"type": "command", "bash": "$COMMAND", "timeoutSec": 10},
    "event_arg": True,  # camelCase payloads name no event
    "skeleton": {"version": 1, "hooks": {}},
    "launch": "git-root",  # run: 1.0.102
    # it reads every file in its hooks folders, and a project's .claude/settings*.json
    "reads": ("copilot-vscode", "claude-code@project"),
    "mcp": (
        None,
        ".copilot/mcp-config.json",
        "mcpServers",
        {"type": "local", "command": None, "args": None, "tools": ["*"]},
    ),
    "skills": (".github/skills", ".copilot/skills"),
    "project_todo": (
        "Copilot CLI loads a repository's hooks only in a trusted folder: accept the folder-trust prompt once",
    ),
    "programs": ("copilot",),
    "dirs": ("{COPILOT_HOME:.copilot}",),
    "source": "https://docs.github.com/en/copilot/reference/hooks-reference; run: Copilot CLI 1.0.102",
}
