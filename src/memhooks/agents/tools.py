"""What a tool call did to files, from its name and its explicit path-bearing arguments.

Paths are taken only from argument keys that name a file (``file_path``,
``filePath``, ``path``, ``notebook_path``, ``files``, ...; issue 3 item 3 and
agent-hooks.md section 11), and from patch text, which is parsed structurally.
Free text (``content``, ``command``, ``old_string``, results) is never mined.

A tool's *kind* comes from the host's own table of tool names first, then from
the words of its name (``replace_string_in_file`` and ``mcp__fs__write_file``
are edits, ``run_shell_command`` is a command). Search and list tools (kind
``search``: Grep, Glob, ``search_files``, ``list_directory`` ...) report the folder they
searched as a ``read`` of that path (a directory; glob patterns are dropped), so the
session working set sees where the agent looks. Tools of kind ``other`` (web, tasks,
MCP calls without a file verb) report no files.
"""

from __future__ import annotations

from .base import DELETED, POST_COMMAND, POST_EDIT, POST_TOOL, READ, RENAMED, WRITTEN, FileChange
from .fields import MAX_ITEMS, mapping, strings, text, wrong
from .paths import clean_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypedDict

    from .outcome import Outcome

    class Told(TypedDict):
        """What a tool event says of its call and its result (:func:`told`)."""

        tool_name: str | None
        tool_input: dict[str, object] | None
        files: list[FileChange]
        command: str | None
        exit_code: int | None
        output: str | None
        malformed: str | None


EDIT = "edit"
READ_KIND = "read"
DELETE = "delete"
MOVE = "move"
COMMAND = "command"
SEARCH = "search"
OTHER = "other"

# Checked in this order: "run_shell_command" is a command, "delete_file" a delete.
_WORDS = (
    (
        COMMAND,
        frozenset({"bash", "shell", "terminal", "powershell", "pwsh", "command", "exec", "cmd"}),
    ),
    (DELETE, frozenset({"delete", "remove", "rm", "unlink"})),
    (MOVE, frozenset({"move", "rename", "mv"})),
    (EDIT, frozenset({"write", "edit", "create", "replace", "insert", "append", "save", "patch"})),
    (READ_KIND, frozenset({"read", "view", "open", "cat"})),
    (SEARCH, frozenset({"grep", "glob", "search", "find", "list", "ls"})),
)
_ACTION = {EDIT: WRITTEN, READ_KIND: READ, DELETE: DELETED}

PATH_KEYS = (
    "file_path",
    "filePath",
    "filepath",
    "path",
    "notebook_path",
    "absolute_path",
    "filename",
    "file",
)
LIST_KEYS = ("files", "paths", "file_paths", "filePaths")
#: The keys the hosts' own file tools name their one file in: anything but text there
#: (or text with a NUL, which no path holds) is a malformed event (:attr:`ToolCall.problem`).
FILE_KEYS = ("file_path", "filePath", "notebook_path")
#: The keys every host's replacing edit names the text it replaces and its new text in
#: (``memhooks.lines.tools.REPLACE_TOOLS``): anything but text there is malformed too.
EDIT_TEXT_KEYS = ("old_string", "new_string", "oldString", "newString", "old_str", "new_str")
#: A read's first line and line count (``lines.tools.READ_TOOLS``): whole numbers.
NUMBER_KEYS = ("offset", "limit")
#: Where a multi-edit (Claude Code's MultiEdit) lists its edits: objects, as one edit's.
EDITS_KEY = "edits"
#: The tool kinds that act on what their input names: one named with no input (null,
#: absent or blank) is malformed; another tool (a web fetch, a task) may take none.
INPUT_KINDS = frozenset((EDIT, READ_KIND, DELETE, MOVE, COMMAND, SEARCH))
RENAME_KEYS = (("old_path", "new_path"), ("source", "destination"))
PATCH_KEYS = ("patchText", "patch", "input", "command")
COMMAND_KEYS = ("command", "cmd", "command_line", "commandLine")
#: Where a search or list tool looked (a folder); patterns live in other keys.
SEARCH_KEYS = ("path", "dir_path", "directory", "dirPath", "absolute_path")
_GLOB = frozenset("*?[{")


