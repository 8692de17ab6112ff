"""GitHub Copilot agent hooks in VS Code (code.visualstudio.com/docs/agent-customization/hooks).

Claude-like, but the event and session keys are camelCase (``hookEventName``,
``sessionId``) and tools use VS Code's names and camelCase arguments
(``editFiles{files[]}``, ``createFile{filePath}``); exact names per tool are
unconfirmed, so unknown ones fall back to the words of their name.
No real capture yet (fixtures ``docs/`` and ``memorix-derived/`` only).
"""

from __future__ import annotations

from . import claude_shape
from .base import NormalizedEvent
from .claude_code import TOOLS as CLAUDE_TOOLS
from .delivery import HOOK_SPECIFIC, Delivery
from .tools import COMMAND, EDIT, READ_KIND

NAME = "copilot-vscode"

EVENTS: dict[str, str | None] = {
    **claude_shape.CLAUDE_EVENTS,
    "SubagentStart": None,
    "SubagentStop": None,
}

DELIVERY = Delivery(
    HOOK_SPECIFIC,
    ("SessionStart",),  # UserPromptSubmit cannot inject in VS Code
    ("PostToolUse",),
    cap=9500,
    prompt_channel="SessionStart hookSpecificOutput.additionalContext (once per session; UserPromptSubmit cannot inject)",
    tool_channel="PostToolUse hookSpecificOutput.additionalContext",
)
PROJECT_VARS: tuple[str, ...] = ("CLAUDE_PROJECT_DIR",)

TOOLS = {
    **CLAUDE_TOOLS,  # Claude-format hook files make VS Code report Claude tool names
    "editfiles": EDIT,
    "createfile": EDIT,
    "create_file": EDIT,
    "replace_string_in_file": EDIT,
    "multi_replace_string_in_file": EDIT,
    "insert_edit_into_file": EDIT,
    "readfile": READ_KIND,
    "read_file": READ_KIND,
    "runterminalcommand": COMMAND,
    "run_in_terminal": COMMAND,
}


def detect(payload: dict[str, object]) -> bool:
    return claude_shape.named(payload, EVENTS, "hookEventName") is not None


def normalize(payload: dict[str, object], native_event: str | None) -> NormalizedEvent:
    return claude_shape.normalize(NAME, payload, native_event, EVENTS, TOOLS)


# Install side: how `memhooks agents install` wires this host (keys: ``wiring.py``).
# A dict literal, so the hook, which imports this module on every call, pays nothing for it.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .wiring import Wiring

INSTALL: Wiring = {
    "title": "VS Code",
    "project": ".github/hooks/memhooks-vscode.json",
    "user": "{COPILOT_HOME:.copilot}/hooks/memhooks-vscode.json",
    # no matcher: VS Code ignores them for Claude-format files; the hook filters tools
    "events": (("SessionStart", None), ("PostToolUse", None), ("PreCompact", None)),
    "capture": (("Stop", None),),
    "hook": {"type": "command", "command": "$COMMAND", "timeout": 10},
    "skeleton": {"hooks": {}},
    "launch": "workspace",
    "reads": ("copilot-cli", "claude-code"),
    "mcp": (".vscode/mcp.json", None, "servers", {"type": "stdio", "command": None, "args": None}),
    "skills": (".github/skills", ".copilot/skills"),
    "dirs": (
        ".vscode/extensions/github.copilot-chat-*",
        ".vscode-server/extensions/github.copilot-chat-*",
    ),
    "source": "https://code.visualstudio.com/docs/agent-customization/hooks (not run here)",
}
