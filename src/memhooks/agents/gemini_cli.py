"""Gemini CLI: Claude-like stdin with its own event names (geminicli.com/docs/hooks/reference).

``BeforeAgent`` is the prompt event and ``AfterTool`` the post-tool event;
SessionStart/SessionEnd share Claude's names, so those are told apart by the
ISO ``timestamp`` every Gemini payload carries. Gemini prefixes the prompt
with the SessionStart context it injected (``<hook_context>...</hook_context>``);
that is stripped so recall queries the user's words, not our own output.
Captured from Gemini CLI 0.61.0 (fixtures ``real/gemini-cli-*``).
"""

from __future__ import annotations

from . import base, claude_shape
from .base import NormalizedEvent
from .delivery import HOOK_SPECIFIC, Delivery
from .fields import text
from .tools import COMMAND, EDIT, OTHER, READ_KIND, SEARCH

NAME = "gemini-cli"

EVENTS: dict[str, str | None] = {
    "SessionStart": base.SESSION_START,
    "BeforeAgent": base.USER_PROMPT,
    "BeforeTool": base.PRE_TOOL,
    "AfterTool": base.POST_TOOL,
    "AfterAgent": base.STOP,
    # Gemini CLI 0.61 fires PreCompress before every model call, before it decides
    # whether to compress (ChatCompressionService.compress; seen in the real-agent
    # runs): it says nothing about what the model still has, so it resets nothing.
    "PreCompress": None,
    "SessionEnd": base.SESSION_END,
    # Fire on every model call / selection; the per-turn events above suffice.
    "BeforeModel": None,
    "AfterModel": None,
    "BeforeToolSelection": None,
    "Notification": None,
}

DELIVERY = Delivery(
    HOOK_SPECIFIC,
    ("SessionStart", "BeforeAgent"),
    ("AfterTool",),
    noop="{}",  # an empty stdout makes Gemini parse stderr; plain text becomes a user message
    prompt_channel="BeforeAgent hookSpecificOutput.additionalContext (a <hook_context> part of the user's turn)",
    tool_channel="AfterTool hookSpecificOutput.additionalContext (appended to the tool's result)",
)
#: ``GEMINI_CWD`` is where Gemini runs; ``CLAUDE_PROJECT_DIR`` is its compatibility alias.
PROJECT_VARS: tuple[str, ...] = ("GEMINI_CWD", "GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR")
_GEMINI_ONLY = frozenset(EVENTS) - {"SessionStart", "SessionEnd", "Notification"}

TOOLS = {
    "write_file": EDIT,
    "replace": EDIT,
    "read_file": READ_KIND,
    "read_many_files": READ_KIND,  # globs in ``include``, not paths: yields no files
    "run_shell_command": COMMAND,
    "list_directory": SEARCH,
    "glob": SEARCH,
    "search_file_content": SEARCH,
    "grep_search": SEARCH,
    "save_memory": OTHER,
    "write_todos": OTHER,
}

_OPEN, _CLOSE = "<hook_context>", "</hook_context>"


def detect(payload: dict[str, object]) -> bool:
    native = claude_shape.named(payload, EVENTS, "hook_event_name")
    if native is None:
        return False
    return native in _GEMINI_ONLY or isinstance(payload.get("timestamp"), str)


def normalize(payload: dict[str, object], native_event: str | None) -> NormalizedEvent:
    return claude_shape.normalize(
        NAME, payload, native_event, EVENTS, TOOLS, prompt=strip_hook_context
    )


def strip_hook_context(prompt: str | None) -> str | None:
    """``prompt`` without the ``<hook_context>`` blocks Gemini prepends to it."""
    if prompt is None:
        return None
    for _ in range(64):
        start = prompt.find(_OPEN)
        end = prompt.find(_CLOSE, start)
        if start < 0 or end < 0:
            break
        prompt = prompt[:start] + prompt[end + len(_CLOSE) :]
    return text(prompt.strip())


# Install side: how `memhooks agents install` wires this host (keys: ``wiring.py``).
# A dict literal, so the hook, which imports this module on every call, pays nothing for it.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .wiring import Wiring

#: Tools whose AfterTool reaches the model (0.61.0 names; search_file_content before it).
_TOOL_MATCHER = (
    "read_file|read_many_files|write_file|replace|glob|grep_search|search_file_content"
    "|list_directory"
)
INSTALL: Wiring = {
    "title": "Gemini CLI",
    # a JSON reply key whose text the host shows the user (the launcher's "memhooks is gone")
    "notice": "systemMessage",
    # it runs a hook command with bash -c (run): the command sources the launcher
    "shell": "bash",
    # packaged as a plugin too (memhooks.install.plugins; run: see docs/agents.md)
    "plugin": {
        "kind": "gemini-extension",
        "manifest": "gemini-extension.json",
        "hooks": "hooks/hooks.json",
        "root_var": "extensionPath",
        "remove": "gemini extensions uninstall memhooks",
    },
    "project": ".gemini/settings.json",
    "user": ".gemini/settings.json",
    "events": (
        ("BeforeAgent", None),
        ("AfterTool", _TOOL_MATCHER),
        # not PreCompress: 0.61.0 fires it (trigger auto) before every model call, whether
        # or not it compacts (run here), so it cannot tell the hook the model lost context
    ),
    "capture": (
        ("AfterTool", "run_shell_command"),
        ("AfterAgent", None),
        ("SessionEnd", None),
    ),
    "hook": {"type": "command", "name": "memhooks", "command": "$COMMAND", "timeout": 10000},
    "groups": True,
    "launch": "start-folder",  # run: 0.61.0
    "mcp": (
        ".gemini/settings.json",
        ".gemini/settings.json",
        "mcpServers",
        {"command": None, "args": None},
    ),
    # Gemini CLI 0.61 reads user skills from ~/.gemini/skills, then ~/.agents/skills, and
    # (in a trusted folder) .gemini/skills, then .agents/skills of the folder it starts in;
    # a later folder's skill of the same name wins, with a "Skill conflict detected"
    # warning on every run (SkillManager.discoverSkills; "Discovery tiers" of
    # https://geminicli.com/docs/cli/using-agent-skills/). Codex reads .agents/skills, so
    # the two share one copy there.
    "skills": (".agents/skills", ".agents/skills"),
    "skills_also_read": (".gemini/skills", ".gemini/skills"),
    "programs": ("gemini",),
    "dirs": (".gemini",),
    "off_switch": (
        ("hooksConfig", "enabled"),
        False,
        "hooks are disabled (hooksConfig.enabled = false)",
    ),
    "project_todo": (
        "headless runs need a trusted folder: GEMINI_CLI_TRUST_WORKSPACE=true or --skip-trust",
    ),
    "source": "https://geminicli.com/docs/hooks/reference; run: Gemini CLI 0.61.0",
}