def classify(name: str | None, table: dict[str, str]) -> str:
    """The kind of tool ``name`` (``table`` maps lower-cased host tool names to kinds)."""
    if name is None:
        return OTHER
    known = table.get(name.lower())
    if known is not None:
        return known
    words = set(_words(name))
    for kind, vocabulary in _WORDS:
        if words & vocabulary:
            # An MCP server's "search" looks somewhere else (a web index, GitHub).
            if kind == SEARCH and name.lower().startswith("mcp"):
                return OTHER
            return kind
    return OTHER


def _words(name: str) -> list[str]:
    # "editFiles" -> edit, files; "mcp__fs__write_file" -> mcp, fs, write, file.
    words: list[str] = []
    current = ""
    previous = ""
    for ch in name[:200]:
        if not ch.isalnum():
            if current:
                words.append(current)
            current = previous = ""
            continue
        if ch.isupper() and current and (previous.islower() or previous.isdigit()):
            words.append(current)
            current = ""
        current += ch.lower()
        previous = ch
    if current:
        words.append(current)
    return words


class ToolCall:
    """A tool call seen by a hook: ``name``, ``kind``, ``input`` dict, ``files``, ``command``,
    and ``problem``: what is wrong with its input (:func:`problem`), or None.

    ``unnamed`` is the kind assumed when the payload names no tool (the legacy
    memhooks bridge sends bare ``tool_input.paths``).
    """

    __slots__ = ("command", "files", "input", "kind", "name", "problem")

    def __init__(
        self,
        name: object,
        raw_input: object,
        table: dict[str, str],
        cwd: str | None,
        unnamed: str = OTHER,
    ) -> None:
        self.name = text(name)
        self.input = mapping(raw_input)
        self.kind = classify(self.name, table) if self.name is not None else unnamed
        needed = self.name is not None and self.kind in INPUT_KINDS
        self.problem = problem(raw_input, self.input, needed=needed, kind=self.kind)
        if self.kind == EDIT and self.input is not None and self.input.get("command") == "view":
            self.kind = READ_KIND  # str_replace_editor-style tools: "view" only reads
        self.files = files_from_input(self.input, self.kind, cwd)
        self.command = command_text(self.input) if self.kind == COMMAND else None

    def event(self, event: str | None) -> str | None:
        """Refine a host's post-tool event: a command, an edit (files changed), or neither."""
        if event != POST_TOOL:
            return event
        if self.kind == COMMAND:
            return POST_COMMAND
        if any(f.action != READ for f in self.files):
            return POST_EDIT
        return POST_TOOL


def problem(
    raw_input: object, found: dict[str, object] | None, *, needed: bool = False, kind: str = OTHER
) -> str | None:
    """What is wrong with a tool's input as the host sent it (``raw_input``; ``found``:
    it as an object), or None: no object (a blank string or null is no input: wrong only
    when ``needed``, a file or shell tool's); a :data:`FILE_KEYS`, :data:`EDIT_TEXT_KEYS`
    or :data:`EDITS_KEY` (``edits[0].old_string``) value of the wrong type, or a read's
    (``kind``) :data:`NUMBER_KEYS` one (:func:`~.fields.wrong`); a file key with a NUL."""
    if found is None:
        if raw_input is None or (isinstance(raw_input, str) and not raw_input.strip()):
            return "the tool's input is missing" if needed else None
        return f"the tool's input is not an object ({type(raw_input).__name__})"
    for key in FILE_KEYS:
        value = found.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            return wrong(value, f"the tool's {key}")
        if "\0" in value:
            return f"the tool's {key} holds a NUL character"
    said = _texts(found, "the tool's ")
    if said is None and EDITS_KEY in found:
        said = _edits(found[EDITS_KEY])
    for key in NUMBER_KEYS if kind == READ_KIND else ():
        said = said or wrong(found.get(key), f"the tool's {key}", int)
    return said


