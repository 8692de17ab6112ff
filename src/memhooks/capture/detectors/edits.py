"""``post_edit``: a what-changed memory only when the edit itself says something.

Every edit is remembered in the session (files changed; steps of pending failures), but
a memory is written only for:

* a **configuration file** (:data:`~memhooks.capture.patterns.CONFIG_FILE`) whose new
  lines the host sent: the lines that changed, with what they replaced;
* an added **comment that gives a reason** (:data:`~memhooks.capture.patterns.RATIONALE`:
  "because", "workaround", "never", "decided"…) in any file, or such a line added to a
  prose file (Markdown, ADRs).

A plain code change is already in version control; "edited billing.py" alone is noise.
The added text comes from the tool input the host sent (``new_string``, ``content``,
``edits[]``, Codex/OpenCode patches, Cline SEARCH/REPLACE blocks); hosts that send only
a path (Cursor ``afterFileEdit``, Windsurf, OpenCode ``file.edited``) give no memory.
"""

from __future__ import annotations

import os

from ...statements import statement_kind
from ..candidate import WHAT_CHANGED, Candidate
from ..observation import excerpt
from ..patterns import COMMENT, CONFIG_FILE, DOC_FILE, RATIONALE, TRAILING_COMMENT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..observation import Observation

#: Most files and lines of one edit that become memories.
MAX_FILES = 3
MAX_LINES = 6
LINE_CHARS = 200
_NEW_KEYS = ("new_string", "newString", "new_str", "content", "file_text", "contents", "text")
_OLD_KEYS = ("old_string", "oldString", "old_str")
_PATCH_KEYS = ("patch", "patchText", "patch_text", "input", "command", "diff")


def detect(obs: Observation) -> list[Candidate]:
    files = obs.changed_files()
    obs.note_changes(files)
    if not files:
        return []
    found: list[Candidate] = []
    for name, added, removed in changes(obs.event.tool_input, files, obs):
        lines = _signal_lines(name, added)
        if not lines:
            continue
        text = f"Changed {name}: " + "\n".join(lines)
        if CONFIG_FILE.search(name):
            old = [x for x in removed if x not in added][:MAX_LINES]
            if old:
                text += "\n(was: " + excerpt(" | ".join(old), LINE_CHARS * 2) + ")"
        found.append(
            Candidate(
                WHAT_CHANGED,
                excerpt(text, 1200),
                scope=os.path.dirname(name),
                files=[name],
                signal=sum(len(x) for x in lines),
            )
        )
        if len(found) == MAX_FILES:
            break
    return found


def changes(
    tool_input: dict[str, object] | None, files: list[str], obs: Observation
) -> list[tuple[str, list[str], list[str]]]:
    """``[(file, added lines, removed lines)]`` that the tool input shows."""
    if not tool_input:
        return []
    for key in _PATCH_KEYS:
        value = tool_input.get(key)
        if isinstance(value, str) and _is_patch(value):
            return _patch_changes(value, obs)
        if isinstance(value, str) and "=======" in value and "SEARCH" in value:
            return [(files[0], *_search_replace(value))]
    added: list[str] = []
    removed: list[str] = []
    for key in _NEW_KEYS:
        value = tool_input.get(key)
        if isinstance(value, str):
            added += value.splitlines()
    for key in _OLD_KEYS:
        value = tool_input.get(key)
        if isinstance(value, str):
            removed += value.splitlines()
    edits = tool_input.get("edits")
    if isinstance(edits, list):
        for edit in edits:
            if isinstance(edit, dict):
                for key in (*_NEW_KEYS, "replacement"):
                    if isinstance(edit.get(key), str):
                        added += str(edit[key]).splitlines()
                for key in _OLD_KEYS:
                    if isinstance(edit.get(key), str):
                        removed += str(edit[key]).splitlines()
    before = set(removed)
    return [(files[0], [x for x in added if x not in before], removed)] if added else []


def _signal_lines(name: str, added: list[str]) -> list[str]:
    lines: list[str] = []
    config = bool(CONFIG_FILE.search(name))
    prose = bool(DOC_FILE.search(name)) and not config
    for raw in added:
        line = raw.strip()
        if not line:
            continue
        if config:
            keep = line if not COMMENT.match(line) else None
            keep = keep or _rationale(line)
        elif prose:
            keep = line.lstrip("#>*- ").strip() if statement_kind(line.lstrip("#>*- ")) else None
        else:
            keep = _rationale(line)
        if keep and excerpt(keep, LINE_CHARS) not in lines:
            lines.append(excerpt(keep, LINE_CHARS))
        if len(lines) == MAX_LINES:
            break
    return lines


def _rationale(line: str) -> str | None:
    """The comment text of ``line`` when it gives a reason, else None."""
    match = COMMENT.match(line) or TRAILING_COMMENT.search(line)
    if match is None:
        return None
    comment = match.group(1).strip()
    return comment if len(comment) >= 12 and RATIONALE.search(comment) else None


def _is_patch(text: str) -> bool:
    return "*** Begin Patch" in text or text.startswith(("--- ", "diff --git")) or "\n+++ " in text


def _patch_changes(text: str, obs: Observation) -> list[tuple[str, list[str], list[str]]]:
    out: list[tuple[str, list[str], list[str]]] = []
    current: tuple[str, list[str], list[str]] | None = None
    for line in text.splitlines():
        header = _patch_file(line)
        if header is not None:
            rel = obs.relative(header)
            current = (rel, [], []) if rel else None
            if current:
                out.append(current)
            continue
        if current is None or line.startswith(("+++", "---")):
            continue
        if line.startswith("+"):
            current[1].append(line[1:])
        elif line.startswith("-"):
            current[2].append(line[1:])
    return [(name, [x for x in add if x not in set(rem)], rem) for name, add, rem in out if add]


def _patch_file(line: str) -> str | None:
    for prefix in ("*** Add File: ", "*** Update File: ", "*** Move to: ", "+++ b/", "+++ "):
        if line.startswith(prefix):
            path = line[len(prefix) :].strip()
            return None if path == "/dev/null" else path
    return None


def _search_replace(text: str) -> tuple[list[str], list[str]]:
    added: list[str] = []
    removed: list[str] = []
    target = None
    for line in text.splitlines():
        if "SEARCH" in line and line.lstrip("-<").strip().startswith("SEARCH"):
            target = removed
        elif line.strip() == "=======":
            target = added
        elif "REPLACE" in line and line.lstrip("+>").strip().startswith("REPLACE"):
            target = None
        elif target is not None:
            target.append(line)
    before = set(removed)
    return [x for x in added if x not in before], removed
