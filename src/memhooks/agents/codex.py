"""OpenAI Codex CLI: Claude-compatible stdin (developers.openai.com/codex/hooks).

Edits arrive as ``tool_name: "apply_patch"`` with the patch envelope in
``tool_input.command``; the paths exist only inside it. Shell runs arrive as
``Bash`` and ``tool_response`` is text that starts ``Exit code: N``.
Captured from Codex 0.171.0 (fixtures ``real/codex-*``).

Detection: the payload looks like Claude's, so Codex is recognised by
``turn_id`` (every turn-scoped event), by an ``apply_patch`` tool, or by a
SessionStart carrying both ``model`` and ``permission_mode`` (required by
Codex's published schema; Claude Code 2.1 sends neither on SessionStart).
"""

from __future__ import annotations

from . import base, claude_shape, outcome
from .base import NormalizedEvent
from .delivery import HOOK_SPECIFIC, Delivery
from .tools import COMMAND, EDIT

NAME = "codex"

EVENTS: dict[str, str | None] = {
    **claude_shape.CLAUDE_EVENTS,
    "PostCompact": base.POST_COMPACT,
    "SessionEnd": base.SESSION_END,  # unconfirmed in the docs; harmless if it never comes
    "PermissionRequest": None,
    "SubagentStart": None,
    "SubagentStop": None,
    "StopFailure": None,
}

DELIVERY = Delivery(
    HOOK_SPECIFIC,
    ("SessionStart", "UserPromptSubmit"),
    ("PostToolUse",),
    cap=8000,  # Codex spills output over ~2,500 tokens to a file and shows a preview
    prompt_channel="UserPromptSubmit hookSpecificOutput.additionalContext (a developer message after the prompt)",
    tool_channel="PostToolUse hookSpecificOutput.additionalContext (a developer message between the tool call and its output)",
    pre_tool_events=("PreToolUse",),
    edit_channel="PreToolUse hookSpecificOutput.additionalContext: a developer message with the call's output (Codex 0.128+, openai/codex#20692)",
)
#: Codex sets no project variable (only ``CODEX_MANAGED_*``); the payload's ``cwd`` rules.
PROJECT_VARS: tuple[str, ...] = ()

TOOLS = {
    "apply_patch": EDIT,
    "bash": COMMAND,
    "shell": COMMAND,
    "exec_command": COMMAND,
    "local_shell": COMMAND,
}


def detect(payload: dict[str, object]) -> bool:
    native = claude_shape.named(payload, EVENTS, "hook_event_name")
    if native is None:
        return False
    if "turn_id" in payload or payload.get("tool_name") == "apply_patch":
        return True
    return native == "SessionStart" and "model" in payload and "permission_mode" in payload


def normalize(payload: dict[str, object], native_event: str | None) -> NormalizedEvent:
    return claude_shape.normalize(
        NAME, payload, native_event, EVENTS, TOOLS, read=outcome.codex_shell
    )


# Install side: how `memhooks agents install` wires this host (keys: ``wiring.py``).
# A dict literal, so the hook, which imports this module on every call, pays nothing for it.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .wiring import Wiring

INSTALL: Wiring = {
    "title": "Codex",
    # a JSON reply key whose text the host shows the user (the launcher's "memhooks is gone")
    "notice": "systemMessage",
    # it runs a hook command with /bin/bash -c (run): the command sources the launcher
    "shell": "bash",
    # packaged as a plugin too (memhooks.install.plugins; run: see docs/agents.md)
    "plugin": {
        "kind": "codex-plugin",
        "manifest": ".codex-plugin/plugin.json",
        "hooks": "hooks/hooks.json",
        "root_var": "PLUGIN_ROOT",
        "remove": "codex plugin remove {ref}",
    },
    "project": ".codex/hooks.json",
    "user": "{CODEX_HOME:.codex}/hooks.json",
    # Codex reads files through its shell tool (Bash in hook payloads): the working set
    # and tool-time recall need it as much as apply_patch
    "events": (
        ("UserPromptSubmit", None),
        ("PostToolUse", "apply_patch|Edit|Write|Bash"),
        ("PreToolUse", "apply_patch|Edit|Write"),  # before an edit: its lines' owners
        ("SessionStart", "compact|clear"),  # the model lost what it was given: recall anew
    ),
    # no SessionEnd: unconfirmed for Codex; `capture process` records idle sessions
    "capture": (("Stop", None), ("PreCompact", None), ("PostCompact", None)),
    "hook": {"type": "command", "command": "$COMMAND", "timeout": 10},
    "groups": True,
    "installer": "codex",  # status reads config.toml: trust and the hooks feature flag
    # a project's .codex/ is read from anywhere in its git work tree (run: 0.171.0)
    "launch": "git-root",
    "skills": (".agents/skills", ".agents/skills"),
    "programs": ("codex",),
    "dirs": ("{CODEX_HOME:.codex}",),
    "approval": (
        "Codex skips new hooks until they are reviewed: start `codex`, open /hooks and approve "
        "memhooks' hooks (`codex exec` cannot ask: pass --dangerously-bypass-hook-trust)"
    ),
    "source": "https://developers.openai.com/codex/hooks; run: Codex 0.171.0",
}
