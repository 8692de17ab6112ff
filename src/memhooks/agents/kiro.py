"""Kiro IDE (>= 1.0) file hooks and Kiro CLI agent-config hooks (kiro.dev/docs/hooks, /docs/cli/hooks).

The IDE sends Claude-like PascalCase events; the CLI sends camelCase ones
(``agentSpawn``, ``userPromptSubmit``, ``postToolUse``). File tools are
``fs_write``/``fs_append`` (written) and ``fs_read`` (read) with ``tool_input.path``;
for these ``tool_input.command`` is a sub-command (``create``), not a shell line.

The IDE often sends ``tool_input: {}`` for writes; the path is then only in the
result sentence ``Created the <path> file.`` (agent-hooks.md section 7a). That one
fixed sentence is parsed, anchored at both ends; no other prose is read.
Kiro IDE PascalCase payloads are indistinguishable from Claude Code's unless
they name a Kiro tool, so pass ``--agent kiro`` for them.
No real capture yet (fixtures ``docs/kiro-*`` only).
"""

from __future__ import annotations

from . import base, claude_shape
from .base import WRITTEN, FileChange, NormalizedEvent
from .delivery import PLAIN, Delivery
from .fields import text
from .paths import clean_path
from .tools import COMMAND, EDIT, READ_KIND, classify

NAME = "kiro"

EVENTS: dict[str, str | None] = {
    # Kiro IDE >= 1.0 / Kiro CLI v3 file hooks
    "SessionStart": base.SESSION_START,
    "UserPromptSubmit": base.USER_PROMPT,
    "PreToolUse": base.PRE_TOOL,
    "PostToolUse": base.POST_TOOL,
    "Stop": base.STOP,
    # Kiro CLI agent-config hooks
    "agentSpawn": base.SESSION_START,
    "userPromptSubmit": base.USER_PROMPT,
    "preToolUse": base.PRE_TOOL,
    "postToolUse": base.POST_TOOL,
    "stop": base.STOP,
}

DELIVERY = Delivery(
    PLAIN,
    ("SessionStart", "UserPromptSubmit", "agentSpawn", "userPromptSubmit"),
    (),  # PostToolUse output never reaches the agent
    prompt_channel="UserPromptSubmit / userPromptSubmit plain stdout (added to the agent's context)",
)
PROJECT_VARS: tuple[str, ...] = ()
_CLI_EVENTS = frozenset(name for name in EVENTS if name[0].islower())

TOOLS = {
    "fs_write": EDIT,
    "fs_append": EDIT,
    "fs_read": READ_KIND,
    "execute_bash": COMMAND,
    "execute_pwsh": COMMAND,
}

_CREATED = ("Created the ", " file.")


def detect(payload: dict[str, object]) -> bool:
    native = claude_shape.named(payload, EVENTS, "hook_event_name")
    if native is None:
        return False
    tool = payload.get("tool_name")
    return native in _CLI_EVENTS or (isinstance(tool, str) and tool.lower() in TOOLS)


def normalize(payload: dict[str, object], native_event: str | None) -> NormalizedEvent:
    event = claude_shape.normalize(NAME, payload, native_event, EVENTS, TOOLS)
    if (
        event.event == base.POST_TOOL
        and not event.files
        and classify(event.tool_name, TOOLS) == EDIT
    ):
        path = created_path(payload.get("tool_response"), event.cwd)
        if path is not None:
            event.files = [FileChange(path, WRITTEN)]
            event.event = base.POST_EDIT
    return event


def created_path(response: object, cwd: str | None) -> str | None:
    """The path in Kiro IDE's ``Created the <path> file.`` result, joined to ``cwd``."""
    sentence = text(response)
    if sentence is None:
        return None
    sentence = sentence.strip()
    head, tail = _CREATED
    if not (sentence.startswith(head) and sentence.endswith(tail)):
        return None
    return clean_path(sentence[len(head) : -len(tail)], cwd)


# Install side: how `memhooks agents install` wires this host (keys: ``wiring.py``).
# A dict literal, so the hook, which imports this module on every call, pays nothing for it.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .wiring import Wiring

INSTALL: Wiring = {
    "title": "Kiro",
    "project": ".kiro/hooks/memhooks.json",
    "user": ".kiro/hooks/memhooks.json",
    # PostToolUse output never reaches the agent: reads feed the session's working set
    # (prompt-time routing), writes hook maintenance
    "events": (("UserPromptSubmit", None), ("PostToolUse", "fs_write|fs_append|fs_read")),
    "installer": "kiro",  # a list of hooks, not an event map
    "without_tool_channel": (
        "PostToolUse output never reaches the agent; the files it reads steer the next prompt's recall"
    ),
    "launch": "workspace",
    "mcp": (".kiro/settings/mcp.json", None, "mcpServers", {"command": None, "args": None}),
    "skills": (".kiro/skills", ".kiro/skills"),
    "programs": ("kiro", "kiro-cli"),
    "dirs": (".kiro",),
    "source": "https://kiro.dev/docs/hooks/ (not run here)",
}
