"""What each host accepts on stdout, and which of its events can carry context to the model.

One row per host: the response *shape*, the native events whose response reaches the
model (``events``), the response that means "nothing to add" (``noop``) and the most
characters the host keeps of one context string (``cap``, None: no documented cap).
Sources: ``shared/spec/real-agents.md`` (where hook output was seen in the model
request, real runs) over ``shared/spec/agent-hooks.md`` (docs):

============== ================= ============================================ ========
host           shape             injecting events                              noop
============== ================= ============================================ ========
claude-code    hookSpecificOutput SessionStart, UserPromptSubmit              (empty)
codex          hookSpecificOutput SessionStart, UserPromptSubmit              (empty)
gemini-cli     hookSpecificOutput SessionStart, BeforeAgent                   ``{}``
copilot-cli    additionalContext  sessionStart, userPromptSubmitted           ``{}``
copilot-vscode hookSpecificOutput SessionStart (UserPromptSubmit cannot)      (empty)
cursor         additional_context sessionStart (beforeSubmitPrompt cannot)    ``{}``
windsurf       none               none: no model-visible channel              (empty)
kiro           plain text         SessionStart, UserPromptSubmit, agentSpawn, (empty)
                                  userPromptSubmit
opencode       context            chat.message (our plugin adds a text part)  ``{}``
cline          contextModification TaskStart, TaskResume, UserPromptSubmit    ``{"cancel":false}``
hermes         context            pre_llm_call (appended to the user message) ``{}``
============== ================= ============================================ ========

Gemini CLI turns an *empty* stdout into a parse of stderr, and plain text into a
user-visible message, so its no-op is ``{}``. Claude Code and Codex need
``hookEventName`` to echo the firing event or they drop the whole response.
"""

from __future__ import annotations

import json

HOOK_SPECIFIC = "hookSpecificOutput"
TOP_LEVEL = "additionalContext"
SNAKE = "additional_context"
PLAIN = "plain"
CONTEXT = "context"
CLINE = "contextModification"


class Shape:
    __slots__ = ("cap", "events", "kind", "noop")

    def __init__(
        self, kind: str | None, events: tuple[str, ...], noop: str = "", cap: int | None = None
    ) -> None:
        self.kind = kind
        self.events = frozenset(events)
        self.noop = noop
        self.cap = cap


_CLAUDE_EVENTS = ("SessionStart", "UserPromptSubmit")

#: host name (``memhooks.agents.HOSTS`` key) -> Shape
SHAPES: dict[str, Shape] = {
    # Claude caps each output string at 10,000 characters.
    "claude-code": Shape(HOOK_SPECIFIC, _CLAUDE_EVENTS, cap=9500),
    # Codex spills output over ~2,500 tokens to a file and shows the model a preview.
    "codex": Shape(HOOK_SPECIFIC, _CLAUDE_EVENTS, cap=8000),
    "gemini-cli": Shape(HOOK_SPECIFIC, ("SessionStart", "BeforeAgent"), noop="{}"),
    "copilot-cli": Shape(TOP_LEVEL, ("sessionStart", "userPromptSubmitted"), noop="{}", cap=9500),
    "copilot-vscode": Shape(HOOK_SPECIFIC, ("SessionStart",), cap=9500),
    "cursor": Shape(SNAKE, ("sessionStart",), noop="{}"),
    "windsurf": Shape(None, ()),
    "kiro": Shape(PLAIN, ("SessionStart", "UserPromptSubmit", "agentSpawn", "userPromptSubmit")),
    "opencode": Shape(CONTEXT, ("chat.message",), noop="{}"),
    "cline": Shape(
        CLINE, ("TaskStart", "TaskResume", "UserPromptSubmit"), noop='{"cancel":false}', cap=49000
    ),
    "hermes": Shape(CONTEXT, ("pre_llm_call",), noop="{}"),
    "generic": Shape(HOOK_SPECIFIC, _CLAUDE_EVENTS),
}
_NONE = Shape(None, ())

#: Copilot CLI with PascalCase event names in its config speaks Claude's protocol.
_PASCAL_COPILOT = Shape(HOOK_SPECIFIC, _CLAUDE_EVENTS, cap=9500)


def shape_for(host: str, native_event: str | None) -> Shape:
    """The response shape of ``host`` for ``native_event`` (never raises)."""
    if host == "copilot-cli" and native_event in _CLAUDE_EVENTS:
        return _PASCAL_COPILOT
    return SHAPES.get(host, _NONE)


def can_inject(host: str, native_event: str | None) -> bool:
    """Whether ``host`` delivers context returned for ``native_event`` to the model."""
    shape = shape_for(host, native_event)
    return shape.kind is not None and native_event in shape.events


def noop(host: str, native_event: str | None) -> str:
    """The stdout that means "nothing to add" for ``host`` (may be empty)."""
    return shape_for(host, native_event).noop


def render(host: str, native_event: str, context: str) -> str:
    """The stdout that delivers ``context`` to the model. Call only when
    :func:`can_inject` is true."""
    kind = shape_for(host, native_event).kind
    if kind == PLAIN:
        return context
    if kind == HOOK_SPECIFIC:
        body: dict[str, object] = {
            HOOK_SPECIFIC: {"hookEventName": native_event, "additionalContext": context}
        }
    elif kind == CLINE:
        body = {"cancel": False, CLINE: context}
    else:
        body = {str(kind): context}
    return json.dumps(body, ensure_ascii=False)
