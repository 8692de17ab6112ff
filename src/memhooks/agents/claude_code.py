"""Claude Code: JSON on stdin, ``hook_event_name`` in PascalCase (code.claude.com/docs/en/hooks).

File tools name their file in ``tool_input.file_path`` (``notebook_path`` for
NotebookEdit); Bash is a command and its text is never mined for paths.
Captured from Claude Code 2.1.197 (fixtures ``real/claude-code-*``).
"""

from __future__ import annotations

from . import base, claude_shape
from .base import NormalizedEvent
from .delivery import HOOK_SPECIFIC, Delivery
from .tools import COMMAND, EDIT, OTHER, READ_KIND, SEARCH

NAME = "claude-code"

EVENTS: dict[str, str | None] = {
    **claude_shape.CLAUDE_EVENTS,
    "PostToolUseFailure": base.POST_TOOL,
    "PostCompact": base.POST_COMPACT,
    "SessionEnd": base.SESSION_END,
    # Recognised; nothing for memhooks to do.
    "UserPromptExpansion": None,
    "PostToolBatch": None,
    "PermissionRequest": None,
    "Notification": None,
    "SubagentStart": None,
    "SubagentStop": None,
    "FileChanged": None,
    "CwdChanged": None,
    "InstructionsLoaded": None,
}

DELIVERY = Delivery(
    HOOK_SPECIFIC,
    ("SessionStart", "UserPromptSubmit"),
    ("PostToolUse",),
    cap=9500,  # Claude Code caps each output string at 10,000 characters
    prompt_channel="UserPromptSubmit hookSpecificOutput.additionalContext (a system message after the prompt)",
    tool_channel="PostToolUse hookSpecificOutput.additionalContext (a system reminder right after the tool result)",
    pre_tool_events=("PreToolUse",),
    edit_channel="PreToolUse hookSpecificOutput.additionalContext: a system reminder with the edit's result (the model chose the edit before it)",
)
#: Host variables naming the project folder, most trusted first.
PROJECT_VARS: tuple[str, ...] = ("CLAUDE_PROJECT_DIR",)

TOOLS = {
    "write": EDIT,
    "edit": EDIT,
    "multiedit": EDIT,
    "notebookedit": EDIT,
    "read": READ_KIND,
    "bash": COMMAND,
    "powershell": COMMAND,
    "grep": SEARCH,
    "glob": SEARCH,
    "todowrite": OTHER,
}

#: Its tools' input fields memhooks reads beyond every host's file paths and edit texts
#: (:func:`.tools.problem`), with the type each holds (code.claude.com/docs/en/
#: tools-reference; run 2.1.197): a Write's content (the lines it writes), an Edit's
#: replace_all (JSON true or false: every occurrence), where a Grep or Glob looked.
#: Another type is MH041, never taken as absent (a Write of ``"content": 7`` was silent).
TOOL_FIELDS: dict[str, tuple[tuple[str, type], ...]] = {
    "write": (("content", str),),
    "edit": (("replace_all", bool),),
    "grep": (("path", str),),
    "glob": (("path", str),),
}
#: Its own tools answer ``tool_response`` with an object (``{"type": "text", "file":
#: {...}}`` for a Read, ``{"stdout": ...}`` for Bash; run 2.1.197); an MCP tool's may be
#: anything. A Read with ``"tool_response": 7`` was served with nothing said.
RESPONSES: dict[str, tuple[tuple[str, type], ...]] = dict.fromkeys(
    ("read", "write", "edit", "multiedit", "notebookedit", "grep", "glob", "bash", "powershell"),
    (("tool_response", dict),),
)


def detect(payload: dict[str, object]) -> bool:
    """Any Claude event name in ``hook_event_name`` (checked after the look-alike hosts)."""
    return claude_shape.named(payload, EVENTS, "hook_event_name") is not None


def normalize(payload: dict[str, object], native_event: str | None) -> NormalizedEvent:
    return claude_shape.normalize(
        NAME, payload, native_event, EVENTS, TOOLS, fields=TOOL_FIELDS, responses=RESPONSES
    )


# Install side: how `memhooks agents install` wires this host (keys: ``wiring.py``).
# A dict literal, so the hook, which imports this module on every call, pays nothing for it.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .wiring import Wiring

INSTALL: Wiring = {
    "title": "Claude Code",
    # a JSON reply key whose text the host shows the user (the launcher's "memhooks is gone")
    "notice": "systemMessage",
    # it runs a hook command with /bin/sh -c (run): the command sources the launcher
    "shell": "sh",
    # packaged as a plugin too (memhooks.install.plugins; run: see docs/agents.md)
    "plugin": {
        "kind": "claude-plugin",
        "manifest": ".claude-plugin/plugin.json",
        "hooks": "hooks/hooks.json",
        "root_var": "CLAUDE_PLUGIN_ROOT",
        "remove": "claude plugin uninstall {ref}",
    },
    # settings.local.json, not settings.json: the command holds this machine's path
    "project": ".claude/settings.local.json",
    "user": ".claude/settings.json",
    "events": (
        ("UserPromptSubmit", None),
        ("PostToolUse", "Read|Grep|Glob|Edit|Write|MultiEdit|NotebookEdit"),
        # before an edit: who owns the lines it replaces (issue 20 item 3)
        ("PreToolUse", "Edit|Write|MultiEdit"),
        # after a compaction or /clear the model lost what memhooks gave it: the session's
        # ledger is emptied and recall runs again (starting sessions are left alone)
        ("SessionStart", "compact|clear"),
    ),
    "capture": (
        ("PostToolUse", "Bash|PowerShell"),
        ("PostToolUseFailure", "Bash|PowerShell"),
        ("Stop", None),
        ("PreCompact", None),
        ("PostCompact", None),
        ("SessionEnd", None),
    ),
    "hook": {"type": "command", "command": "$COMMAND", "timeout": 10},
    "groups": True,
    # started in billing/, Claude Code reads billing/.claude/ only (run: 2.1.197;
    # anthropics/claude-code#86187); identical handlers in several files run once
    "launch": "start-folder",
    "dedups": True,
    "mcp": (".mcp.json", ".claude.json", "mcpServers", {"command": None, "args": None}),
    "skills": (".claude/skills", ".claude/skills"),
    "programs": ("claude",),
    "dirs": (".claude",),
    "todo": ("restart running Claude Code sessions: hooks are read at session start",),
    "source": "https://code.claude.com/docs/en/hooks; run: Claude Code 2.1.197",
}
