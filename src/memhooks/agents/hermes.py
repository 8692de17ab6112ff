"""Hermes Agent shell hooks and plugin callbacks (hermes-agent.nousresearch.com/docs, hooks).

stdin is ``{hook_event_name, tool_name, tool_input, session_id, cwd, extra{...}}``;
``extra`` carries ``user_message`` (pre_llm_call), ``assistant_response``
(post_llm_call) and the tool ``result`` (a JSON string), ``status`` and
``error_message`` (post_tool_call). Plugin callbacks get the tool input as
``args``. File tools: ``write_file``/``patch`` (written), ``read_file`` (read), with
``path``; renames as ``old_path``/``new_path`` or ``source``/``destination``.

``on_session_end`` fires at the end of *every turn* despite its name, after
``post_llm_call``, which already marks the turn's end; so it is ignored and only
``on_session_finalize``/``on_session_reset`` end the session. The legacy memhooks
bridge sends ``post_tool_call`` with bare ``tool_input.paths`` and no tool name:
those paths are reported as ``read`` (that bridge forwarded reads and writes alike).

Also accepted: another product's plugin wrapper ``{agent: "hermes",
hook_event_name: "hermes.<event>", payload: {kwargs: {...}}}``.
Captured from Hermes 0.19.0 (fixtures ``real/hermes-*``).
"""

from __future__ import annotations

from . import base, claude_shape, outcome
from .base import NormalizedEvent
from .delivery import CONTEXT, Delivery
from .fields import child, first_text, mapping, text, wrong, wrong_fields
from .paths import clean_dir
from .tools import COMMAND, EDIT, READ_KIND, SEARCH, ToolCall, told

NAME = "hermes"

EVENTS: dict[str, str | None] = {
    "on_session_start": base.SESSION_START,
    "pre_llm_call": base.USER_PROMPT,
    "pre_tool_call": base.PRE_TOOL,
    "post_tool_call": base.POST_TOOL,
    "post_llm_call": base.STOP,
    "on_session_end": None,
    "on_session_finalize": base.SESSION_END,
    "on_session_reset": base.SESSION_END,
    "subagent_start": None,
    "subagent_stop": None,
    "pre_api_request": None,
    "post_api_request": None,
    "transform_tool_result": None,
    "transform_terminal_output": None,
    "pre_verify": None,
}

DELIVERY = Delivery(
    CONTEXT,
    ("pre_llm_call",),
    (),  # post_tool_call is an observer; the working set rides on the next pre_llm_call
    noop="{}",
    prompt_channel="pre_llm_call context (appended to the current user message)",
)
PROJECT_VARS: tuple[str, ...] = ("TERMINAL_CWD",)

TOOLS = {
    "write_file": EDIT,
    "patch": EDIT,
    "read_file": READ_KIND,
    "terminal": COMMAND,
    "search_files": SEARCH,
}

_PREFIX = "hermes."


def detect(payload: dict[str, object]) -> bool:
    return payload.get("agent") == "hermes" or _event(payload, None) in EVENTS


def normalize(payload: dict[str, object], native_event: str | None) -> NormalizedEvent:
    fields = _unwrap(payload)
    native = _event(payload, native_event)
    event = claude_shape.lookup(EVENTS, native)
    extra = child(fields, "extra") or {}
    cwd = clean_dir(fields.get("cwd"))
    tool_input = fields.get("tool_input")
    if mapping(tool_input) is None:
        tool_input = fields.get("args")
    is_tool = event in (base.PRE_TOOL, base.POST_TOOL)
    call = ToolCall(
        fields.get("tool_name") if is_tool else None,
        tool_input if is_tool else None,
        TOOLS,
        cwd,
        unnamed=READ_KIND,
    )
    result = outcome.read(extra.get("result") if "result" in extra else fields.get("tool_result"))
    status = text(extra.get("status"))
    success = {"ok": True, "error": False}.get(status or "", result.success)
    fields_told = told(call, result)
    fields_told["malformed"] = (
        wrong_fields(fields, ("cwd", "session_id", "tool_name"))
        or call.problem
        or (_prompt_problem(extra, fields) if event == base.USER_PROMPT else None)
    )
    return NormalizedEvent(
        NAME,
        call.event(event),
        native_event=native,
        cwd=cwd,
        session_id=text(fields.get("session_id")),
        prompt=first_text(extra, "user_message") or text(fields.get("prompt")),
        **fields_told,
        success=success,
        error=first_text(extra, "error_message") or result.error,
        response=first_text(extra, "assistant_response") or text(fields.get("ai_response")),
        raw=payload,
    )


def _prompt_problem(extra: dict[str, object], fields: dict[str, object]) -> str | None:
    """What is wrong with a ``pre_llm_call``'s prompt: ``extra.user_message``, or the
    plugin wrapper's ``prompt`` (:func:`~.fields.wrong`)."""
    if extra.get("user_message") is None and fields.get("prompt") is not None:
        return wrong(fields.get("prompt"), "its prompt")
    return wrong(extra.get("user_message"), "its extra.user_message", required=True)


def _event(payload: dict[str, object], hint: str | None) -> str | None:
    name = text(payload.get("hook_event_name")) or text(hint)
    if name is not None and name.startswith(_PREFIX):
        name = name[len(_PREFIX) :]
    return name


def _unwrap(payload: dict[str, object]) -> dict[str, object]:
    kwargs = child(child(payload, "payload"), "kwargs")
    return payload if kwargs is None else {**payload, **kwargs}


# Install side: how `memhooks agents install` wires this host (keys: ``wiring.py``).
# A dict literal, so the hook, which imports this module on every call, pays nothing for it.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .wiring import Wiring

INSTALL: Wiring = {
    "title": "Hermes",
    "project": "",  # no per-project config
    "user": "{HERMES_HOME:.hermes}/config.yaml",
    # post_tool_call is an observer (its output is ignored): it feeds the session's
    # working set, which pre_llm_call delivers from
    "events": (
        ("pre_llm_call", None),
        ("post_tool_call", "read_file|write_file|patch|search_files"),
    ),
    "installer": "hermes",  # an in-process plugin, or shell hooks in config.yaml
    "levels": ("user",),
    "without_tool_channel": (
        "post_tool_call is an observer; what the agent read rides on the next pre_llm_call, "
        "which runs before every model call"
    ),
    "skills": (None, "{HERMES_HOME:.hermes}/skills"),
    "programs": ("hermes",),
    "dirs": ("{HERMES_HOME:.hermes}",),
    "approval": (
        "approve the shell hooks once in an interactive `hermes` session, or run with --accept-hooks / "
        "HERMES_ACCEPT_HOOKS=1 / `hooks_auto_accept: true`"
    ),
    "source": "https://hermes-agent.nousresearch.com/docs/user-guide/features/hooks; run: Hermes 0.19.0",
}
