"""A tool call of a transcript as a :class:`~.model.ToolUse`, by the host's own tool table.

The same rules as the hook's (:mod:`memhooks.agents.tools`): paths only from the keys
that name a file and from patch text, never mined from free text; a command keeps its
text, whose existing paths are found later against the project (:mod:`.anchors`).
"""

from __future__ import annotations

import json

from ..agents.tools import ToolCall
from .model import ToolUse


def tool_use(name: object, arguments: object, table: dict[str, str]) -> ToolUse:
    """``arguments`` is a dict, or a JSON string of one (OpenAI function calls), or a
    freeform string (Codex's ``apply_patch`` input, passed as ``{"input": ...}``)."""
    if isinstance(arguments, str):
        try:
            decoded = json.loads(arguments)
        except ValueError:
            decoded = {"input": arguments}
        arguments = decoded if isinstance(decoded, dict) else {"input": arguments}
    call = ToolCall(name, arguments, table, None)
    return ToolUse(call.name or "?", call.kind, [f.path for f in call.files], call.command)
