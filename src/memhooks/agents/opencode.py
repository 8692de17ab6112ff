"""OpenCode plugins (opencode.ai/docs/plugins, V1): hooks are in-process JS, not stdin.

A plugin forwards what its hooks receive. Accepted shapes:

* a hook's ``{"input": ..., "output": ...}`` pair, the hook told apart by shape
  (``input.tool`` with ``output.args`` is ``tool.execute.before``, with
  ``output.output``/``title``/``metadata`` it is ``tool.execute.after``, ``output.parts``
  is ``chat.message``, ``output.context`` is ``experimental.session.compacting``);
* a bus event ``{"type": "file.edited", "properties": {...}}``, bare or under ``event``;
* either one with ``hook_event_name`` naming it, plus ``directory`` (the plugin
  context's project directory; no OpenCode object carries a cwd). This is the
  envelope a memhooks plugin should send;
* another product's bridge ``{agent: "opencode", hook_event_name, cwd, tool_name,
  tool_input, file_path}``.

Tools: ``write``/``edit`` (``filePath``), ``read`` (read), ``apply_patch``
(``patchText``, parsed), ``bash``/``shell`` (commands). ``file.edited`` names its file
in ``properties.file``. ``command.executed`` is a slash command, not a shell run,
and per-model-call transforms are ignored (``chat.message`` is the prompt event).
Captured from OpenCode 1.18.33 (fixtures ``real/opencode-*``).
"""

from __future__ import annotations

from . import base, claude_shape, outcome
from .base import WRITTEN, NormalizedEvent
from .delivery import CONTEXT, Delivery
from .fields import MAX_ITEMS, child, first_text, text, wrong, wrong_fields
from .paths import clean_dir
from .tools import COMMAND, EDIT, OTHER, READ_KIND, SEARCH, ToolCall, add, unique

NAME = "opencode"

EVENTS: dict[str, str | None] = {
    "chat.message": base.USER_PROMPT,
    "tool.execute.before": base.PRE_TOOL,
    "tool.execute.after": base.POST_TOOL,
    "experimental.session.compacting": base.PRE_COMPACT,
    "experimental.chat.system.transform": None,
    "experimental.chat.messages.transform": None,
    "session.created": base.SESSION_START,
    "session.idle": base.STOP,
    "session.compacted": base.POST_COMPACT,
    "session.deleted": base.SESSION_END,
    "file.edited": base.POST_EDIT,
    "session.error": None,
    "session.diff": None,
    "session.status": None,
    "session.updated": None,
    "message.updated": None,
    "message.part.updated": None,
    "command.executed": None,
    "file.watcher.updated": None,
}

DELIVERY = Delivery(
    CONTEXT,
    ("chat.message",),
    ("tool.execute.after",),
    noop="{}",
    prompt_channel="chat.message: a text part added to the user's message (our plugin)",
    tool_channel="tool.execute.after: appended to the tool's output (our plugin)",
)
PROJECT_VARS: tuple[str, ...] = ()

TOOLS = {
    "write": EDIT,
    "edit": EDIT,
    "multiedit": EDIT,
    "apply_patch": EDIT,
    "patch": EDIT,
    "read": READ_KIND,
    "bash": COMMAND,
    "shell": COMMAND,
    "grep": SEARCH,
    "glob": SEARCH,
    "list": SEARCH,
    "task": OTHER,
    "skill": OTHER,
    "webfetch": OTHER,
    "todowrite": OTHER,
    "todoread": OTHER,
}


def detect(payload: dict[str, object]) -> bool:
    if payload.get("agent") == "opencode":
        return True
    name = payload.get("hook_event_name")
    if isinstance(name, str) and name in EVENTS:
        return True
    return shape(payload) is not None or _is_plugin_context(payload)


def shape(payload: dict[str, object]) -> str | None:
    """The hook or bus event a bare OpenCode object comes from, by its shape."""
    bus = child(payload, "event") or payload
    kind = bus.get("type")
    if isinstance(kind, str) and "." in kind and isinstance(bus.get("properties"), dict):
        return kind
    hook_input = child(payload, "input")
    if hook_input is None:
        return None
    out = child(payload, "output") or {}
    if "tool" in hook_input:
        done = any(key in out for key in ("title", "output", "metadata"))
        return "tool.execute.after" if done else "tool.execute.before"
    for key, name in (
        ("parts", "chat.message"),
        ("system", "experimental.chat.system.transform"),
        ("context", "experimental.session.compacting"),
        ("messages", "experimental.chat.messages.transform"),
    ):
        if key in out:
            return name
    return "experimental.chat.system.transform" if "system_len" in payload else None