def _texts(found: dict[str, object], whose: str) -> str | None:
    """:func:`~.fields.wrong` of ``found``'s first :data:`EDIT_TEXT_KEYS` value not text."""
    for key in EDIT_TEXT_KEYS:
        value = found.get(key)
        if value is not None and not isinstance(value, str):
            return wrong(value, whose + key)
    return None


def _edits(value: object) -> str | None:
    """What is wrong with a multi-edit's :data:`EDITS_KEY` list, or None."""
    said = wrong(value, f"the tool's {EDITS_KEY}", list)
    for number, edit in enumerate(value[:MAX_ITEMS] if isinstance(value, list) else ()):
        name = f"the tool's {EDITS_KEY}[{number}]"
        said = said or wrong(edit, name, dict, required=True)
        said = said or (_texts(edit, name + ".") if isinstance(edit, dict) else None)
    return said


def told(call: ToolCall, result: Outcome) -> Told:
    """The :class:`~memhooks.agents.base.NormalizedEvent` fields a tool call and its
    result give (``**told(call, result)``): one mapping for every host that reports a
    tool's output and exit code as they are."""
    return {
        "tool_name": call.name,
        "tool_input": call.input,
        "files": call.files,
        "command": call.command,
        "exit_code": result.exit_code,
        "output": result.output,
        "malformed": call.problem,
    }


def files_from_input(
    tool_input: dict[str, object] | None, kind: str, cwd: str | None
) -> list[FileChange]:
    """The files named by ``tool_input``'s path keys (and patch text, for edits)."""
    if tool_input is None or kind in (COMMAND, OTHER):
        return []
    found: list[FileChange] = []
    if kind == SEARCH:
        for key in SEARCH_KEYS:
            for value in strings(tool_input.get(key)):
                if not _GLOB.intersection(value):
                    add(found, value, READ, cwd)
        return unique(found)
    for old_key, new_key in RENAME_KEYS:
        old = clean_path(tool_input.get(old_key), cwd)
        new = clean_path(tool_input.get(new_key), cwd)
        if old is not None and new is not None:
            found.append(FileChange(new, RENAMED, old))
    action = _ACTION.get(kind)
    if action is not None:
        for key in PATH_KEYS + LIST_KEYS:
            for value in strings(tool_input.get(key)):
                add(found, value, action, cwd)
        if kind == EDIT:
            edits = tool_input.get("edits")
            for item in edits[:MAX_ITEMS] if isinstance(edits, list) else ():
                if isinstance(item, dict):
                    add(found, item.get("file_path") or item.get("filePath"), WRITTEN, cwd)
            for key in PATCH_KEYS:
                for value in strings(tool_input.get(key)):
                    from .patch import looks_like_patch, parse_patch  # Codex and OpenCode edits

                    if looks_like_patch(value):
                        found.extend(parse_patch(value, cwd))
    return unique(found)


def add(found: list[FileChange], value: object, action: str, cwd: str | None) -> None:
    """Append ``value`` as a ``FileChange`` when it is an acceptable path."""
    path = clean_path(value, cwd)
    if path is not None:
        found.append(FileChange(path, action))


def unique(changes: list[FileChange]) -> list[FileChange]:
    """``changes`` without repeats, in first-seen order, capped."""
    seen: set[FileChange] = set()
    out: list[FileChange] = []
    for change in changes:
        if change not in seen:
            seen.add(change)
            out.append(change)
    return out[:MAX_ITEMS]


def command_text(tool_input: dict[str, object] | None) -> str | None:
    """The shell command of a command tool (a list of argv words is joined by spaces)."""
    if tool_input is None:
        return None
    for key in COMMAND_KEYS:
        value = tool_input.get(key)
        if isinstance(value, str) and value.strip():
            return value
        words = strings(value) if isinstance(value, list) else []
        if words:
            return " ".join(words)
    return None
