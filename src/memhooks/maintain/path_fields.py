"""The explicit path-bearing fields of a reference ``post_tool_call`` payload.

``memhooks event`` honours the reference engine's wire contract
(``shared/spec/reference-engine.md`` (f) step 3): for a payload whose
``hook_event_name`` is exactly ``post_tool_call``, every path named by a path-bearing
key of ``tool_input`` is a candidate, **whatever the tool** (the reference's own Hermes
plugin and its launcher send bare ``{"tool_input": {"paths": [...]}}`` with no tool
name). Rules:

* ``tool_input`` objects and arrays are walked recursively; a key, lower-cased, in
  :data:`PATH_KEYS` contributes its string value, or every string inside its (possibly
  nested) array; an object under such a key is not descended into;
* nothing else is mined: not ``tool_response``, prompts, commands, patch bodies or
  ``old_string``/``new_string``;
* blank strings, URLs (``http(s)://``, ``git@``) and strings with control characters
  are dropped (:func:`memhooks.agents.paths.clean_path`).

Whether a candidate exists, lies inside the root or is skipped is decided later
(:mod:`.touched`), exactly as for the paths an agent adapter reports.
"""

from __future__ import annotations

from ..agents.paths import clean_path

#: Keys whose values name files or directories (compared lower-cased).
PATH_KEYS = frozenset(
    ("path", "paths", "file", "files", "filename", "file_path", "filepath", "target",
     "source", "destination", "dest", "output", "output_path", "workdir", "cwd")
)  # fmt: skip
#: The reference event name these rules apply to (spec (f) step 1).
REFERENCE_EVENT = "post_tool_call"
#: Most candidates taken from one payload, and deepest nesting walked (hostile payloads).
MAX_PATHS = 1024
MAX_DEPTH = 64


def explicit_paths(payload: object) -> list[str]:
    """The candidate paths of a reference ``post_tool_call`` payload, in payload order,
    without repeats; empty for any other payload. Paths are as written (relative ones
    are joined to the event's working folder by the caller)."""
    if not isinstance(payload, dict) or payload.get("hook_event_name") != REFERENCE_EVENT:
        return []
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict):
        return []
    found: list[str] = []
    _walk(tool_input, found, 0)
    return found


def _walk(value: object, found: list[str], depth: int) -> None:
    if depth > MAX_DEPTH or len(found) >= MAX_PATHS:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and key.lower() in PATH_KEYS:
                _strings(item, found, depth + 1)
            else:
                _walk(item, found, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _walk(item, found, depth + 1)


def _strings(value: object, found: list[str], depth: int) -> None:
    """A string, or every string inside nested arrays; objects are not descended."""
    if depth > MAX_DEPTH or len(found) >= MAX_PATHS:
        return
    if isinstance(value, str):
        path = clean_path(value, None)
        if path is not None and path not in found:
            found.append(path)
    elif isinstance(value, list):
        for item in value:
            _strings(item, found, depth + 1)