def _is_plugin_context(payload: dict[str, object]) -> bool:
    # What a plugin function receives at load time: no event, nothing to do.
    return "worktree" in payload and "directory" in payload and "project" in payload


def normalize(payload: dict[str, object], native_event: str | None) -> NormalizedEvent:
    native = text(payload.get("hook_event_name")) or text(native_event) or shape(payload)
    event = claude_shape.lookup(EVENTS, native)
    bus = child(payload, "event") or payload
    props = child(bus, "properties") or {}
    info = child(props, "info") or {}
    hook_input = child(payload, "input") or {}
    out = child(payload, "output") or {}
    cwd = clean_dir(first_text(payload, "directory", "cwd", "worktree") or info.get("directory"))
    is_tool = event in (base.PRE_TOOL, base.POST_TOOL)
    args = payload.get("tool_input") or hook_input.get("args") or out.get("args")
    call = ToolCall(
        (first_text(payload, "tool_name") or first_text(hook_input, "tool")) if is_tool else None,
        args if is_tool else None,
        TOOLS,
        cwd,
    )
    files = list(call.files)
    if native == "file.edited":
        add(files, props.get("file") or payload.get("file_path"), WRITTEN, cwd)
    result = outcome.read(out) if event == base.POST_TOOL else outcome.Outcome()
    return NormalizedEvent(
        NAME,
        call.event(event),
        native_event=native,
        cwd=cwd,
        session_id=first_text(payload, "session_id")
        or first_text(hook_input, "sessionID")
        or first_text(props, "sessionID")
        or first_text(info, "id"),
        prompt=prompt_text(out.get("parts")) if native == "chat.message" else None,
        tool_name=call.name,
        tool_input=call.input,
        files=unique(files),
        command=call.command,
        exit_code=result.exit_code,
        success=result.success,
        output=result.output,
        raw=payload,
        malformed=wrong_fields(payload, ("directory", "cwd", "session_id", "tool_name"))
        or wrong_fields(hook_input, ("sessionID",), "its input.")
        or wrong_fields(props, ("sessionID",), "its properties.")
        or call.problem
        or (_parts_problem(out.get("parts")) if native == "chat.message" else None),
    )


def _parts_problem(parts: object) -> str | None:
    """What is wrong with a ``chat.message``'s ``output.parts``: missing or no list, or a
    text part (``"type": "text"``) whose ``text`` is missing or no text; None when
    nothing is (:func:`~.fields.wrong`)."""
    said = wrong(parts, "its output.parts", list, required=True)
    for number, part in enumerate(parts[:MAX_ITEMS] if isinstance(parts, list) else ()):
        if said is None and isinstance(part, dict) and part.get("type") == "text":
            said = wrong(part.get("text"), f"its output.parts[{number}].text", required=True)
    return said


def prompt_text(parts: object) -> str | None:
    """The user's text parts of a ``chat.message`` (parts plugins added are skipped)."""
    texts: list[str] = []
    for part in parts[:MAX_ITEMS] if isinstance(parts, list) else ():
        if isinstance(part, dict) and part.get("type") == "text" and not part.get("synthetic"):
            found = text(part.get("text"))
            if found is not None:
                texts.append(found)
    return "\n".join(texts) if texts else None


# Install side: how `memhooks agents install` wires this host (keys: ``wiring.py``).
# A dict literal, so the hook, which imports this module on every call, pays nothing for it.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .wiring import Wiring

INSTALL: Wiring = {
    "title": "OpenCode",
    "project": ".opencode/plugins/memhooks.js",
    "user": "{XDG_CONFIG_HOME:.config}/opencode/plugins/memhooks.js",
    "events": (
        ("chat.message", None),
        ("tool.execute.after", None),
        ("experimental.session.compacting", None),  # the session's ledger starts over
    ),
    "installer": "opencode",  # a JS plugin of our own
    "launch": "walk-up",  # run: 1.18.33, also outside git
    "skills": (".opencode/skills", "{XDG_CONFIG_HOME:.config}/opencode/skills"),
    "programs": ("opencode",),
    "dirs": ("{XDG_CONFIG_HOME:.config}/opencode",),
    "todo": (
        "OpenCode installs @opencode-ai/plugin on its first run with a plugin (needs the npm registry)",
    ),
    "source": "https://opencode.ai/docs/plugins; run: OpenCode 1.18.33",
}
